import { useEffect } from 'react'
import type { Ticket, View } from '../../shared/ticket.ts'
import { applyPendingFocus, moveFocus } from '../focus.ts'
import { isNarrow } from '../layout.ts'
import { CATEGORY_LABELS, nameFromEmail, timeAgo } from '../format.ts'
import { href } from '../route.ts'
import { PriorityBadge, StatusBadge } from './Badges.tsx'

const TITLES: Record<View, string> = {
  active: 'Inbox',
  open: 'Open',
  pending: 'Pending',
  closed: 'Closed',
  all: 'All tickets',
}

export interface TicketListProps {
  view: View
  query: string
  tickets: Ticket[] | undefined
  loading: boolean
  error: Error | null
  selectedId: number | undefined
  /**
   * The queue is the whole screen (on a phone, with nothing picked): its title is the page's one
   * `h1`. Beside a ticket or the form, whose title is the `h1`, it is an `h2`.
   */
  isScreen?: boolean
}

export function TicketList({
  view,
  query,
  tickets,
  loading,
  error,
  selectedId,
  isScreen = false,
}: TicketListProps) {
  useEffect(applyPendingFocus)
  const Title = isScreen ? 'h1' : 'h2'
  return (
    <section className="queue" aria-labelledby="queue-title">
      <div className="queue__header">
        <Title id="queue-title" className="queue__title" data-focus-target="queue" tabIndex={-1}>
          {query ? `Results for “${query}”` : TITLES[view]}
        </Title>
        {tickets && <span className="queue__total">{tickets.length}</span>}
      </div>
      {error ? (
        <p className="queue__empty" role="alert">
          The tickets could not be loaded. {error.message}
        </p>
      ) : !tickets && loading ? (
        <ul className="queue__list" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <li key={i} className="ticket-row ticket-row--skeleton" />
          ))}
        </ul>
      ) : tickets && tickets.length === 0 ? (
        <div className="queue__empty">
          <strong>No tickets here</strong>
          <span>{query ? 'Try another search.' : 'Nothing waiting. Nice work.'}</span>
        </div>
      ) : (
        <ul className="queue__list" aria-label="Tickets">
          {tickets?.map((ticket) => (
            <li key={ticket.id}>
              <a
                className="ticket-row"
                href={href({ name: 'ticket', id: ticket.id })}
                aria-current={ticket.id === selectedId ? 'true' : undefined}
                data-ticket-id={ticket.id}
                // On a phone the ticket replaces the queue: focus follows to its title.
                onClick={() => {
                  if (isNarrow()) moveFocus('pane', `ticket:${ticket.id}`)
                }}
              >
                <span className="ticket-row__top">
                  <span className="ticket-row__id">#{ticket.id}</span>
                  <span className="ticket-row__title">{ticket.title}</span>
                </span>
                <span className="ticket-row__meta">
                  {nameFromEmail(ticket.requester)} · {CATEGORY_LABELS[ticket.category]} ·{' '}
                  <time dateTime={ticket.createdAt}>{timeAgo(ticket.createdAt)}</time>
                </span>
                <span className="ticket-row__badges">
                  <PriorityBadge priority={ticket.priority} />
                  {ticket.status !== 'open' && <StatusBadge status={ticket.status} />}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
