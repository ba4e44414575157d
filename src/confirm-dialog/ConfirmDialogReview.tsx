import { useEffect, useId, useRef, type ReactNode } from 'react'
import type { FieldChange } from '@toolmark/core'
import type { ConfirmDialogLabels } from './confirmDialogLabels'
import type { ReviewRow } from './confirmDialogState'
import { ConfirmDialogDetails } from './ConfirmDialogDetails'
import { AgentText } from './AgentText'

/** How much of a row must have been on screen for it to count as seen. */
const SEEN_RATIO = 0.9

/**
 * Several requests of one agent as one list: a checkbox per row (named by the row's title and
 * summary), each row's changes or values, and a mark on rows that ended meanwhile. A row is
 * ticked by default only once it has been on screen, so nothing the person never saw is approved
 * by one click; the list scrolls inside the dialog when it is long.
 */
export function ConfirmDialogReview({
  rows,
  labels,
  renderChanges,
  busy,
  onToggle,
  onSeen,
}: {
  rows: readonly ReviewRow[]
  labels: ConfirmDialogLabels
  renderChanges: ((changes: FieldChange[]) => ReactNode) | undefined
  busy: boolean
  onToggle: (id: string, checked: boolean) => void
  onSeen: (ids: readonly string[]) => void
}) {
  const list = useRef<HTMLUListElement | null>(null)
  const onSeenRef = useRef(onSeen)
  useEffect(() => {
    onSeenRef.current = onSeen
  })
  const ids = rows.map((row) => row.entry.id).join(' ')

  // Rows count as seen once (nearly) wholly visible, clipped by the list and the dialog; a row
  // taller than the list counts once it fills most of it. Without an observer (no layout) every
  // row counts as seen.
  useEffect(() => {
    const element = list.current
    if (!element) return
    const items = [...element.querySelectorAll<HTMLElement>('[data-row-id]')]
    if (typeof IntersectionObserver === 'undefined') {
      onSeenRef.current(items.map((item) => item.dataset.rowId!))
      return
    }
    const observer = new IntersectionObserver(
      (entries) => {
        const seen = entries
          .filter(
            (entry) =>
              entry.isIntersecting &&
              (entry.intersectionRatio >= SEEN_RATIO ||
                entry.intersectionRect.height >= element.clientHeight * SEEN_RATIO),
          )
          .map((entry) => (entry.target as HTMLElement).dataset.rowId!)
        if (seen.length > 0) onSeenRef.current(seen)
      },
      { threshold: [0, 0.25, 0.5, 0.75, SEEN_RATIO, 1] },
    )
    for (const item of items) observer.observe(item)
    return () => observer.disconnect()
  }, [ids])

  return (
    <ul ref={list} data-part="review" aria-label={labels.reviewTitle(rows.length)}>
      {rows.map((row) => (
        <ReviewItem
          key={row.entry.id}
          row={row}
          labels={labels}
          renderChanges={renderChanges}
          busy={busy}
          onToggle={onToggle}
        />
      ))}
    </ul>
  )
}

function ReviewItem({
  row,
  labels,
  renderChanges,
  busy,
  onToggle,
}: {
  row: ReviewRow
  labels: ConfirmDialogLabels
  renderChanges: ((changes: FieldChange[]) => ReactNode) | undefined
  busy: boolean
  onToggle: (id: string, checked: boolean) => void
}) {
  const { entry, ended, checked } = row
  const nameId = useId()
  const noteId = useId()
  return (
    <li
      data-row-id={entry.id}
      data-tone={entry.hints.destructive ? 'danger' : undefined}
      data-ended={ended}
    >
      <label data-part="row-label">
        <input
          type="checkbox"
          checked={checked}
          disabled={busy || ended !== undefined}
          aria-labelledby={nameId}
          aria-describedby={ended || entry.verify ? noteId : undefined}
          onChange={(event) => onToggle(entry.id, event.currentTarget.checked)}
        />
        <span id={nameId}>
          <strong data-part="row-title">
            <AgentText text={entry.title ?? entry.tool} />
          </strong>{' '}
          <span data-part="row-summary">
            <AgentText text={entry.summary} />
          </span>
        </span>
      </label>
      {ended || entry.verify ? (
        <p id={noteId} data-part={ended ? 'row-ended' : 'verify'}>
          {ended === 'expired'
            ? labels.expired
            : ended === 'withdrawn'
              ? labels.withdrawn
              : labels.verify}
        </p>
      ) : null}
      <ConfirmDialogDetails entry={entry} labels={labels} renderChanges={renderChanges} />
    </li>
  )
}

/** Deny all and Approve selected (n), under a review list; Deny all takes `denyRef`. */
export function ConfirmDialogReviewButtons({
  approveSelected,
  denyAll,
  count,
  pending,
  destructive,
  denyRef,
  labels,
}: {
  approveSelected: () => void
  denyAll: () => void
  count: number
  pending: boolean
  destructive: boolean
  denyRef: (node: HTMLElement | null) => void
  labels: ConfirmDialogLabels
}) {
  return (
    <div data-part="actions">
      <button
        ref={denyRef}
        type="button"
        data-action="deny-all"
        disabled={pending}
        onClick={denyAll}
      >
        {labels.denyAll}
      </button>
      <button
        type="button"
        data-action="approve-selected"
        data-variant={destructive ? 'danger' : 'primary'}
        disabled={pending || count === 0}
        onClick={approveSelected}
      >
        {pending ? labels.working : labels.approveSelected(count)}
      </button>
    </div>
  )
}
