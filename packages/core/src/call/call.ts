import { Deadline, type Abortable } from './deadline'
import type { QueueHolder, WhenAborted } from '../tool/scopeQueue'
import { unref } from '../base/guards'
import { randomId, now } from '../base/ids'
import { deepFreeze, normalizeResult, type ResultProblem } from '../base/results'
import type { RegistryInternals, ToolRecord } from '../tool/toolRecord'
import type {
  Approval,
  CallObserver,
  Caller,
  CancelledBy,
  ConfirmEvent,
  ToolResult,
} from '../types'
import type { Checked } from './validateInput'
import {
  ALLOWED,
  CHECKING,
  CONFIRMING,
  PHASES,
  QUEUED,
  RUNNING,
  SETTLED,
  type Phase,
} from './phases'

export type { Phase } from './phases'

/**
 * What a call waits on, and what the wait does to it (`Call#wait`):
 * - `validation`: an async input schema. The deadline counts; an abort stops the wait at once.
 * - `check`: an async precondition. The deadline is left as it is; an abort stops the wait at once.
 * - `edit`: a person's edited input being validated while the call waits on them, its deadline
 *   paused: the wait has a bound of its own, the tool's deadline, after which it ends as stopped
 *   by `policy` (the entry stays pending); an abort stops it at once.
 * - `run`: an async run. The deadline counts; after an abort the run gets `limits.abortGraceMs`
 *   to stop, then is abandoned, and a settle after that is reported as `late_result`.
 * - `confirmation`: an inline confirmation (step 7). The call moves to `confirming`, gives its
 *   slot back, and its deadline stops counting until the wait ends; an abort stops it at once.
 * - `ask`: `ctx.confirm` inside a run. The deadline stops counting until the wait ends; an abort
 *   stops it at once.
 */
export type WaitKind = 'validation' | 'check' | 'edit' | 'run' | 'confirmation' | 'ask'

/** How a wait ended: what the awaited work gave, or that the call was stopped first. */
export type Waited<T> = { value: T } | { error: unknown } | { stopped: CancelledBy }

/**
 * The part of a call that only some calls need, made on first use: one that waits, follows a
 * signal, hands out `ctx.signal`, is approved, deferred or followed by an adapter. The common call
 * (validated, run and settled at once) allocates a smaller `Call` without it: 17 fields, not 25.
 */
interface Waiting {
  /** How a person (or their grant) approved the run. */
  approval: Approval | undefined
  /** Who follows the call (`CallOptions.observe`). */
  observer: CallObserver | undefined
  /** The `result` event is out: a deferred call announces `needs_confirmation`, once. */
  announced: boolean
  controller: AbortController | undefined
  aborted: Promise<CancelledBy> | undefined
  resolveAborted: ((by: CancelledBy) => void) | undefined
  deadline: Deadline | undefined
  signal: AbortSignal | undefined
  /** The waits an abort ends now (see `wait`). */
  waits: ((by: CancelledBy) => void)[] | undefined
}

const waiting = (): Waiting => ({
  approval: undefined,
  observer: undefined,
  announced: false,
  controller: undefined,
  aborted: undefined,
  resolveAborted: undefined,
  deadline: undefined,
  signal: undefined,
  waits: undefined,
})

/** The reason a run's `ctx.signal` carries: AbortError-shaped, wherever DOMException is missing. */
class CallAbortedError extends Error {
  override name = 'AbortError'
}
const abortReason = (by: CancelledBy) => new CallAbortedError(`Call cancelled (${by})`)

/** The one place a `result` event is emitted, for calls with a `Call` and for early refusals. */
function announce(
  internals: RegistryInternals,
  callId: string,
  tool: string,
  caller: Caller,
  result: ToolResult,
  started: number | undefined,
): void {
  internals.events.emit('result', {
    callId,
    tool,
    caller,
    result,
    durationMs: started === undefined ? 0 : now() - started,
  })
}

/** What normalizing a call's result reports, said like every other error about a tool's code. */
const reportResult = ({ code, cause }: ResultProblem, call: Call): void =>
  call.internals.toolError(code, call, cause)

/**
 * One call, from the moment its tool is found to its result: the only owner of its phase (moved
 * by `MOVES` only), its abort and the reason for it, its deadline, its hold on the scope's slot,
 * and the single `result` event. The steps of the pipeline (validation, `check`, confirmation,
 * run) ask it to move, and ask it to `wait` on anything the call's signal cannot stop; none of
 * them writes its state.
 *
 * The call id, the AbortController and the deadline are made on first use: a call that runs at
 * once with no one listening needs none of them. `node --expose-gc bench/call.mjs` puts an
 * AbortController and its signal at 3.2 µs and an id at 3.8 µs, against about 1 µs for a whole
 * call.
 */
export class Call implements Abortable {
  /** The phase, as its place in `PHASES`. */
  #at = CHECKING
  #abortedBy: CancelledBy | undefined
  #callId: string | undefined
  /** What only a call that waits, is stopped from outside or is followed needs (`Waiting`). */
  #w: Waiting | undefined
  #holdsSlot = false
  #runAs: Caller
  #checked: Checked | undefined
  /** The last result `normalize` gave: deep-frozen, so `settle` need not test it again. */
  #normalized: ToolResult | undefined
  /** Links in the registry's `CallList`, and what it tells the call before it is listed. */
  list: CallList | undefined = undefined
  since: Interruption | undefined = undefined
  prev: Call | undefined = undefined
  next: Call | undefined = undefined

  constructor(
    readonly internals: RegistryInternals,
    readonly record: ToolRecord,
    /** Who asked: policy, Stop and events. */
    readonly caller: Caller,
    callId: string | undefined,
    /** When the call began (`now()`), for `durationMs`; only read when someone listens. */
    readonly started: number | undefined,
    /**
     * A tour step's: the caller that started the tour, whose policy the step must also pass
     * (tools, classes, grants, verification, rate limit). Undefined for every other caller.
     */
    readonly actingFor?: Caller,
  ) {
    this.#callId = callId
    this.#runAs = caller
  }

  /** Who the run acts as: the caller, or `human` once a person approved a deferred call. */
  get runAs(): Caller {
    return this.#runAs
  }

  /** How a person approved the run (its confirmation's outcome), for `ctx.approval`. */
  get approval(): Approval | undefined {
    return this.#w?.approval
  }

  /** Who follows the call (`CallOptions.observe`). */
  get observer(): CallObserver | undefined {
    return this.#w?.observer
  }

  /** The caller follows this call: told its id now, then every move and confirmation. */
  observe(observer: CallObserver): void {
    ;(this.#w ??= waiting()).observer = observer
    if (observer.started) this.tell(observer.started, this.callId)
  }

  /** A `confirm` event of one of the call's own confirmations, for its observer. */
  confirmed(event: ConfirmEvent): void {
    const confirm = this.#w?.observer?.confirm
    if (confirm) this.tell(confirm, event)
  }

  /**
   * Tells the observer something (`what` is one of its methods): what it throws is reported,
   * never the call's concern.
   */
  tell<T>(what: (this: CallObserver, value: T) => void, value: T): void {
    const observer = this.#w!.observer!
    try {
      what.call(observer, value)
    } catch (cause) {
      this.internals.errorEvent({
        code: 'listener_threw',
        message: 'A call observer threw',
        callId: this.callId,
        tool: this.record.name,
        cause,
      })
    }
  }

  /** A person (or their grant) approved the run: `ctx.approval` says how. */
  approve(approval: Approval): void {
    ;(this.#w ??= waiting()).approval = approval
  }

  /** Holds what validation gave over the pipeline's one hop (no closure per call for it). */
  hold(checked: Checked): void {
    this.#checked = checked
  }

  /** What `hold` kept, once. */
  takeChecked(): Checked {
    const checked = this.#checked!
    this.#checked = undefined
    return checked
  }

  /**
   * A call refused before it had a tool or a known caller, so before it could have a `Call`: its
   * result is frozen (it is built fresh and plain) and announced like any other.
   */
  static refuseEarly(
    internals: RegistryInternals,
    result: ToolResult,
    callId: string | undefined,
    tool: string,
    caller: Caller,
    started: number | undefined,
  ): ToolResult {
    const final = deepFreeze(result)
    if (internals.events.listening.result) {
      announce(internals, callId ?? randomId('call_'), tool, caller, final, started)
    }
    return final
  }

  get phase(): Phase {
    return PHASES[this.#at]
  }

  get abortedBy(): CancelledBy | undefined {
    return this.#abortedBy
  }

  get callId(): string {
    return (this.#callId ??= randomId('call_'))
  }

  /** The run's `ctx.signal`: aborted with the call. */
  get signal(): AbortSignal {
    const w = (this.#w ??= waiting())
    if (!w.controller) {
      w.controller = new AbortController()
      if (this.#abortedBy) w.controller.abort(abortReason(this.#abortedBy))
    }
    return w.controller.signal
  }

  /**
   * What the tool (its `check` or `run`) or the pipeline handed back, as it may leave `tm.call`
   * (`normalizeResult`), a problem reported as this call's. One function for every registry: a
   * registry's own `normalize` made the run's step call a different function per registry.
   */
  normalize(raw: unknown): ToolResult {
    return (this.#normalized = normalizeResult(raw, reportResult, this))
  }

  /**
   * Moves the phase (`to`, a place in `PHASES`) by `MOVES`; `false` when the call is settled
   * already and stays so.
   */
  #move(to: number): boolean {
    const from = this.#at
    if (from === SETTLED) return false
    if ((ALLOWED[from] & (1 << to)) === 0) {
      throw new Error(
        `[toolmark] A call of "${this.record.name}" cannot move from ${PHASES[from]} to ${PHASES[to]}: the call pipeline broke its own order`,
      )
    }
    this.#at = to
    const moved = this.#w?.observer?.moved
    if (moved) this.tell(moved, PHASES[to])
    return true
  }

  /** The deadline, made when first needed (a call that settles at once never needs one). */
  #clock(): Deadline {
    return ((this.#w ??= waiting()).deadline ??= new Deadline(
      this.record.def.timeoutMs ?? this.internals.limits.callTimeoutMs,
      this,
    ))
  }

  /** What the scope queue asks of a call that has to wait: one function for every call. */
  static whenAborted(holder: QueueHolder): Promise<CancelledBy> {
    return (holder as Call).#whenAborted()
  }

  /** Resolves with the reason once the call is aborted (never, if it settles first). */
  #whenAborted(): Promise<CancelledBy> {
    const w = (this.#w ??= waiting())
    if (!w.aborted) {
      w.aborted = this.#abortedBy
        ? Promise.resolve(this.#abortedBy)
        : new Promise<CancelledBy>((resolve) => (w.resolveAborted = resolve))
    }
    return w.aborted
  }

  /** The run starts (in the slot, after `check` and any confirmation). */
  startRun(): void {
    this.#move(RUNNING)
  }

  /** Stops the call: idempotent, and ignored once it is settled. The first reason wins. */
  abort(by: CancelledBy): void {
    if (this.#abortedBy || this.#at === SETTLED) return
    this.#abortedBy = by
    const w = this.#w
    if (!w) return
    w.controller?.abort(abortReason(by))
    w.resolveAborted?.(by)
    const waits = w.waits
    w.waits = undefined
    if (waits) for (const stop of waits) stop(by)
  }

  /**
   * Waits on `work` (what `kind` says: a validator, a `check`, a run, a person) while the call can
   * still be stopped, then calls `done` once with how it ended. The deadline, the abort and the
   * grace period of `kind` are the call's own business (see `WaitKind`): a step only hands over
   * what it waits on and hears the outcome. An abort reaches `done` synchronously, so nothing can
   * slip in between.
   */
  wait<T>(work: PromiseLike<T>, kind: WaitKind, done: (outcome: Waited<T>) => void): void {
    const w = (this.#w ??= waiting())
    let over = false
    /** The run's grace after an abort, or an edit's own bound. */
    let timer: ReturnType<typeof setTimeout> | undefined
    const finish = (outcome: Waited<T>): void => {
      if (over) return
      over = true
      if (timer !== undefined) clearTimeout(timer)
      const at = w.waits?.indexOf(stop) ?? -1
      if (at >= 0) w.waits!.splice(at, 1)
      if (kind === 'confirmation' || kind === 'ask') w.deadline?.resume()
      done(outcome)
    }
    const stop = (by: CancelledBy): void => {
      if (kind !== 'run') return finish({ stopped: by })
      timer = unref(setTimeout(finish, this.internals.limits.abortGraceMs, { stopped: by }))
    }
    // Listening first: a promise that is already settled then ends a run before the deadline
    // would arm its timer.
    Promise.resolve(work).then(
      (value) => (over ? this.#late(kind, value) : finish({ value })),
      (error: unknown) => (over ? this.#late(kind, error) : finish({ error })),
    )
    if (kind === 'validation' || kind === 'run') this.#clock().start()
    else if (kind === 'edit') {
      const bound = this.record.def.timeoutMs ?? this.internals.limits.callTimeoutMs
      timer = unref(setTimeout(finish, bound, { stopped: 'policy' }))
    } else if (kind === 'confirmation') {
      this.#move(CONFIRMING)
      this.#leave()
      // Only a deadline already counting is paused: a call that never waited has none yet.
      w.deadline?.pause()
    } else if (kind === 'ask') this.#clock().pause()
    if (this.#abortedBy) stop(this.#abortedBy)
    else (w.waits ??= []).push(stop)
  }

  /** A run that settled after its call was abandoned is only reported. */
  #late(kind: WaitKind, cause: unknown): void {
    if (kind === 'run') this.internals.toolError('late_result', this, cause)
  }

  /** Follows the caller's AbortSignal until the call settles. */
  follow(signal: AbortSignal): void {
    ;(this.#w ??= waiting()).signal = signal
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
    const entered = queue.enter(this, this.internals.limits.queuePerScope, approved, whenAborted)
    if (entered === 'busy') return 'busy'
    this.#move(QUEUED)
    if (entered === true) {
      this.#holdsSlot = true
      return true
    }
    this.#clock().start()
    return entered.then((turn) => {
      if (turn !== true) return turn
      this.#holdsSlot = true
      if (this.#at === SETTLED) {
        // Settled while it waited: the slot goes straight on to the next in line.
        this.#leave()
        return this.#abortedBy ?? 'policy'
      }
      return true
    })
  }

  /**
   * Takes the scope's slot and starts the run at once, when the slot is free and the call is not
   * aborted: the common call's turn, with no line and no promise. `false` changes nothing.
   * (`bench/call.mjs`: 1.76–1.79× the floor with this straight line, 1.86–1.88× without.)
   */
  runIfFree(): boolean {
    if (this.#abortedBy !== undefined || !this.record.scope.queue.take()) return false
    this.#holdsSlot = true
    this.#move(RUNNING)
    return true
  }

  /** Gives the slot back (while a person decides, and when the call ends). Idempotent. */
  #leave(): void {
    if (!this.#holdsSlot) return
    this.#holdsSlot = false
    this.record.scope.queue.release()
  }

  /**
   * A deferred confirmation was filed for the call: `tm.call` answers `needs_confirmation` now,
   * and that is the call's one `result` event. The call itself waits on, out of its scope's slot
   * and out of Stop's reach (Stop and withdrawal end its confirmation instead), its deadline
   * paused and its caller's signal let go: if the person approves, `resume` runs it, as `human`,
   * and its outcome is told by the confirmation's `approved` event; otherwise it is dropped.
   */
  defer(result: ToolResult): ToolResult {
    // What this call's `normalize` gave is frozen already; asking `Object.isFrozen` of it costs a
    // runtime call on every run (\`bench/call-gate.mjs\`: about 0.2× the floor).
    const final =
      result === this.#normalized || Object.isFrozen(result) ? result : this.normalize(result)
    if (!this.#move(CONFIRMING)) return final
    this.#leave()
    this.#w?.deadline?.pause()
    this.list?.delete(this)
    this.#unfollow()
    ;(this.#w ??= waiting()).announced = true
    if (this.internals.events.listening.result) {
      announce(this.internals, this.callId, this.record.name, this.#runAs, final, this.started)
    }
    return final
  }

  /** A person approved the deferred call: it runs as `human`, with their approval. */
  resume(approval: Approval): void {
    this.#runAs = 'human'
    const w = (this.#w ??= waiting())
    w.approval = approval
    w.deadline?.resume()
  }

  #unfollow(): void {
    const w = this.#w
    if (w?.signal) {
      w.signal.removeEventListener('abort', this)
      w.signal = undefined
    }
  }

  /**
   * Ends the call with `result`, once: the result is normalized, the deadline stops, the slot and
   * the caller's signal are let go, and the `result` event is emitted. A second settle only
   * returns its own result, normalized, and emits nothing.
   *
   * Every result of a call leaves through here (or `defer`, or `refuseEarly`), so this is where
   * it is frozen, whatever step made it: a result already frozen (what `normalize` gave, the
   * pipeline's deep-frozen constants) is kept as it is, anything else is normalized, which copies
   * and deep-freezes it. No caller may skip the test: a run's `cancelled(...)` after its
   * deadline or abort is as fresh as a step's own.
   */
  settle(result: ToolResult): ToolResult {
    // What this call's `normalize` gave is frozen already; asking `Object.isFrozen` of it costs a
    // runtime call on every run (\`bench/call-gate.mjs\`: about 0.2× the floor).
    const final =
      result === this.#normalized || Object.isFrozen(result) ? result : this.normalize(result)
    if (!this.#move(SETTLED)) return final
    const w = this.#w
    if (w) {
      w.waits = undefined
      w.deadline?.stop()
      if (w.signal) this.#unfollow()
    }
    this.#leave()
    this.list?.delete(this)
    this.since = undefined
    if (!w?.announced && this.internals.events.listening.result) {
      announce(this.internals, this.callId, this.record.name, this.#runAs, final, this.started)
    }
    return final
  }
}

/** The one `WhenAborted` every call hands its scope queue (no closure per call). */
const whenAborted: WhenAborted = Call.whenAborted

/**
 * A Stop (`stop`, its reason) or a withdrawal (`stop` undefined), as the calls that are not in the
 * list yet learn of it: each such call holds the one that was next when it began, and reads the
 * chain from there when it is listed or moves on (`CallList#catchUp`).
 */
export interface Interruption {
  stop: CancelledBy | undefined
  next: Interruption | undefined
}

const interruption = (): Interruption => ({ stop: undefined, next: undefined })

/**
 * The calls not settled yet, for Stop and withdrawal. A call is listed only once it waits (a line,
 * a person, an async step): until then it is told, when it moves on, of every Stop and withdrawal
 * since it began, oldest first (`catchUp`), so the common call (validated, run and settled at
 * once) is never stored in the list (`bench/call.mjs`: storing each call cost about 0.1× the
 * floor, the list being old and each call young).
 *
 * The listed calls are linked through themselves: adding and removing one allocates and hashes
 * nothing, where a `Set` would give each call an identity hash (`bench/call.mjs`: 0.22 µs per call
 * for a `Set`, 0.04 µs linked). The newest is first.
 */
export class CallList {
  #newest: Call | undefined
  /** What the calls that begin now will be told of, once it happens. */
  #latest = interruption()

  /** `heard(call, stop)`: what a Stop (`stop`) or a withdrawal (`undefined`) does to one call. */
  constructor(readonly heard: (call: Call, stop: CancelledBy | undefined) => void) {}

  /** A call begins, not listed: it will be told of what happens from now on. */
  begin(call: Call): void {
    call.since = this.#latest
  }

  /** Every Stop and withdrawal since the call began, told to it now, oldest first; once. */
  catchUp(call: Call): void {
    let at = call.since
    if (at === undefined) return
    call.since = undefined
    for (; at !== this.#latest; at = at.next!) this.heard(call, at.stop)
  }

  /**
   * A Stop (`stop`) or a withdrawal (`undefined`): noted for the calls not listed, and told to
   * the listed ones now, oldest first (a copy of the list, so aborting one meanwhile is safe).
   */
  interrupt(stop: CancelledBy | undefined): void {
    const at = this.#latest
    at.stop = stop
    this.#latest = at.next = interruption()
    for (const call of this.#snapshot()) this.heard(call, stop)
  }

  /** Lists a call, after telling it what it missed; listing one twice changes nothing. */
  add(call: Call): void {
    this.catchUp(call)
    if (call.list) return
    call.list = this
    const next = this.#newest
    call.next = next
    if (next) next.prev = call
    this.#newest = call
  }

  /** Removes a call; removing one that is not here changes nothing. */
  delete(call: Call): void {
    if (call.list !== this) return
    const { prev, next } = call
    if (prev) prev.next = next
    else this.#newest = next
    if (next) next.prev = prev
    call.list = call.prev = call.next = undefined
  }

  /** The listed calls now, oldest first. */
  #snapshot(): Call[] {
    const out: Call[] = []
    for (let c = this.#newest; c; c = c.next) out.push(c)
    return out.reverse()
  }
}
