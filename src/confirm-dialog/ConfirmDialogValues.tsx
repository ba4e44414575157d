import { useState } from 'react'
import type { ConfirmDialogLabels } from './confirmDialogLabels'
import type { ValueRow } from './confirmDialogRows'
import { ConfirmDialogValue, visuallyHidden } from './ConfirmDialogValue'
import { AgentText } from './AgentText'

/** Rows past this many are folded behind a button. */
export const ROW_LIMIT = 20

/**
 * The values a request sends, one row per field (label → value), secrets masked. Rows with a
 * change are marked and show before → after, so a whole form submission reads as the form with
 * its edits. Long lists fold after {@link ROW_LIMIT} rows behind "Show N more".
 */
export function ConfirmDialogValues({
  rows,
  labels,
}: {
  rows: readonly ValueRow[]
  labels: ConfirmDialogLabels
}) {
  const [all, setAll] = useState(false)
  const shown = all || rows.length <= ROW_LIMIT ? rows : rows.slice(0, ROW_LIMIT)
  const folded = rows.length - shown.length
  return (
    <>
      <table data-part="values" aria-label={labels.values}>
        <thead>
          <tr>
            <th scope="col">{labels.field}</th>
            <th scope="col">{labels.value}</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr
              key={row.path}
              data-changed={row.change ? '' : undefined}
              data-agent-filled={row.agent ? '' : undefined}
            >
              <th scope="row">
                <AgentText text={row.label || labels.value} />
                {row.change ? (
                  <>
                    {' '}
                    <span data-part="changed">{labels.changed}</span>
                  </>
                ) : null}
                {row.agent ? (
                  <>
                    {' '}
                    <span data-part="agent-filled">{labels.agentFilled}</span>
                  </>
                ) : null}
              </th>
              <td>
                {row.change ? (
                  <>
                    <span data-part="before">
                      <span style={visuallyHidden}>{labels.before}: </span>
                      <ConfirmDialogValue
                        present={'before' in row.change}
                        value={row.change.before}
                        labels={labels}
                      />
                    </span>{' '}
                    <span data-part="after">
                      <span style={visuallyHidden}>{labels.after}: </span>
                      <ConfirmDialogValue
                        present={'after' in row.change}
                        value={row.change.after}
                        labels={labels}
                      />
                    </span>
                  </>
                ) : (
                  <ConfirmDialogValue value={row.value} labels={labels} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {folded > 0 ? (
        <button type="button" data-part="more" onClick={() => setAll(true)}>
          {labels.moreRows(folded)}
        </button>
      ) : null}
    </>
  )
}
