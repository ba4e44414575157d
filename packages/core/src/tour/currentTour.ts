import { bodyOf } from '../base/registryBody'
import { createSubscribable, type Subscribable } from '../events/subscribable'
import type { Toolmark } from '../types'
import type { Tour } from './tourTypes'

interface Current {
  tour: Tour | undefined
  changes: Subscribable
}

/** The registry's current tour, kept in its body from the first use; none for other objects. */
function currentOf(tm: Toolmark): Current | undefined {
  const body = bodyOf(tm)
  if (!body) return undefined
  if (!body.currentTour) {
    const changes = createSubscribable({ label: 'current tour', report: body.report })
    body.currentTour = { tour: undefined, changes } satisfies Current
  }
  return body.currentTour as Current
}

/** The registry's newest tour, running or ended; undefined before the first. */
export const currentTour = (tm: Toolmark): Tour | undefined => currentOf(tm)?.tour

/**
 * Follows which tour is the registry's newest (a UI then follows that tour's own snapshot);
 * returns an unsubscribe, safe to pass bare to `useSyncExternalStore`.
 */
export const subscribeCurrentTour = (tm: Toolmark, listener: () => void): (() => void) =>
  currentOf(tm)?.changes.subscribe(listener) ?? (() => {})

/** Makes `tour` the registry's tour: the one before it ends (`stopped`), one tour at a time. */
export function setCurrentTour(tm: Toolmark, tour: Tour): void {
  const current = currentOf(tm)
  if (!current) return
  const previous = current.tour
  current.tour = tour
  previous?.stop()
  // A listener that throws is reported (`listener_threw`) and keeps no tour from starting.
  current.changes.notify()
}
