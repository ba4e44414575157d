import type { PreparedQuestion, QuestionProblem } from './question'
import type { Checked } from '../base/results'
import type { Ending } from './confirmation'
import type { JsonSchemaConverter } from '../schema/jsonSchema'
import type { QuestionAnswer } from '../types'

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
 * The question code lent to a registry's confirmation store by `questions()`: what a run's
 * `ctx.ask` is read, asked and checked with. A registry nobody lent it to bundles none of it.
 */
export const questionSupport = new WeakMap<object, QuestionCode>()

/** The form a presenter answers a store's questions with (`questions({ form })`). */
export const questionForms = new WeakMap<object, unknown>()
