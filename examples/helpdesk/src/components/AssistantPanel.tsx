import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { formatSize } from '../../shared/attachment.ts'
import { EXAMPLES } from '../assistant/planner.ts'
import type { Assistant, Entry } from '../assistant/useAssistant.ts'
import { moveFocus } from '../focus.ts'
import { pastes } from '../pastes.ts'
import { href } from '../route.ts'
import { AssistantGrants, StepGrant, useAssistantGrants } from './AssistantGrants.tsx'
import { CloseIcon, SendIcon, SparkIcon } from './Icons.tsx'

const STATE_LABELS = {
  running: 'Running',
  waiting: 'Needs approval',
  done: 'Done',
  failed: 'Stopped',
} as const

export interface AssistantPanelProps {
  /** The assistant's state; it lives in the app, so the dialog's Stop reaches it too. */
  assistant: Assistant
  /** On a narrow screen the panel is a drawer over the page, which it keeps focus inside. */
  drawer: boolean
  onClose(): void
}

/**
 * The in-app assistant: type a request, watch the tool calls it makes on this page, approve the
 * ones that need it in the dialog. A column beside the work on a wide screen, a drawer on a
 * phone.
 */
export function AssistantPanel({ assistant, drawer, onClose }: AssistantPanelProps) {
  const { entries, busy, send, queued, unqueue, stop, clear, paste, model, mode, setMode } =
    assistant
  const grants = useAssistantGrants()
  const [draft, setDraft] = useState('')
  const log = useRef<HTMLOListElement>(null)
  const input = useRef<HTMLInputElement>(null)

  useEffect(() => {
    log.current?.lastElementChild?.scrollIntoView({ block: 'end' })
  }, [entries])

  // Opened as a drawer: the person came to type.
  useEffect(() => {
    if (drawer) input.current?.focus()
  }, [drawer])

  const submit = (text: string) => {
    if (!text.trim()) return
    // While a turn runs the message is queued, and sent once the turn ends. Focus waits in the
    // composer, where the dialog that may follow gives it back too.
    input.current?.focus()
    setDraft('')
    void send(text)
  }

  return (
    <aside
      id="assistant"
      className="assistant"
      aria-label="Assistant"
      data-drawer={drawer || undefined}
      onPaste={(event) => {
        // A pasted image (a screenshot) becomes a file the assistant can attach; text pastes
        // into the message box as usual.
        const files = Array.from(event.clipboardData.files)
        if (files.length === 0) return
        event.preventDefault()
        paste(files)
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && drawer) {
          event.stopPropagation()
          onClose()
        }
      }}
    >
      <header className="assistant__header">
        <span className="assistant__icon" aria-hidden="true">
          <SparkIcon />
        </span>
        <div>
          <h2>Assistant</h2>
          <p>
            {mode === 'model' && model ? `Model: ${model}` : 'Scripted planner'} · in-page bridge
          </p>
        </div>
        {model && (
          <select
            className="assistant__mode"
            aria-label="Assistant mode"
            value={mode}
            onChange={(event) => setMode(event.target.value as 'scripted' | 'model')}
          >
            <option value="model">Model</option>
            <option value="scripted">Scripted</option>
          </select>
        )}
        {entries.length > 0 && !busy && (
          <button type="button" className="assistant__clear" onClick={clear}>
            Clear
          </button>
        )}
        <button
          type="button"
          className="assistant__close"
          aria-label="Close the assistant"
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </header>

      {entries.length === 0 ? (
        <div className="assistant__intro">
          <p>
            Ask for something and watch the assistant use this page’s tools. Anything that changes a
            ticket waits for your approval. Paste a screenshot here and ask it to attach it.
          </p>
          <ul aria-label="Suggestions">
            {EXAMPLES.map((example) => (
              <li key={example}>
                <button
                  type="button"
                  // The suggestions go away with the first message; submit moves focus to the
                  // composer first, so the dialog that may follow gives it back there.
                  onClick={() => submit(example)}
                >
                  {example}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <ol className="assistant__log" ref={log} aria-label="Conversation" aria-live="polite">
          {entries.map((entry) => (
            <EntryView
              key={entry.id}
              entry={entry}
              grants={grants}
              onOpenTicket={
                drawer
                  ? () => {
                      onClose()
                      moveFocus('pane')
                    }
                  : undefined
              }
            />
          ))}
        </ol>
      )}

      {queued.length > 0 && (
        <ul className="assistant__queued" aria-label="Queued messages">
          {queued.map((item) => (
            <li key={item.id}>
              <span className="assistant__queued-text">{item.text}</span>
              <span className="assistant__queued-note">Sends when this turn ends</span>
              <button
                type="button"
                className="assistant__unqueue"
                aria-label={`Remove “${item.text}” from the queue`}
                onClick={() => {
                  input.current?.focus()
                  unqueue(item.id)
                }}
              >
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      )}

      <AssistantGrants live={grants.grants} onRevoke={grants.revoke} />

      <form
        className="assistant__composer"
        onSubmit={(event) => {
          event.preventDefault()
          submit(draft)
        }}
      >
        <input
          ref={input}
          data-composer=""
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="new ticket: printer jammed, high priority"
          aria-label="Message the assistant"
          autoComplete="off"
        />
        {busy && (
          <button
            type="button"
            className="button button--small"
            onClick={() => {
              input.current?.focus()
              stop()
            }}
          >
            Stop
          </button>
        )}
        {/* While a turn runs, the same button queues the message for after it. */}
        <button
          type="submit"
          className="assistant__send"
          aria-label={busy ? 'Queue message' : 'Send'}
          disabled={!draft.trim()}
        >
          <SendIcon />
        </button>
      </form>
    </aside>
  )
}

function EntryView({
  entry,
  grants,
  onOpenTicket,
}: {
  entry: Entry
  grants: ReturnType<typeof useAssistantGrants>
  onOpenTicket?: () => void
}) {
  if (entry.kind === 'user') {
    return <li className="bubble bubble--user">{entry.text}</li>
  }
  if (entry.kind === 'paste') return <PasteView entry={entry} />
  if (entry.kind === 'assistant') {
    return (
      <li className={`bubble bubble--assistant${entry.error ? ' bubble--error' : ''}`}>
        <p>{entry.text}</p>
        {entry.tickets && entry.tickets.length > 0 && (
          <ul className="bubble__tickets">
            {entry.tickets.map((ticket) => (
              <li key={ticket.id}>
                <a href={href({ name: 'ticket', id: ticket.id })} onClick={onOpenTicket}>
                  <span>#{ticket.id}</span> {ticket.title}
                </a>
              </li>
            ))}
          </ul>
        )}
      </li>
    )
  }
  return (
    <li className={`step step--${entry.state}`} data-tool={entry.tool}>
      <div className="step__head">
        <span className="step__dot" aria-hidden="true" />
        <span className="step__intent">{entry.intent}</span>
        <span className="step__state">{STATE_LABELS[entry.state]}</span>
      </div>
      <code className="step__tool">{entry.tool}</code>
      {entry.detail && <p className="step__detail">{entry.detail}</p>}
      {entry.grant && (
        <StepGrant grant={entry.grant} live={grants.grants} onRevoke={grants.revoke} />
      )}
      {entry.result && (
        <details className="step__result">
          <summary>Result</summary>
          <pre>{JSON.stringify(entry.result, null, 2)}</pre>
        </details>
      )}
    </li>
  )
}

/** A pasted file in the transcript: what it is, its ref, and a preview while the page has it. */
function PasteView({ entry }: { entry: Extract<Entry, { kind: 'paste' }> }) {
  const list = useSyncExternalStore(pastes.subscribe, pastes.list, pastes.list)
  const file = list.find((paste) => paste.ref === entry.ref)?.file
  const [preview, setPreview] = useState<string>()
  useEffect(() => {
    if (!file || !file.type.startsWith('image/')) return
    const url = URL.createObjectURL(file)
    setPreview(url)
    return () => {
      URL.revokeObjectURL(url)
      setPreview(undefined)
    }
  }, [file])
  return (
    <li className="bubble bubble--user bubble--paste" data-ref={entry.ref}>
      {preview && <img src={preview} alt="" />}
      <span>
        Pasted <strong>{entry.name}</strong> ({formatSize(entry.size)},{' '}
        {entry.type || 'unknown type'})
        <small>
          {file
            ? `as ${entry.ref}`
            : `${entry.ref} is gone: pasted files last until the page reloads`}
        </small>
      </span>
    </li>
  )
}
