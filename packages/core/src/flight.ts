import type { Flight, ToolRecord } from './internals'
import type { Caller, CancelledBy } from './types'

/** The reason a run's `ctx.signal` carries: AbortError-shaped, wherever DOMException is missing. */
class CallAbortedError extends Error {
  override name = 'AbortError'
}

/**
 * A call on its way through the pipeline; `abort` is idempotent and ignored once it is done.
 * The AbortController and the `aborted` promise are made on first use: both are costly, and a
 * call that runs synchronously needs neither. (A class, not an object literal with getters,
 * which engines build far more slowly.)
 */
class CallFlight implements Flight {
  phase: Flight['phase'] = 'checking'
  abortedBy?: CancelledBy
  #controller: AbortController | undefined
  #aborted: Promise<CancelledBy> | undefined
  #resolveAborted: ((by: CancelledBy) => void) | undefined

  constructor(
    readonly callId: string,
    readonly record: ToolRecord,
    readonly caller: Caller,
    readonly runAs: Caller,
  ) {}

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
  }
}

const abortReason = (by: CancelledBy) => new CallAbortedError(`Call cancelled (${by})`)

export function createFlight(
  callId: string,
  record: ToolRecord,
  caller: Caller,
  runAs: Caller,
): Flight {
  return new CallFlight(callId, record, caller, runAs)
}
