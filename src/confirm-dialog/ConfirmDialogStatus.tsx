import type { ConfirmDialogLabels } from './confirmDialogLabels'
import type { UseConfirmDialogResult } from './useConfirmDialog'
import { ConfirmDialogOutcome } from './ConfirmDialogOutcome'

/**
 * Below the request: the outcomes to read (an alert), else the time left while requests wait
 * on screen (the earliest expiry of a review list's open rows).
 */
export function ConfirmDialogStatus({
  dialog,
  labels,
}: {
  dialog: UseConfirmDialogResult
  labels: ConfirmDialogLabels
}) {
  const { review, current, outcomes } = dialog
  const openRows = review?.filter((row) => !row.ended) ?? []
  const expiresAt = review
    ? Math.min(...openRows.map((row) => row.entry.expiresAt))
    : current?.expiresAt
  const showTimer = dialog.asking && expiresAt !== undefined && Number.isFinite(expiresAt)
  return outcomes.length > 0 ? (
    <div data-part="outcome" role="alert">
      {outcomes.map((outcome) => (
        <ConfirmDialogOutcome
          key={outcome.entry.id}
          outcome={outcome}
          labels={labels}
          named={outcomes.length > 1}
        />
      ))}
    </div>
  ) : showTimer ? (
    <p data-part="timer">
      {labels.timeLeft(Math.max(0, Math.ceil((expiresAt - dialog.now) / 1000)))}
    </p>
  ) : null
}
