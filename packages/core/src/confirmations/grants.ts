import type { ConfirmFeature } from '../types'
import { makeFeature } from './feature'
import { createGrantList } from './grantList'

/**
 * Lets people approve with a grant (`approve(id, { grant })`; `<ConfirmDialog>` then offers
 * "Allow for this session"): give it where you create the registry. It brings the grant list and
 * the code that reads and matches pins, so a registry made without it bundles none of that, and
 * its calls skip the lookup. Without it, no entry is `grantable` and an approval with a grant is
 * refused `grant_not_allowed` with the entry left pending.
 *
 * @example
 * const tm = createToolmark({ confirm: { grants: grants() } })
 * await tm.confirmations.approve(id, { grant: { for: 'session', pins: ['ticketId'] } })
 */
export function grants(): ConfirmFeature<'grants'> {
  // A store that is not a registry's own (a test double) takes nothing.
  return makeFeature('grants', (store) => store.useGrants?.(createGrantList))
}
