import type { Toolmark } from '../types'
import type { Tour } from './tourTypes'

interface Current {
  tour: Tour | undefined
  listeners: Set<() => void>
}

const registries = new WeakMap<object, Current>()

function currentOf(tm: Toolmark): Current {
  let current = registries.get(tm)
  if (!current) registries.set(tm, (current = { tour: undefined, listeners: new Set() }))
  return current
}

/** The registry's newest tour, running or ended; undefined before the first. */
export const currentTour = (tm: Toolmark): Tour | undefined => currentOf(tm).tour

/**
 * Follows which tour is the registry's newest (a UI then follows that tour's own snapshot);
 * returns an unsubscribe, safe to pass bare to `useSyncExternalStore`.
 */
export function subscribeCurrentTour(tm: Toolmark, listener: () => void): () => void {
  const { listeners } = currentOf(tm)
  const own = () => listener()
  listeners.add(own)
  return () => void listeners.delete(own)
}

/** Makes `tour` the registry's tour: the one before it ends (`stopped`), one tour at a time. */
export function setCurrentTour(tm: Toolmark, tour: Tour): void {
  const current = currentOf(tm)
  const previous = current.tour
  current.tour = tour
  previous?.stop()
  for (const listener of [...current.listeners]) {
    try {
      listener()
    } catch {
      // A UI's listener failing must not keep the new tour from starting.
    }
  }
}
