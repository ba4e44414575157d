import type { Toolmark } from '../types'
import { createGrantList } from './grantList'
import type { InternalConfirmationStore } from './confirmationStore'

/**
 * Lets people approve with a grant (`approve(id, { grant })`): it brings the grant list and the
 * code that reads and matches pins, so a registry nobody gives grants to does not bundle them,
 * and its calls skip the lookup. `<ConfirmDialog>` and `useConfirmations()` call it, as do
 * `createTestToolmark` and `replaySession`; a script that approves with grants through
 * `tm.confirmations` alone calls it once itself (until then such an approval is refused
 * `grant_not_allowed` and the entry stays pending). Calling it again does nothing.
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
