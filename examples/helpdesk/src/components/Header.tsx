import type { ReactNode } from 'react'
import { CURRENT_USER } from '../format.ts'
import { Avatar } from './Badges.tsx'
import { PlusIcon, SearchIcon } from './Icons.tsx'
import { moveFocus } from '../focus.ts'
import { href } from '../route.ts'

export interface HeaderProps {
  search: string
  onSearch(value: string): void
  /** Extra controls on the right (assistant toggle). */
  actions?: ReactNode
}

/** The top bar: the brand, the search and the actions. The app's banner landmark holds it. */
export function Header({ search, onSearch, actions }: HeaderProps) {
  return (
    <div className="topbar">
      {/* Named by its text alone: the visible name and the accessible name are the same. */}
      <a className="brand" href={href({ name: 'home' })} onClick={() => moveFocus('queue')}>
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
        <a
          className="button button--primary button--icon-narrow"
          href={href({ name: 'new' })}
          onClick={() => moveFocus('pane', 'new')}
        >
          <PlusIcon /> <span className="button__label">New ticket</span>
        </a>
        {actions}
        <span className="topbar__user" title={`${CURRENT_USER.name} · ${CURRENT_USER.email}`}>
          <Avatar name={CURRENT_USER.name} size={30} />
        </span>
      </div>
    </div>
  )
}
