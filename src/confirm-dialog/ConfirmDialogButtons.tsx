import type { RefCallback } from 'react'
import type { ConfirmDialogLabels } from './confirmDialogLabels'

/**
 * The built-in Deny and Approve buttons; Deny takes `denyRef`, so focus starts there. For a
 * destructive request the approve button says what it does ("Delete ticket") in danger colors.
 */
export function ConfirmDialogButtons({
  approve,
  deny,
  pending,
  denyRef,
  labels,
  destructive,
}: {
  approve: () => void
  deny: () => void
  pending: boolean
  denyRef: RefCallback<HTMLElement>
  labels: ConfirmDialogLabels
  /** The request on screen when it is destructive: its tool and title name the button. */
  destructive: { tool: string; title?: string } | undefined
}) {
  return (
    <div data-part="actions">
      <button ref={denyRef} type="button" data-action="deny" disabled={pending} onClick={deny}>
        {labels.deny}
      </button>
      <button
        type="button"
        data-action="approve"
        data-variant={destructive ? 'danger' : 'primary'}
        disabled={pending}
        onClick={approve}
      >
        {pending
          ? labels.working
          : destructive
            ? labels.approveDestructive(destructive)
            : labels.approve}
      </button>
    </div>
  )
}
