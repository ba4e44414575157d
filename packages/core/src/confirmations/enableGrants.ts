import type { Toolmark } from '../types'
import { createGrantList } from './grantList'
import type { InternalConfirmationStore } from './confirmationStore'

/**
 * Lets people approve with a grant (`approve(id, { grant })`, `<ConfirmDialog offerGrants>`): it
 * brings the grant list and the code that reads and matches pins, so a registry nobody gives
 * grants to does not bundle them, and its calls skip the lookup. Call it where you create the
 * registry; `createTestToolmark` and `replaySession` call it for theirs. Until it is called, no
 * entry is `grantable` (the dialog offers no grant) and an approval with a grant is refused
 * `grant_not_allowed` with the entry left pending. Calling it again does nothing.
 *
 * @example
 * const tm = createToolmark()
 * enableGrants(tm)
 * await tm.confirmations.approve(id, { grant: { for: 'session', pins: ['ticketId'] } })
 */
export function enableGrants(tm: Pick<Toolmark, 'confirmations'>): void {
  const store = tm.confirmations as Partial<InternalConfirmationStore>
  store.useGrants?.(createGrantList)
}
