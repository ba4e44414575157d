import type { CancelledBy } from './types'

/** Who asks for a scope's slot: a call, which can say why it was aborted while it waited. */
export interface QueueHolder {
  /** Resolves with the reason once the call is aborted; read only if the call has to wait. */
  readonly aborted: Promise<CancelledBy>
}

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
   * Asks for the slot: `true` at once when it is free, `'busy'` when `limit` calls already wait,
   * else a promise of the slot (`true`), or of the reason `holder.aborted` gave while waiting
   * (asked for only then: a call that gets the slot at once never needs it).
   */
  enter(holder: QueueHolder, limit: number): true | 'busy' | Promise<true | CancelledBy>
  /** Gives the slot back; does nothing unless `holder` holds it, so it is idempotent. */
  release(holder: QueueHolder): void
}

export function createScopeQueue(): ScopeQueue {
  let holder: QueueHolder | undefined
  const line: Array<() => void> = []

  return {
    get waiting() {
      return line.length
    },
    get held() {
      return holder !== undefined
    },
    enter(next, limit) {
      // The holder itself, not a closure per call, is the ticket: entering and leaving a free
      // scope allocates nothing.
      if (holder === undefined) {
        holder = next
        return true
      }
      if (line.length >= limit) return 'busy'
      return new Promise<true | CancelledBy>((resolve) => {
        let settled = false
        const wake = () => {
          settled = true
          holder = next
          resolve(true)
        }
        line.push(wake)
        void next.aborted.then((by) => {
          if (settled) return
          settled = true
          const at = line.indexOf(wake)
          if (at >= 0) line.splice(at, 1)
          resolve(by)
        })
      })
    },
    release(current) {
      if (holder !== current) return
      holder = undefined
      // Hand the slot straight to the next in line, so nothing can jump the queue in between.
      if (line.length > 0) line.shift()!()
    },
  }
}
