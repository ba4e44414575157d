import type { Toolmark } from '../types'

/**
 * Whether `enableGrants(tm)` was called on this registry, so its approvals may carry a grant: what
 * a presenter that offers grants checks before it tells the developer why it offers none.
 */
export const grantsEnabled = (tm: Pick<Toolmark, 'confirmations'>): boolean =>
  (tm.confirmations as { grantList?: unknown }).grantList !== undefined
