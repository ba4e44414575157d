import type { FieldChange } from '@toolmark/core'
import type { ConfirmDialogLabels } from './confirmDialogLabels'
import { ConfirmDialogValue } from './ConfirmDialogValue'
import { AgentText } from './AgentText'

/** The change table: each field with its value before and after (secrets masked). */
export function ConfirmDialogChanges({
  changes,
  fieldLabels,
  agentFilled,
  labels,
}: {
  changes: readonly FieldChange[]
  fieldLabels: Readonly<Record<string, string>> | undefined
  /** Paths an agent wrote: their rows carry a marker. */
  agentFilled?: readonly string[]
  labels: ConfirmDialogLabels
}) {
  const agents = (path: string) =>
    agentFilled?.some((p) => p === path || path.startsWith(`${p}.`) || p.startsWith(`${path}.`))
  return (
    <table data-part="changes" aria-label={labels.changes}>
      <thead>
        <tr>
          <th scope="col">{labels.field}</th>
          <th scope="col">{labels.before}</th>
          <th scope="col">{labels.after}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.path}>
            <th scope="row">
              <AgentText text={fieldLabels?.[change.path] || change.path} />
              {agents(change.path) ? (
                <>
                  {' '}
                  <span data-part="agent-filled">{labels.agentFilled}</span>
                </>
              ) : null}
            </th>
            <td data-part="before">
              <ConfirmDialogValue
                present={'before' in change}
                value={change.before}
                labels={labels}
              />
            </td>
            <td data-part="after">
              <ConfirmDialogValue
                present={'after' in change}
                value={change.after}
                labels={labels}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
