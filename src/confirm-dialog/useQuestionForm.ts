'use client'
import { useEffect, useRef } from 'react'
import { reportError, type ConfirmationEntry, type Toolmark } from '@toolmark/core'
import { questionFormOf } from '@toolmark/core/observers'
import { questionFormParts, type QuestionForm, type QuestionFormParts } from './questionFormKey'

// Bundlers replace `process.env.NODE_ENV` with a string literal, so production builds drop the
// development warning below; declared here so the kit does not need Node's types.
declare const process: { env: { NODE_ENV?: string } }

const BAD_QUESTIONS =
  '<ConfirmDialog questions> takes questionForm from @toolmark/react, nothing else; questions are shown with Decline only.'

/**
 * The form `<ConfirmDialog>` answers questions (`ctx.ask`) with: `questions` when passed, else
 * the registry's own, read at render (a registry lent questions after the dialog mounted is read
 * at its next request). Anything but a `questionForm` throws in development and is reported once
 * per dialog and registry otherwise; a question with no form to answer it warns once in
 * development. `undefined` when there is no usable form: questions show Decline only.
 *
 * @example
 * const question = useQuestionForm(tm, questions, dialog.entry)
 */
export function useQuestionForm(
  tm: Toolmark,
  questions: QuestionForm | undefined,
  entry: ConfirmationEntry | undefined,
): QuestionFormParts | undefined {
  const form = questions ?? questionFormOf(tm)
  const question = questionFormParts(form)
  const badQuestions = form !== undefined && !question
  if (badQuestions && tm.dev) throw new Error(`[toolmark] ${BAD_QUESTIONS}`)
  // Reported once per dialog and registry (effects run twice under StrictMode).
  const reportedBadQuestions = useRef<Toolmark>(undefined)
  useEffect(() => {
    if (!badQuestions || reportedBadQuestions.current === tm) return
    reportedBadQuestions.current = tm
    reportError(tm, { code: 'invalid_options', message: BAD_QUESTIONS })
  }, [tm, badQuestions])
  const warnedNoForm = useRef(false)
  useEffect(() => {
    if (process.env.NODE_ENV === 'production') return
    if (question || !entry?.question || !tm.dev || warnedNoForm.current) return
    warnedNoForm.current = true
    console.warn(
      '[toolmark] <ConfirmDialog>: a tool asked a question (ctx.ask) and there is no form to answer it with, so the person can only decline. Create the registry with createToolmark({ confirm: { questions: questions({ form: questionForm }) } }), questionForm from @toolmark/react.',
    )
  }, [tm, question, entry])
  return question
}
