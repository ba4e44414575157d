import type { RefCallback } from 'react'
import type { ConfirmDialogLabels } from './confirmDialogLabels'

/**
 * The built-in Deny and Approve buttons; Deny takes `denyRef`, so focus starts there. For a
 * destructive request the approve button says what it does ("Delete ticket") in danger colors.
 * With `allowForSession` (a request the ceilings let a person grant), approve reads "Allow once"
 * and "Allow for this session" stands beside it.
 */
export function ConfirmDialogButtons({
  approve,
  allowForSession,
  deny,
  pending,
  denyRef,
  labels,
  destructive,
}: {
  approve: () => void
  allowForSession?: () => void
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
      {allowForSession ? (
        <button
          type="button"
          data-action="allow-session"
          data-variant="secondary"
          disabled={pending}
          onClick={allowForSession}
        >
          {labels.allowSession}
        </button>
      ) : null}
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
            : allowForSession
              ? labels.allowOnce
              : labels.approve}
      </button>
    </div>
  )
}
