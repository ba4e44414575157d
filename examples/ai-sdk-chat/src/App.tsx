import { useRef, useState } from 'react'
import { ConfirmDialog } from '@toolmark/react'
import { ChatPanel } from './ChatPanel.tsx'
import { TicketForm } from './TicketForm.tsx'
import type { Ticket } from './TicketForm.tsx'

export function App() {
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
        <h1>Helpdesk</h1>
        <p>Ask the assistant to file a ticket: it fills the form, and you approve the submit.</p>
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
      <ConfirmDialog />
    </div>
  )
}
