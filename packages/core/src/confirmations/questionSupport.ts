import type { PreparedQuestion, QuestionProblem } from './question'
import type { JsonSchemaConverter } from '../schema/jsonSchema'

/** What `ctx.ask` was given, read into a question a dialog can draw, or why it cannot be asked. */
export type PrepareQuestion = (
  request: unknown,
  converter: JsonSchemaConverter | undefined,
) => PreparedQuestion | { problem: QuestionProblem }

/**
 * The question code lent to a registry's confirmation store by `questions()`: what a run's
 * `ctx.ask` is read and checked with. A registry nobody lent it to bundles none of it.
 */
export const questionSupport = new WeakMap<object, PrepareQuestion>()

/** The form a presenter answers a store's questions with (`questions({ form })`). */
export const questionForms = new WeakMap<object, unknown>()
