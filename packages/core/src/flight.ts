import { randomId } from './ids'
import type { Flight, RunDeadline, ToolRecord } from './internals'
import type { Caller, CancelledBy } from './types'

/** The reason a run's `ctx.signal` carries: AbortError-shaped, wherever DOMException is missing. */
class CallAbortedError extends Error {
  override name = 'AbortError'
}

/**
 * A call on its way through the pipeline; `abort` is idempotent and ignored once it is done.
 * The call id, the AbortController and the `aborted` promise are made on first use: all three
 * are costly, and a call that runs synchronously with no one listening needs none of them. An id
 * minted late is the same unguessable id, and every later read returns it. (A class, not an
 * object literal with getters, which engines build far more slowly.)
 */
class CallFlight implements Flight {
  phase: Flight['phase'] = 'checking'
  abortedBy?: CancelledBy
  deadline?: RunDeadline
  onAbort?: (by: CancelledBy) => void
  /** Links in the registry's `FlightList` (see there). */
  list: FlightList | undefined = undefined
  prev: CallFlight | undefined = undefined
  next: CallFlight | undefined = undefined
  #callId: string | undefined
  #controller: AbortController | undefined
  #aborted: Promise<CancelledBy> | undefined
  #resolveAborted: ((by: CancelledBy) => void) | undefined

  constructor(
    callId: string | undefined,
    readonly record: ToolRecord,
    readonly caller: Caller,
    readonly runAs: Caller,
  ) {
    this.#callId = callId
  }

  get callId(): string {
    return (this.#callId ??= randomId('call_'))
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController()
      if (this.abortedBy) this.#controller.abort(abortReason(this.abortedBy))
    }
    return this.#controller.signal
  }

  get aborted(): Promise<CancelledBy> {
    if (!this.#aborted) {
      this.#aborted = this.abortedBy
        ? Promise.resolve(this.abortedBy)
        : new Promise<CancelledBy>((resolve) => (this.#resolveAborted = resolve))
    }
    return this.#aborted
  }

  abort(by: CancelledBy): void {
    if (this.abortedBy || this.phase === 'done') return
    this.abortedBy = by
    this.#controller?.abort(abortReason(by))
    this.#resolveAborted?.(by)
    this.onAbort?.(by)
  }
}

const abortReason = (by: CancelledBy) => new CallAbortedError(`Call cancelled (${by})`)

/** A flight; `callId` is minted on first read when it is not given. */
export function createFlight(
  callId: string | undefined,
  record: ToolRecord,
  caller: Caller,
  runAs: Caller,
): Flight {
  return new CallFlight(callId, record, caller, runAs)
}

/**
 * The calls in flight, oldest first, for Stop and withdrawal. The flights are linked through
 * themselves: adding and removing one allocates and hashes nothing, where a `Set` would give each
 * call an identity hash and cost more than the rest of a synchronous call.
 */
export class FlightList {
  #head: CallFlight | undefined
  #tail: CallFlight | undefined

  /** Adds a flight made by `createFlight`; adding one twice changes nothing. */
  add(flight: Flight): void {
    const f = flight as CallFlight
    if (f.list) return
    f.list = this
    f.prev = this.#tail
    if (this.#tail) this.#tail.next = f
    else this.#head = f
    this.#tail = f
  }

  /** Removes a flight; removing one that is not here changes nothing. */
  delete(flight: Flight): void {
    const f = flight as CallFlight
    if (f.list !== this) return
    if (f.prev) f.prev.next = f.next
    else this.#head = f.next
    if (f.next) f.next.prev = f.prev
    else this.#tail = f.prev
    f.list = f.prev = f.next = undefined
  }

  /** The flights now, oldest first: a copy, so aborting one while iterating is safe. */
  snapshot(): Flight[] {
    const out: Flight[] = []
    for (let f = this.#head; f; f = f.next) out.push(f)
    return out
  }
}
