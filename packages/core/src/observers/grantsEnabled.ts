import type { Toolmark } from '../types'
import { bodyOf } from '../base/registryBody'

/**
 * Whether this registry was given `grants()` (or lent it), so its approvals may carry a grant:
 * what a presenter reads to decide whether it offers one.
 */
export const grantsEnabled = (tm: Pick<Toolmark, 'confirmations'>): boolean =>
  (tm.confirmations as { grantList?: unknown }).grantList !== undefined

/** Whether this registry's runs may ask questions (`questions()` was given or lent). */
export const questionsEnabled = (tm: Pick<Toolmark, 'confirmations'>): boolean =>
  bodyOf(tm)?.features.questions !== undefined

/** The form `questions({ form })` gave this registry's presenters, if any. */
export const questionFormOf = (tm: Pick<Toolmark, 'confirmations'>): unknown =>
  bodyOf(tm)?.features.questionForm
