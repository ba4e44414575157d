import type { ReactNode } from 'react'
import { CURRENT_USER } from '../format.ts'
import { Avatar } from './Badges.tsx'
import { PlusIcon, SearchIcon } from './Icons.tsx'

export interface HeaderProps {
  search: string
  onSearch(value: string): void
  /** Extra controls on the right (assistant toggle). */
  actions?: ReactNode
}

export function Header({ search, onSearch, actions }: HeaderProps) {
  return (
    <header className="topbar">
      <a className="brand" href="#/new" aria-label="Northwind Helpdesk home">
        <span className="brand__mark" aria-hidden="true">
          N
        </span>
        <span className="brand__name">
          Northwind <span>Helpdesk</span>
        </span>
      </a>
      <search className="topbar__search">
        <SearchIcon className="topbar__search-icon" />
        <input
          type="search"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          placeholder="Search tickets, people, #id…"
          aria-label="Search tickets"
        />
      </search>
      <div className="topbar__actions">
        <a className="button button--primary" href="#/new">
          <PlusIcon /> New ticket
        </a>
        {actions}
        <span className="topbar__user" title={`${CURRENT_USER.name} · ${CURRENT_USER.email}`}>
          <Avatar name={CURRENT_USER.name} size={30} />
        </span>
      </div>
    </header>
  )
}
