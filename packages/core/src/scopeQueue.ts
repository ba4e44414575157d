import type { CancelledBy } from './types'

/** Who asks for a scope's slot: a call, which can say why it was aborted while it waited. */
export interface QueueHolder {
  /** Resolves with the reason once the call is aborted; read only if the call has to wait. */
  readonly aborted: Promise<CancelledBy>
}

/**
 * One scope's queue: a single slot and two lines of calls waiting for it. Calls of one scope take
 * turns (they usually touch the same state), in arrival order; scopes run in parallel. Approved
 * runs wait in the first line: they go ahead of every call that has not started, and they are
 * never turned away, because a person already said yes.
 */
export interface ScopeQueue {
  /** Calls waiting for the slot (the one holding it not included). */
  readonly waiting: number
  /** Whether a call holds the slot. */
  readonly held: boolean
  /**
   * Asks for the slot: `true` at once when it is free; `'busy'` when `limit` calls already wait in
   * the ordinary line (never for `approved`); else a promise of the slot (`true`), or of the reason
   * `holder.aborted` gave while waiting.
   */
  enter(
    holder: QueueHolder,
    limit: number,
    approved?: boolean,
  ): true | 'busy' | Promise<true | CancelledBy>
  /** Gives the slot back; does nothing unless `holder` holds it, so it is idempotent. */
  release(holder: QueueHolder): void
}

export function createScopeQueue(): ScopeQueue {
  let holder: QueueHolder | undefined
  const approvedLine: Array<() => void> = []
  const line: Array<() => void> = []

  return {
    get waiting() {
      return approvedLine.length + line.length
    },
    get held() {
      return holder !== undefined
    },
    enter(next, limit, approved = false) {
      // The holder itself, not a closure per call, is the ticket: entering and leaving a free
      // scope allocates nothing.
      if (holder === undefined) {
        holder = next
        return true
      }
      if (!approved && line.length >= limit) return 'busy'
      const own = approved ? approvedLine : line
      return new Promise<true | CancelledBy>((resolve) => {
        let settled = false
        const wake = () => {
          settled = true
          holder = next
          resolve(true)
        }
        own.push(wake)
        void next.aborted.then((by) => {
          if (settled) return
          settled = true
          const at = own.indexOf(wake)
          if (at >= 0) own.splice(at, 1)
          resolve(by)
        })
      })
    },
    release(current) {
      if (holder !== current) return
      holder = undefined
      // Hand the slot straight to the next in line, so nothing can jump the queue in between.
      const wake = approvedLine.shift() ?? line.shift()
      wake?.()
    },
  }
}
