import { useSyncExternalStore } from 'react'

/**
 * What the app shows. The route lives in the URL hash, so a reload keeps it. `home` is the queue
 * with nothing selected: on a wide screen the main pane then offers the new-ticket form, on a
 * phone (one pane at a time) the queue is the screen.
 */
export type Route =
  | { name: 'home' }
  | { name: 'new' }
  | { name: 'access' }
  | { name: 'ticket'; id: number }
  | { name: 'edit'; id: number }

/** The ticket a route shows or edits, if any. */
export const routeTicketId = (route: Route): number | undefined =>
  'id' in route ? route.id : undefined

export function parseRoute(hash: string): Route {
  if (hash === '#/new') return { name: 'new' }
  if (hash === '#/access') return { name: 'access' }
  const match = /^#\/tickets\/(\d{1,9})(\/edit)?$/.exec(hash)
  if (!match) return { name: 'home' }
  const id = Number(match[1])
  return match[2] ? { name: 'edit', id } : { name: 'ticket', id }
}

export function href(route: Route): string {
  if (route.name === 'home') return '#/'
  if (route.name === 'new') return '#/new'
  if (route.name === 'access') return '#/access'
  return route.name === 'edit' ? `#/tickets/${route.id}/edit` : `#/tickets/${route.id}`
}

export function navigate(route: Route): void {
  const next = href(route)
  if (window.location.hash !== next) window.location.hash = next
}

function subscribe(onChange: () => void) {
  window.addEventListener('hashchange', onChange)
  return () => window.removeEventListener('hashchange', onChange)
}

const getHash = () => window.location.hash

/** The current route, updated on every hash change. */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, getHash, () => '')
  return parseRoute(hash)
}
