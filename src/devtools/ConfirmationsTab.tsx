import { useState } from 'react'
import { REDACTED } from '@toolmark/core'
import type { ConfirmationEntry, FieldChange, Grant, ToolResult } from '@toolmark/core'
import type { UseConfirmationsResult } from '../useConfirmations'
import { callerLabel } from './CallerSelect'
import { JsonBlock, toJson } from './JsonBlock'
import { ResultView } from './ResultView'
import { AgentText } from '../confirm-dialog/AgentText'

interface Answer {
  entry: ConfirmationEntry
  action: 'Approved' | 'Denied' | 'Answered'
  result: ToolResult
  /** Tells two answers to one entry apart (an invalid answer, then a valid one). */
  seq: number
}

const ANSWERS_KEPT = 10

/**
 * Pending confirmations with Approve and Deny (a question: a JSON answer and Answer), the outcome
 * of the last answers, and the grants people gave, each with Revoke.
 */
export function ConfirmationsTab({ confirmations }: { confirmations: UseConfirmationsResult }) {
  const { items, approve, reject, answer: answerQuestion, grants, revokeGrant } = confirmations
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set())
  const [answers, setAnswers] = useState<readonly Answer[]>([])

  const answer = async (entry: ConfirmationEntry, action: Answer['action'], value?: unknown) => {
    if (busy.has(entry.id)) return
    setBusy((ids) => new Set(ids).add(entry.id))
    const result =
      action === 'Approved'
        ? await approve(entry.id)
        : action === 'Answered'
          ? await answerQuestion(entry.id, value)
          : await reject(entry.id)
    setAnswers((list) =>
      [{ entry, action, result, seq: (list[0]?.seq ?? 0) + 1 }, ...list].slice(0, ANSWERS_KEPT),
    )
    setBusy((ids) => {
      const next = new Set(ids)
      next.delete(entry.id)
      return next
    })
  }

  return (
    <>
      {items.length === 0 ? (
        <p>No pending confirmations.</p>
      ) : (
        <ul data-part="list" aria-label="Pending confirmations">
          {items.map((entry) => (
            <Pending
              key={entry.id}
              entry={entry}
              busy={busy.has(entry.id)}
              onAnswer={(action, value) => void answer(entry, action, value)}
            />
          ))}
        </ul>
      )}
      {grants.length > 0 ? (
        <section aria-label="Grants">
          <h3>Grants</h3>
          <ul data-part="list">
            {grants.map((grant) => (
              <GrantItem key={grant.id} grant={grant} onRevoke={() => revokeGrant(grant.id)} />
            ))}
          </ul>
        </section>
      ) : null}
      {answers.length > 0 ? (
        <section aria-label="Answered" aria-live="polite">
          <h3>Answered</h3>
          <ul data-part="list">
            {answers.map(({ entry, action, result, seq }) => (
              <li key={seq}>
                <ResultView
                  result={result}
                  heading={
                    <>
                      {action} <code>{entry.tool}</code>:
                    </>
                  }
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  )
}

function Pending({
  entry,
  busy,
  onAnswer,
}: {
  entry: ConfirmationEntry
  busy: boolean
  onAnswer: (action: Answer['action'], value?: unknown) => void
}) {
  const title = entry.title ?? entry.tool
  const [json, setJson] = useState('')
  const [unreadable, setUnreadable] = useState(false)
  const sendAnswer = () => {
    try {
      const value: unknown = JSON.parse(json)
      setUnreadable(false)
      onAnswer('Answered', value)
    } catch {
      setUnreadable(true)
    }
  }
  return (
    <li data-part="item">
      <div data-part="item-head">
        <h3>
          <AgentText text={title} />
        </h3>
        <span data-part="muted">
          {callerLabel(entry.caller)} · {entry.mode} · <code>{entry.tool}</code>
        </span>
        <div data-part="actions">
          <button
            type="button"
            aria-label={`Deny ${title}`}
            disabled={busy}
            onClick={() => onAnswer('Denied')}
          >
            Deny
          </button>
          {entry.question ? null : (
            <button
              type="button"
              data-variant="primary"
              aria-label={`Approve ${title}`}
              disabled={busy}
              onClick={() => onAnswer('Approved')}
            >
              Approve
            </button>
          )}
        </div>
      </div>
      <p>
        <AgentText text={entry.summary} />
      </p>
      {entry.question ? (
        <div data-part="question">
          <details>
            <summary>Question schema</summary>
            <JsonBlock value={entry.question.schema} />
          </details>
          <label>
            Answer (JSON)
            <textarea
              value={json}
              rows={3}
              aria-invalid={unreadable || undefined}
              onChange={(e) => setJson(e.currentTarget.value)}
            />
          </label>
          {unreadable ? (
            <p role="alert">Not JSON: write a value like "laser" or {'{ "floor": 2 }'}</p>
          ) : null}
          <button
            type="button"
            data-variant="primary"
            aria-label={`Answer ${title}`}
            disabled={busy}
            onClick={sendAnswer}
          >
            Answer
          </button>
        </div>
      ) : null}
      {entry.changes && entry.changes.length > 0 ? <Changes changes={entry.changes} /> : null}
      <details>
        <summary>Input</summary>
        <JsonBlock value={entry.input} />
      </details>
      <p data-part="muted">Expires at {new Date(entry.expiresAt).toLocaleTimeString()}</p>
    </li>
  )
}

/** One grant: what it covers, for whom, how long and how often it was used, with Revoke. */
function GrantItem({ grant, onRevoke }: { grant: Grant; onRevoke: () => void }) {
  const title = grant.title ?? grant.tool
  return (
    <li data-part="item">
      <div data-part="item-head">
        <h3>
          <AgentText text={title} />
        </h3>
        <span data-part="muted">
          {callerLabel(grant.caller)} · <code>{grant.tool}</code> ·{' '}
          {grant.expiresAt === undefined
            ? 'for this session'
            : `until ${new Date(grant.expiresAt).toLocaleTimeString()}`}{' '}
          · used {grant.uses} {grant.uses === 1 ? 'time' : 'times'}
        </span>
        <div data-part="actions">
          <button type="button" aria-label={`Revoke grant for ${title}`} onClick={onRevoke}>
            Revoke
          </button>
        </div>
      </div>
      <p data-part="muted">
        {grant.pins.length === 0 ? (
          'Every call of this tool'
        ) : (
          <>
            Only calls with{' '}
            {grant.pins.map((pin, i) => (
              <span key={pin.path}>
                {i > 0 ? ', ' : ''}
                <code>
                  <AgentText text={pin.path} />
                </code>{' '}
                = <AgentText text={show(true, pin.value)} />
              </span>
            ))}
          </>
        )}
      </p>
    </li>
  )
}

function Changes({ changes }: { changes: FieldChange[] }) {
  return (
    <table aria-label="Changes">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.path}>
            <th scope="row">
              <code>
                <AgentText text={change.path} />
              </code>
            </th>
            <td>
              <AgentText text={show('before' in change, change.before)} />
            </td>
            <td>
              <AgentText text={show('after' in change, change.after)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function show(present: boolean, value: unknown): string {
  if (!present || value === undefined) return '—'
  if (value === REDACTED) return '•••••• (hidden)'
  return typeof value === 'string' ? value : toJson(value)
}
