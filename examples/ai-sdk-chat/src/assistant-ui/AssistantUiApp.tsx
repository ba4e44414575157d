import { useRef, useState } from 'react'
import { ToolmarkDevtools } from '@toolmark/react/devtools'
import { TicketForm } from '../TicketForm.tsx'
import type { Ticket } from '../TicketForm.tsx'
import { AssistantChat } from './AssistantChat.tsx'

/** The same helpdesk as the `useChat` page, with an assistant-ui chat on the AI SDK runtime. */
export function AssistantUiApp() {
  const [tickets, setTickets] = useState<Ticket[]>([])
  const next = useRef(1)
  const create = (values: Omit<Ticket, 'id'>): Ticket => {
    const ticket = { ...values, id: `T-${next.current++}` }
    setTickets((list) => [...list, ticket])
    return ticket
  }
  return (
    <div className="app">
      <header>
        <p className="eyebrow">Toolmark · assistant-ui on the AI SDK</p>
        <h1>A helpdesk an assistant can operate</h1>
        <p>
          The assistant is an assistant-ui thread on the AI SDK runtime (<code>useChatRuntime</code>
          ) that acts through this page’s Toolmark tools: ask it to file a ticket and it fills the
          form, then asks you to approve the submit. The same page with <code>useChat</code> is at{' '}
          <a href="/">/</a>.
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
        <AssistantChat />
      </main>
      <ToolmarkDevtools position="bottom-left" />
    </div>
  )
}
