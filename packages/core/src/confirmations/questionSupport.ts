import type { PreparedQuestion, QuestionProblem } from './question'
import type { Checked } from '../base/results'
import type { Ending } from './confirmation'
import type { JsonSchemaConverter } from '../schema/jsonSchemaConverter'
import type { QuestionAnswer } from '../types'
import type { InstalledFeatures } from '../base/registryBody'

/** What `ctx.ask` was given, read into a question a dialog can draw, or why it cannot be asked. */
export type PrepareQuestion = (
  request: unknown,
  converter: JsonSchemaConverter | undefined,
) => PreparedQuestion | { problem: QuestionProblem }

/** Why a run's question or `ctx.confirm` ended when the last presenter went away. */
export const NO_PRESENTER = 'no_presenter'

/** What the call flow gives a question it asks: filing it, and reporting a validator that threw. */
export interface QuestionFiling {
  /** Files the question with this check of its answers; resolves when it ends. */
  file(check: (value: unknown) => Promise<Checked>): Promise<Ending>
  /** The app's validator threw: an `error` event (the entry stays pending). */
  threw(cause: unknown): void
}

/** What `questions()` lends: reading a question, and asking it once read. */
export interface QuestionCode {
  readonly prepare: PrepareQuestion
  readonly run: (prepared: PreparedQuestion, filing: QuestionFiling) => Promise<QuestionAnswer>
}

/**
 * The question code `questions()` lent to a registry (kept in its body's installed features): what
 * a run's `ctx.ask` is read, asked and checked with. A registry nobody lent it to bundles none
 * of it, and has none.
 */
export const questionCodeOf = (features: InstalledFeatures): QuestionCode | undefined =>
  features.questions as QuestionCode | undefined

/** Lends the question code, and the first form given, to a registry's installed features. */
export function lendQuestions(
  features: InstalledFeatures,
  code: QuestionCode,
  form: unknown,
): void {
  features.questions = code
  if (form !== undefined && features.questionForm === undefined) features.questionForm = form
}
