import type { ConfirmDialogLabels } from './confirmDialogLabels'

/** Previous / "2 of 3" / Next, to page through the requests that wait. */
export function ConfirmDialogQueue({
  index,
  total,
  labels,
  onSelect,
}: {
  index: number
  total: number
  labels: ConfirmDialogLabels
  onSelect: (index: number) => void
}) {
  return (
    <div data-part="nav">
      <button type="button" disabled={index === 0} onClick={() => onSelect(index - 1)}>
        {labels.previous}
      </button>
      <p data-part="position">{labels.position(index + 1, total)}</p>
      <button type="button" disabled={index >= total - 1} onClick={() => onSelect(index + 1)}>
        {labels.next}
      </button>
    </div>
  )
}
