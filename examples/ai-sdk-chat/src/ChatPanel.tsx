import { useRef, useState } from 'react'
import type { FormEvent } from 'react'
import { DefaultChatTransport } from 'ai'
import type { UIMessage } from 'ai'
import { ConfirmDialog } from '@toolmark/react'
import { useToolmarkChat } from '@toolmark/react/ai-sdk'

const transport = new DefaultChatTransport<UIMessage>({ api: '/api/chat' })

type Part = UIMessage['parts'][number]

/** What a newcomer can ask first. */
const SUGGESTIONS = [
  'File a ticket: the printer on floor 3 keeps jamming',
  'The VPN is down for the whole office, urgent',
]

/** A tool call as a person reads it: which tool, and where it stands. */
function ToolLine({ part }: { part: Extract<Part, { toolCallId: string }> }) {
  const name = part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length)
  const output =
    part.state === 'output-available' ? (part.output as { status?: string }) : undefined
  const state =
    part.state === 'output-available'
      ? (output?.status ?? 'done')
      : part.state === 'output-error'
        ? 'rejected by the server'
        : 'running'
  return (
    <p className="tool-line" data-state={state}>
      <code>{name.replace(/__/g, '.')}</code> {state}
    </p>
  )
}

/** The assistant: `useChat` with the page's tools, through `useToolmarkChat`. */
export function ChatPanel() {
  const { messages, sendMessage, status, stop, error } = useToolmarkChat({ transport })
  const [text, setText] = useState('')
  const last = messages[messages.length - 1]
  const toolsRunning =
    last?.role === 'assistant' &&
    last.parts.some((part) => 'toolCallId' in part && part.state === 'input-available')
  const busy = status === 'submitted' || status === 'streaming' || toolsRunning

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!text.trim() || busy) return
    void sendMessage({ text })
    setText('')
  }
  const composer = useRef<HTMLInputElement | null>(null)

  return (
    <section className="card chat" aria-label="Assistant">
      <h2>Assistant</h2>
      {messages.length === 0 ? (
        <div className="suggestions">
          <p className="muted">Try one of these, or write your own:</p>
          <ul aria-label="Suggestions">
            {SUGGESTIONS.map((suggestion) => (
              <li key={suggestion}>
                <button
                  type="button"
                  className="suggestion"
                  onClick={() => {
                    // The chip goes away with the first message: focus stays in the composer.
                    composer.current?.focus()
                    void sendMessage({ text: suggestion })
                  }}
                >
                  {suggestion}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ol className="messages" aria-label="Conversation">
        {messages.map((message) => (
          <li key={message.id} className={`message message--${message.role}`}>
            {message.parts.map((part, i) =>
              part.type === 'text' ? (
                <p key={i}>{part.text}</p>
              ) : 'toolCallId' in part ? (
                <ToolLine key={i} part={part} />
              ) : null,
            )}
          </li>
        ))}
      </ol>
      {error && <p role="alert">The assistant failed: {error.message}</p>}
      <form className="composer" onSubmit={onSubmit}>
        <input
          ref={composer}
          aria-label="Message"
          placeholder="File a ticket about…"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        {busy ? (
          <button type="button" onClick={() => void stop()}>
            Stop
          </button>
        ) : (
          <button type="submit">Send</button>
        )}
      </form>
      {/* Here, so the dialog's Stop reaches this chat: the modal dialog blocks the one above.
          Focus comes back to the composer when what had it (a suggestion, Send) is gone. */}
      <ConfirmDialog onStop={() => void stop()} returnFocus={() => composer.current} />
    </section>
  )
}
