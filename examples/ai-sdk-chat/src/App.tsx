import { useEffect, useRef, useState } from 'react'
import { ToolmarkDevtools } from '@toolmark/react/devtools'
import { ChatPanel } from './ChatPanel.tsx'
import { TicketForm } from './TicketForm.tsx'
import type { Ticket } from './TicketForm.tsx'

/** Which model answers, from the server: a scripted one unless a key is set. */
function useModelInfo() {
  const [scripted, setScripted] = useState<boolean | undefined>(undefined)
  useEffect(() => {
    const controller = new AbortController()
    fetch('/api/model', { signal: controller.signal })
      .then((response) => response.json() as Promise<{ scripted: boolean }>)
      .then((info) => setScripted(info.scripted))
      .catch(() => {})
    return () => controller.abort()
  }, [])
  return scripted
}

export function App() {
  const [tickets, setTickets] = useState<Ticket[]>([])
  const next = useRef(1)
  const scripted = useModelInfo()
  const create = (values: Omit<Ticket, 'id'>): Ticket => {
    const ticket = { ...values, id: `T-${next.current++}` }
    setTickets((list) => [...list, ticket])
    return ticket
  }
  return (
    <div className="app">
      <header>
        <p className="eyebrow">Toolmark · AI SDK chat example</p>
        <h1>A helpdesk an assistant can operate</h1>
        <p>
          The assistant is a Vercel AI SDK <code>useChat</code> chat that acts through this page’s
          Toolmark tools: ask it to file a ticket and it fills the form, then asks you to approve
          the submit.{' '}
          {scripted === true ? (
            <span data-testid="model-note">
              No API key is set, so a scripted model answers (set <code>OPENAI_API_KEY</code> to use
              a real one).
            </span>
          ) : scripted === false ? (
            <span data-testid="model-note">A real model answers, through the server.</span>
          ) : null}
        </p>
      </header>
      <main>
        <div className="column">
          <TicketForm onCreate={create} />
          <section className="card" aria-label="Tickets">
            <h2>Tickets</h2>
            {tickets.length === 0 ? (
              <p className="muted">No tickets yet.</p>
            ) : (
              <ul aria-label="Created tickets">
                {tickets.map((ticket) => (
                  <li key={ticket.id}>
                    <strong>{ticket.id}</strong> {ticket.title} <em>({ticket.priority})</em>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
        <ChatPanel />
      </main>
      <ToolmarkDevtools position="bottom-left" />
    </div>
  )
}
