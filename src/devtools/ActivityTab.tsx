import { useState } from 'react'
import type { ToolResult } from '@toolmark/core'
import type { AgentActivity } from '@toolmark/core/observers'
import { callerLabel } from './CallerSelect'
import { JsonBlock } from './JsonBlock'
import { ResultView, StatusBadge } from './ResultView'
import { AgentText } from '../confirm-dialog/AgentText'

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
}

/** How a call's confirmation stands, in words; `undefined` when it asked for none. */
function confirmationText(call: AgentActivity): string | undefined {
  switch (call.confirmation) {
    case 'requested':
      return 'awaiting a person'
    case 'approved':
      return call.approvedBy === 'verified'
        ? 'approved with the person’s passkey'
        : call.approvedBy === 'grant'
          ? 'allowed by a grant'
          : call.approvedBy === 'dialog'
            ? 'approved in the dialog'
            : call.approvedBy === 'api'
              ? 'approved by a script'
              : 'approved'
    case 'rejected':
      return call.result?.status === 'cancelled' && call.result.by === 'policy'
        ? 'withdrawn'
        : 'denied'
    case 'expired':
      return 'expired unanswered'
    default:
      return undefined
  }
}

/** The call log, newest first: who called what, how it ended, how long it took, with Undo. */
export function ActivityTab({ activity }: { activity: readonly AgentActivity[] }) {
  // Undo outcomes by call, so a failed undo stays visible after its button goes away.
  const [undone, setUndone] = useState<Readonly<Record<string, ToolResult>>>({})
  const [undoing, setUndoing] = useState<ReadonlySet<string>>(new Set())

  const undo = async (call: AgentActivity) => {
    if (!call.undo || undoing.has(call.callId)) return
    setUndoing((ids) => new Set(ids).add(call.callId))
    const result = await call.undo()
    setUndone((results) => ({ ...results, [call.callId]: result }))
    setUndoing((ids) => {
      const next = new Set(ids)
      next.delete(call.callId)
      return next
    })
  }

  if (activity.length === 0) {
    return <p>No calls yet. Calls made while the devtools are mounted appear here.</p>
  }
  return (
    <ol data-part="list" aria-label="Calls">
      {activity.map((call) => (
        <li key={call.callId} data-part="item" data-status={call.status}>
          <div data-part="item-head">
            <code>{call.tool}</code>
            <span data-part="muted">{callerLabel(call.caller)}</span>
            <StatusBadge status={call.status} />
            {call.confirmation ? <span data-part="muted">{confirmationText(call)}</span> : null}
            {call.durationMs !== undefined ? (
              <span data-part="muted">{formatDuration(call.durationMs)}</span>
            ) : null}
            {call.undo ? (
              <div data-part="actions">
                <button
                  type="button"
                  aria-label={`Undo ${call.tool}`}
                  disabled={undoing.has(call.callId)}
                  onClick={() => void undo(call)}
                >
                  Undo
                </button>
              </div>
            ) : null}
          </div>
          {call.status === 'running' ? <Progress call={call} /> : null}
          {call.result ? (
            <details>
              <summary>Result</summary>
              <JsonBlock value={call.result} />
            </details>
          ) : null}
          {undone[call.callId] ? <ResultView result={undone[call.callId]} heading="Undo:" /> : null}
        </li>
      ))}
    </ol>
  )
}

function Progress({ call }: { call: AgentActivity }) {
  const progress = call.progress
  const label = `Progress of ${call.tool}`
  const determinate = progress?.total !== undefined && progress.total > 0
  return (
    <div>
      <progress
        aria-label={label}
        value={determinate ? Math.min(progress.done, progress.total!) : undefined}
        max={determinate ? progress.total : undefined}
      />
      {progress ? (
        <p data-part="muted">
          <AgentText text={progress.message ?? ''} />
          {progress.message ? ' · ' : ''}
          {progress.done}
          {progress.total !== undefined ? ` of ${progress.total}` : ''}
        </p>
      ) : (
        <p data-part="muted">Running…</p>
      )}
    </div>
  )
}
