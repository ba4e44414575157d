import type { CancelledBy } from '../types'

/** Who asks for a scope's slot (a call): the queue only hands it to `whenAborted`. */
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
  /**
   * Takes the slot when it is free (`true`), else changes nothing (`false`): `enter` with no room
   * in the line, as one small test every call into a free scope makes.
   */
  take(): boolean
  /**
   * Gives the slot back, to the next in line if any. Only the holder calls it, once per hold (a
   * `Call` keeps its own record of holding the slot).
   */
  release(): void
}

/** A waiting call's wake-up: hands it the slot. */
type Wake = () => void

/** One slot, and the two lines waiting for it: approved runs first, then every other call. */
class Queue implements ScopeQueue {
  /**
   * Whether the slot is held. Not who holds it: the holder keeps that itself, and a scope outlives
   * its calls, so pointing at the newest one would cost a write barrier on every call
   * (`bench/call.mjs`, see docs/performance.md).
   */
  #taken = false
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
    // Entering and leaving a free scope allocates nothing.
    if (!this.#taken) {
      this.#taken = true
      return true
    }
    const own = approved ? this.#approvedLine : this.#line
    if (!approved && own.length >= limit) return 'busy'
    return new Promise<true | CancelledBy>((resolve) => {
      let settled = false
      // The slot is handed over taken: nothing can slip in between.
      const wake = () => {
        settled = true
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

  take(): boolean {
    if (this.#taken) return false
    this.#taken = true
    return true
  }

  release(): void {
    if (this.#approvedLine.length === 0 && this.#line.length === 0) {
      this.#taken = false
      return
    }
    // Hand the slot straight to the next in line, so nothing can jump the queue in between.
    const wake = this.#approvedLine.shift() ?? this.#line.shift()
    wake!()
  }
}

export function createScopeQueue(): ScopeQueue {
  return new Queue()
}
