import { ConfirmDialogQuestion, ConfirmDialogQuestionButtons } from './ConfirmDialogQuestion'
import { QUESTION_FORM, type QuestionForm } from './questionFormKey'

/**
 * The form a question (`ctx.ask`) is answered with in `<ConfirmDialog>`: one labelled control
 * per field of the question's schema, its issues beside them, and Decline / Answer. Give it to
 * the registry of an app whose tools ask, and every `<ConfirmDialog>` of that registry draws
 * questions with it; a registry without it shows a question's prompt with Decline only, and an
 * app that never asks does not bundle the form.
 *
 * @example
 * ```tsx
 * import { createToolmark, questions } from '@toolmark/core'
 * import { questionForm } from '@toolmark/react'
 *
 * const tm = createToolmark({ confirm: { questions: questions({ form: questionForm }) } })
 * ```
 */
export const questionForm: QuestionForm = Object.freeze({
  [QUESTION_FORM]: Object.freeze({
    Form: ConfirmDialogQuestion,
    Buttons: ConfirmDialogQuestionButtons,
  }),
})
