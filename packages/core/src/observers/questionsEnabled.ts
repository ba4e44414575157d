import type { Toolmark } from '../types'
import { bodyOf } from '../base/registryBody'

/** Whether this registry's runs may ask questions (`questions()` was given or lent). */
export const questionsEnabled = (tm: Pick<Toolmark, 'confirmations'>): boolean =>
  bodyOf(tm)?.features.questions !== undefined

/** The form `questions({ form })` gave this registry's presenters, if any. */
export const questionFormOf = (tm: Pick<Toolmark, 'confirmations'>): unknown =>
  bodyOf(tm)?.features.questionForm
