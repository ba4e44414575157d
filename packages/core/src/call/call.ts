import { Deadline, type Abortable } from './deadline'
import { randomId, now } from '../base/ids'
import type { QueueHolder } from './scopeQueue'
import type { RegistryInternals, ToolRecord } from '../registry/toolRecord'
import type { Approval, Caller, CancelledBy, ToolResult } from '../types'
import type { Checked } from './validateInput'

/**
 * Where a call is. `checking`: its input is being validated; `queued`: it waits for its scope's
 * slot, or holds it while `check` runs and its confirmation is built; `confirming`: a person
 * decides (the slot is free meanwhile); `running`: `run` holds the slot; `settled`: its one result
 * is out. Access withdrawn before `running` cancels the call (`policy`).
 */
export type Phase = 'checking' | 'queued' | 'confirming' | 'running' | 'settled'

/** The reason a run's `ctx.signal` carries: AbortError-shaped, wherever DOMException is missing. */
class CallAbortedError extends Error {
  override name = 'AbortError'
}
const abortReason = (by: CancelledBy) => new CallAbortedError(`Call cancelled (${by})`)

/**
 * One call, from the moment its tool is found to its result: the only owner of its phase, its
 * abort and the reason for it, its deadline, its hold on the scope's slot, and the single `result`
 * event. The steps of the pipeline (validation, `check`, confirmation, run) ask it to move; none
 * of them writes its state.
 *
 * The call id, the AbortController and the `aborted` promise are made on first use: all three
 * cost more than the rest of a synchronous call, and a call that runs at once with no one
 * listening needs none of them. An id minted late is the same unguessable id. (A class rather
 * than an object literal with getters, which engines build far more slowly.)
 */
export class Call implements QueueHolder, Abortable {
  #phase: Phase = 'checking'
  #abortedBy: CancelledBy | undefined
  #callId: string | undefined
  #controller: AbortController | undefined
  #aborted: Promise<CancelledBy> | undefined
  #resolveAborted: ((by: CancelledBy) => void) | undefined
  #deadline: Deadline | undefined
  #holdsSlot = false
  #signal: AbortSignal | undefined
  /** Told of an abort, once, by the step now waiting on something that cannot hear the signal. */
  #onAbort: ((by: CancelledBy) => void) | undefined
  /** What validation gave, for the step after the hop. */
  checked: Checked | undefined = undefined
  /** How a person approved the run (its confirmation's outcome), for `ctx.approval`. */
  approval: Approval | undefined = undefined
  /** Links in the registry's `CallList`. */
  list: CallList | undefined = undefined
  prev: Call | undefined = undefined
  next: Call | undefined = undefined

  constructor(
    readonly internals: RegistryInternals,
    readonly record: ToolRecord,
    /** Who asked: policy, Stop and events. */
    readonly caller: Caller,
    /** Who the run acts as: `human` for the approved run of a deferred confirmation. */
    readonly runAs: Caller,
    callId: string | undefined,
    /** When the call began (`now()`), for `durationMs`; only read when someone listens. */
    readonly started: number | undefined,
  ) {
    this.#callId = callId
  }

  get phase(): Phase {
    return this.#phase
  }

  get abortedBy(): CancelledBy | undefined {
    return this.#abortedBy
  }

  get callId(): string {
    return (this.#callId ??= randomId('call_'))
  }

  /** The run's `ctx.signal`: aborted with the call. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController()
      if (this.#abortedBy) this.#controller.abort(abortReason(this.#abortedBy))
    }
    return this.#controller.signal
  }

  /** Resolves with the reason once the call is aborted (never, if it settles first). */
  get aborted(): Promise<CancelledBy> {
    if (!this.#aborted) {
      this.#aborted = this.#abortedBy
        ? Promise.resolve(this.#abortedBy)
        : new Promise<CancelledBy>((resolve) => (this.#resolveAborted = resolve))
    }
    return this.#aborted
  }

  /** The deadline, made when first needed (a call that settles at once never needs one). */
  get deadline(): Deadline {
    return (this.#deadline ??= new Deadline(
      this.record.def.timeoutMs ?? this.internals.limits.callTimeoutMs,
      this,
    ))
  }

  /** The run starts (in the slot, after `check` and any confirmation). */
  startRun(): void {
    if (this.#phase !== 'settled') this.#phase = 'running'
  }

  /** Stops the call: idempotent, and ignored once it is settled. The first reason wins. */
  abort(by: CancelledBy): void {
    if (this.#abortedBy || this.#phase === 'settled') return
    this.#abortedBy = by
    this.#controller?.abort(abortReason(by))
    this.#resolveAborted?.(by)
    const hook = this.#onAbort
    this.#onAbort = undefined
    hook?.(by)
  }

  /**
   * Hears an abort while a step waits on something the signal cannot stop (a validator, a run
   * under its grace period). One listener at a time; told at once if the call is already aborted.
   */
  onAbort(listener: ((by: CancelledBy) => void) | undefined): void {
    this.#onAbort = listener
    if (listener && this.#abortedBy) {
      this.#onAbort = undefined
      listener(this.#abortedBy)
    }
  }

  /** Follows the caller's AbortSignal until the call settles. */
  follow(signal: AbortSignal | undefined): void {
    if (!signal) return
    this.#signal = signal
    signal.addEventListener('abort', this, { once: true })
  }

  /** The caller's signal fired (the call is its own listener: no closure per call). */
  handleEvent(): void {
    this.abort('signal')
  }

  /**
   * Asks for the scope's slot: `true` when the call holds it now, `'busy'` when the line is full
   * (never for an approved run), else a promise of the slot or of the abort reason. Time in the
   * line counts toward the deadline.
   */
  enter(approved = false): true | 'busy' | Promise<true | CancelledBy> {
    const queue = this.record.scope.queue
    const entered = queue.enter(this, this.internals.limits.queuePerScope, approved)
    if (entered === 'busy') return 'busy'
    this.#phase = 'queued'
    if (entered === true) {
      this.#holdsSlot = true
      return true
    }
    this.deadline.start()
    return entered.then((turn) => {
      if (turn !== true) return turn
      this.#holdsSlot = true
      if (this.#phase === 'settled') {
        // Settled while it waited: the slot goes straight on to the next in line.
        this.leave()
        return this.#abortedBy ?? 'policy'
      }
      return true
    })
  }

  /**
   * Takes the scope's slot and starts the run at once, when the slot is free and the call is not
   * aborted: the common call's turn, with no line and no promise. `false` changes nothing.
   */
  runIfFree(): boolean {
    // With no room in the line, `enter` only ever takes a free slot or answers `busy`.
    if (this.#abortedBy !== undefined || this.record.scope.queue.enter(this, 0) !== true) {
      return false
    }
    this.#holdsSlot = true
    this.#phase = 'running'
    return true
  }

  /** Gives the slot back (while a person decides, and when the call ends). Idempotent. */
  leave(): void {
    if (!this.#holdsSlot) return
    this.#holdsSlot = false
    this.record.scope.queue.release(this)
  }

  /** While a person decides: the slot is free and the deadline does not count. */
  awaitPerson(): void {
    this.leave()
    if (this.#phase !== 'settled') this.#phase = 'confirming'
    this.#deadline?.pause()
  }

  /** The person answered: the deadline counts again. */
  resumeAfterPerson(): void {
    this.#deadline?.resume()
  }

  /**
   * Ends the call with `result`, once: the result is normalized (results the pipeline built itself
   * are frozen already), the deadline stops, the slot and the caller's signal are let go, and the
   * `result` event is emitted. A second settle returns the first result's replacement unchanged
   * and emits nothing.
   */
  settle(result: ToolResult): ToolResult {
    return this.end(Object.isFrozen(result) ? result : this.internals.normalize(result, this))
  }

  /** `settle` with a result already normalized (a run's): nothing to check or copy. */
  end(final: ToolResult): ToolResult {
    if (this.#phase === 'settled') return final
    this.#phase = 'settled'
    this.#onAbort = undefined
    this.#deadline?.stop()
    this.leave()
    this.list?.delete(this)
    if (this.#signal) {
      this.#signal.removeEventListener('abort', this)
      this.#signal = undefined
    }
    const { events } = this.internals
    if (events.has('result')) {
      events.emit('result', {
        callId: this.callId,
        tool: this.record.name,
        caller: this.runAs,
        result: final,
        durationMs: this.started === undefined ? 0 : now() - this.started,
      })
    }
    return final
  }
}

/**
 * The calls not settled yet, oldest first, for Stop and withdrawal. The calls are linked through
 * themselves: adding and removing one allocates and hashes nothing, where a `Set` would give each
 * call an identity hash (see the README's Performance notes).
 */
export class CallList {
  #head: Call | undefined
  #tail: Call | undefined

  /** Adds a call; adding one twice changes nothing. */
  add(call: Call): void {
    if (call.list) return
    call.list = this
    call.prev = this.#tail
    if (this.#tail) this.#tail.next = call
    else this.#head = call
    this.#tail = call
  }

  /** Removes a call; removing one that is not here changes nothing. */
  delete(call: Call): void {
    if (call.list !== this) return
    if (call.prev) call.prev.next = call.next
    else this.#head = call.next
    if (call.next) call.next.prev = call.prev
    else this.#tail = call.prev
    call.list = call.prev = call.next = undefined
  }

  /** The calls now, oldest first: a copy, so aborting one while iterating is safe. */
  snapshot(): Call[] {
    const out: Call[] = []
    for (let c = this.#head; c; c = c.next) out.push(c)
    return out
  }
}
