import type { RefCallback } from 'react'
import type { ConfirmDialogLabels } from './confirmDialogLabels'

/** The built-in Deny and Approve buttons; Deny takes `denyRef`, so focus starts there. */
export function ConfirmDialogButtons({
  approve,
  deny,
  pending,
  denyRef,
  labels,
}: {
  approve: () => void
  deny: () => void
  pending: boolean
  denyRef: RefCallback<HTMLElement>
  labels: ConfirmDialogLabels
}) {
  return (
    <div data-part="actions">
      <button ref={denyRef} type="button" data-action="deny" disabled={pending} onClick={deny}>
        {labels.deny}
      </button>
      <button
        type="button"
        data-action="approve"
        data-variant="primary"
        disabled={pending}
        onClick={approve}
      >
        {pending ? labels.working : labels.approve}
      </button>
    </div>
  )
}

/** Deny all and Approve all, shown while several requests wait. */
export function ConfirmDialogBulkButtons({
  approveAll,
  denyAll,
  labels,
}: {
  approveAll: () => void
  denyAll: () => void
  labels: ConfirmDialogLabels
}) {
  return (
    <div data-part="bulk">
      <button type="button" onClick={denyAll}>
        {labels.denyAll}
      </button>
      <button type="button" onClick={approveAll}>
        {labels.approveAll}
      </button>
    </div>
  )
}
