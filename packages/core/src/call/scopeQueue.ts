import type { CancelledBy } from '../types'

/** Who asks for a scope's slot (a call): only its identity matters to the queue. */
export type QueueHolder = object

/** Resolves with the reason once the holder is aborted; asked only if it has to wait. */
export type WhenAborted = (holder: QueueHolder) => PromiseLike<CancelledBy>

/**
 * One scope's queue: a single slot and two lines of calls waiting for it. Calls of one scope take
 * turns (they usually touch the same state), in arrival order; scopes run in parallel. Approved
 * runs wait in the first line: they go ahead of every call that has not started, and they are
 * never turned away, because a person already said yes.
 */
export interface ScopeQueue {
  /** Calls waiting for the slot (the one holding it not included). */
  readonly waiting: number
  /**
   * Asks for the slot: `true` at once when it is free; `'busy'` when `limit` calls already wait in
   * the ordinary line (never for `approved`); else a promise of the slot (`true`), or of the reason
   * `whenAborted` gave while waiting (a holder that cannot be aborted passes none).
   */
  enter(
    holder: QueueHolder,
    limit: number,
    approved?: boolean,
    whenAborted?: WhenAborted,
  ): true | 'busy' | Promise<true | CancelledBy>
  /** Gives the slot back; does nothing unless `holder` holds it, so it is idempotent. */
  release(holder: QueueHolder): void
}

/** A waiting call's wake-up: hands it the slot. */
type Wake = () => void

/** One slot, and the two lines waiting for it: approved runs first, then every other call. */
class Queue implements ScopeQueue {
  #holder: QueueHolder | undefined = undefined
  readonly #approvedLine: Wake[] = []
  readonly #line: Wake[] = []

  get waiting(): number {
    return this.#approvedLine.length + this.#line.length
  }

  enter(
    next: QueueHolder,
    limit: number,
    approved = false,
    whenAborted?: WhenAborted,
  ): true | 'busy' | Promise<true | CancelledBy> {
    // The holder itself, not a closure per call, is the ticket: entering and leaving a free
    // scope allocates nothing.
    if (this.#holder === undefined) {
      this.#holder = next
      return true
    }
    const own = approved ? this.#approvedLine : this.#line
    if (!approved && own.length >= limit) return 'busy'
    return new Promise<true | CancelledBy>((resolve) => {
      let settled = false
      const wake = () => {
        settled = true
        this.#holder = next
        resolve(true)
      }
      own.push(wake)
      void whenAborted?.(next).then((by) => {
        if (settled) return
        settled = true
        const at = own.indexOf(wake)
        if (at >= 0) own.splice(at, 1)
        resolve(by)
      })
    })
  }

  release(current: QueueHolder): void {
    if (this.#holder !== current) return
    this.#holder = undefined
    // Hand the slot straight to the next in line, so nothing can jump the queue in between.
    const wake = this.#approvedLine.shift() ?? this.#line.shift()
    wake?.()
  }
}

export function createScopeQueue(): ScopeQueue {
  return new Queue()
}
