import { useMemo, type ReactNode } from 'react'
import type { ConfirmationEntry, FieldChange } from '@toolmark/core'
import type { ConfirmDialogLabels } from './confirmDialogLabels'
import { summarySaysAll, valueRows, visibleChanges } from './confirmDialogRows'
import { ConfirmDialogChanges } from './ConfirmDialogChanges'
import { ConfirmDialogValues } from './ConfirmDialogValues'

/**
 * What a request would do, in the clearest form its entry allows: the change table when the
 * changes say everything; the values table when the input has values the changes do not show
 * (a whole form submission, its edits marked) or when there are no changes at all, so a person
 * never approves an input they cannot see; nothing when that input is one value the summary
 * already states ("Close ticket #7" for `{ id: 7 }`).
 */
export function ConfirmDialogDetails({
  entry,
  labels,
  renderChanges,
}: {
  entry: ConfirmationEntry
  labels: ConfirmDialogLabels
  renderChanges: ((changes: FieldChange[]) => ReactNode) | undefined
}) {
  const changes = useMemo(() => visibleChanges(entry.changes), [entry.changes])
  const rows = useMemo(
    () => valueRows(entry.input, changes, entry.labels, entry.agentFilled),
    [entry.input, changes, entry.labels, entry.agentFilled],
  )
  const unchanged = rows.filter((row) => !row.change)
  const values = (shown: typeof rows) =>
    shown.length > 0 ? <ConfirmDialogValues key={entry.id} rows={shown} labels={labels} /> : null

  if (!changes) return summarySaysAll(rows, entry.summary) ? null : values(rows)
  if (renderChanges) {
    return (
      <>
        {renderChanges(changes)}
        {values(unchanged)}
      </>
    )
  }
  if (unchanged.length > 0) return values(rows)
  return (
    <ConfirmDialogChanges
      changes={changes}
      fieldLabels={entry.labels}
      agentFilled={entry.agentFilled}
      labels={labels}
    />
  )
}
