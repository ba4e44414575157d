import type { ConfirmFeature } from '../types'
import { makeFeature } from './feature'
import { prepareQuestion } from './question'
import { runQuestion } from './questionRun'
import { lendQuestions } from './questionSupport'

/** Options of {@link questions}. */
export interface QuestionsOptions {
  /**
   * What a presenter answers questions with: `questionForm` from `@toolmark/react` for
   * `<ConfirmDialog>`. Core only holds it for the presenter to read.
   */
  form?: unknown
}

/**
 * Lets this registry's runs ask the person typed questions (`ctx.ask`): give it where you create
 * the registry. It brings the code that reads a question's schema and checks answers, so a
 * registry made without it bundles none of it; a run's `ctx.ask` on such a registry, with a
 * presenter mounted, is rejected naming this fix in development and resolves `invalid_question`
 * in production. `form` is what `<ConfirmDialog>` draws the question with.
 *
 * @example
 * import { questionForm } from '@toolmark/react'
 * const tm = createToolmark({ confirm: { questions: questions({ form: questionForm }) } })
 */
export function questions(options: QuestionsOptions = {}): ConfirmFeature<'questions'> {
  const form = typeof options === 'object' && options !== null ? options.form : undefined
  return makeFeature('questions', (_store, features) =>
    lendQuestions(features, { prepare: prepareQuestion, run: runQuestion }, form),
  )
}
