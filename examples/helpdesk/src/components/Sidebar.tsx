import type { ReactNode } from 'react'
import type { TicketList, View } from '../../shared/ticket.ts'
import { CheckCircleIcon, CircleIcon, ClockIcon, InboxIcon, LayersIcon } from './Icons.tsx'

const VIEW_ITEMS: { view: View; label: string; icon: ReactNode }[] = [
  { view: 'active', label: 'Inbox', icon: <InboxIcon /> },
  { view: 'open', label: 'Open', icon: <CircleIcon /> },
  { view: 'pending', label: 'Pending', icon: <ClockIcon /> },
  { view: 'closed', label: 'Closed', icon: <CheckCircleIcon /> },
  { view: 'all', label: 'All tickets', icon: <LayersIcon /> },
]

export interface SidebarProps {
  view: View
  counts: TicketList['counts'] | undefined
  onView(view: View): void
  /** Set while the assistant drawer covers the page. */
  inert?: boolean
  /** Actions under the views (starting an access request). */
  children?: ReactNode
}

function countFor(view: View, counts: TicketList['counts'] | undefined): number | undefined {
  if (!counts) return undefined
  return view === 'active' ? counts.open + counts.pending : counts[view]
}

export function Sidebar({ view, counts, onView, inert, children }: SidebarProps) {
  return (
    <nav className="sidebar" aria-label="Ticket views" inert={inert}>
      <p className="sidebar__heading">Tickets</p>
      <ul className="sidebar__views">
        {VIEW_ITEMS.map((item) => (
          <li key={item.view}>
            <button
              type="button"
              className="sidebar__view"
              aria-current={item.view === view ? 'page' : undefined}
              onClick={() => onView(item.view)}
            >
              {item.icon}
              <span className="sidebar__label">{item.label}</span>
              <span className="sidebar__count">{countFor(item.view, counts) ?? ''}</span>
            </button>
          </li>
        ))}
      </ul>
      {children}
    </nav>
  )
}
