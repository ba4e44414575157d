import type { CancelledBy } from './types'

/** Gives the scope's run slot back; idempotent. */
export type Release = () => void

/**
 * One scope's serial queue: a single run slot and a bounded line of calls waiting for it. Calls of
 * one scope run one after another (they usually touch the same state); scopes run in parallel.
 */
export interface ScopeQueue {
  /** Calls waiting for the slot (the one running not included). */
  readonly waiting: number
  /** Whether a call holds the slot. */
  readonly held: boolean
  /**
   * Asks for the slot: a `Release` at once when it is free, `'busy'` when `limit` calls already
   * wait, else a promise of the slot, or of the reason `aborted()` gave while waiting (asked for
   * only then: a call that gets the slot at once never needs it).
   */
  enter(
    aborted: () => Promise<CancelledBy>,
    limit: number,
  ): Release | 'busy' | Promise<Release | CancelledBy>
}

export function createScopeQueue(): ScopeQueue {
  let held = false
  const line: Array<() => void> = []

  const grant = (): Release => {
    held = true
    let released = false
    return () => {
      if (released) return
      released = true
      held = false
      // Hand the slot straight to the next in line, so nothing can jump the queue in between.
      line.shift()?.()
    }
  }

  return {
    get waiting() {
      return line.length
    },
    get held() {
      return held
    },
    enter(aborted, limit) {
      if (!held) return grant()
      if (line.length >= limit) return 'busy'
      return new Promise<Release | CancelledBy>((resolve) => {
        let settled = false
        const wake = () => {
          settled = true
          resolve(grant())
        }
        line.push(wake)
        void aborted().then((by) => {
          if (settled) return
          settled = true
          const at = line.indexOf(wake)
          if (at >= 0) line.splice(at, 1)
          resolve(by)
        })
      })
    },
  }
}
