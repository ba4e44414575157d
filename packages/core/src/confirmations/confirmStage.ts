import type { ConfirmStatus } from '../types'

/**
 * A confirmation's coarse stage: `requested` while a person decides, then `approved`, `rejected`
 * (denied or withdrawn) or `expired` (run out or evicted). Activity records and the bridge's
 * messages to agents speak in stages; the `confirm` event carries only the status they fold.
 */
export type ConfirmStage = 'requested' | 'approved' | 'rejected' | 'expired'

const STAGE: { readonly [S in ConfirmStatus]: ConfirmStage } = {
  pending: 'requested',
  approved: 'approved',
  rejected: 'rejected',
  withdrawn: 'rejected',
  expired: 'expired',
  evicted: 'expired',
}

/** The coarse stage of a confirmation's status (internal: not for apps). */
export function confirmStage(status: ConfirmStatus): ConfirmStage {
  return STAGE[status]
}
