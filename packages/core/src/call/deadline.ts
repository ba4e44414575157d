import { unref } from '../base/guards'
import { now } from '../base/ids'
import type { CancelledBy } from '../types'

/** What a deadline stops when it passes. */
export interface Abortable {
  abort(by: CancelledBy): void
}

/**
 * A call's deadline (`timeoutMs`, else `limits.callTimeoutMs`): counted while the call validates,
 * waits for its turn and runs; paused while a person decides (pauses nest). When it passes the
 * call is aborted with `policy`.
 *
 * No timer exists until `start`, and even then it is armed a microtask later for the time left:
 * a call whose promise settles at once (an `async` run that never waits) ends before that and
 * never needs a timer (`bench/call.mjs`: a timer armed and cleared costs 0.6 µs per async run).
 * The deadline itself is the same, counted from `start`; microtasks never let a timer's time
 * pass, real or fake.
 */
export class Deadline {
  #timer: ReturnType<typeof setTimeout> | undefined
  /** When the clock last started counting; `undefined` while paused, stopped or not started. */
  #since: number | undefined
  #armQueued = false
  #pauses = 0
  #stopped = false
  #remaining: number
  readonly #target: Abortable

  constructor(ms: number, target: Abortable) {
    this.#remaining = ms
    this.#target = target
  }

  start(): void {
    if (this.#stopped || this.#pauses > 0 || this.#since !== undefined) return
    this.#since = now()
    if (this.#armQueued) return
    this.#armQueued = true
    if (toArm.push(this) === 1) void SETTLED.then(armQueued)
  }

  /** Called by the batch a microtask after `start`. */
  arm(): void {
    this.#armQueued = false
    if (this.#since === undefined || this.#timer !== undefined) return
    const left = this.#remaining - (now() - this.#since)
    this.#timer = unref(setTimeout(expire, Math.max(0, left), this.#target))
  }

  pause(): void {
    this.#pauses++
    if (this.#since === undefined) return
    this.#remaining -= now() - this.#since
    this.#since = undefined
    this.#clear()
  }

  resume(): void {
    if (this.#pauses > 0) this.#pauses--
    this.start()
  }

  stop(): void {
    this.#stopped = true
    this.#since = undefined
    this.#clear()
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
  }
}

// Deadlines started in one microtask are armed together in the next one. A settled promise's
// `then` is the cheapest way there: Node wraps `queueMicrotask` for async hooks.
const SETTLED = Promise.resolve()
let toArm: Deadline[] = []
function armQueued() {
  const list = toArm
  toArm = []
  for (const deadline of list) deadline.arm()
}

const expire = (target: Abortable) => target.abort('policy')
