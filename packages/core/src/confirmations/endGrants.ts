import type { Caller, Toolmark } from '../types'
import type { InternalConfirmationStore } from './confirmationStore'

/**
 * Ends the grants a person gave to `caller`, through the registry's own store: a session of that
 * caller (a bridge, an MCP pairing, a WebMCP consumer) began or ended, and a grant covers only
 * the agent it was given to. Nothing to do on a registry without grants.
 */
export function endGrantsOf(tm: Pick<Toolmark, 'confirmations'>, caller: Caller): void {
  ;(tm.confirmations as Partial<InternalConfirmationStore>).endGrants?.(caller)
}
