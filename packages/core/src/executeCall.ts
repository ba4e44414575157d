import type { ConfirmAnswer, Pausable } from './confirmFlow'
import { now } from './ids'
import {
  isObject,
  isThenable,
  unref,
  type Flight,
  type RegistryInternals,
  type RunDeadline,
} from './internals'
import { cancelled, refuse, toolFailed } from './results'
import { validateWith } from './schema'
import type { ProgressEvent, ToolContext, ToolResult } from './types'

/**
 * Steps 6–7 of the pipeline: wait for the scope's slot, run with `ctx`, keep the deadline.
 * A run that returns synchronously is settled synchronously; everything else is a promise.
 */
export type Execute = (flight: Flight, input: unknown) => ToolResult | Promise<ToolResult>

/**
 * A run's deadline. It is paused while a person decides inside the run (`ctx.confirm`), so only
 * the tool's own time counts; pauses nest. No timer exists until `start`, and even then the timer
 * is armed a microtask later, for the time left: a run whose promise settles at once (an `async`
 * run that never waits) ends before that and needs no timer at all. The deadline itself is the
 * same, counted from `start`; microtasks never let a timer's time pass, real or fake.
 */
class Deadline implements RunDeadline {
  private timer: ReturnType<typeof setTimeout> | undefined
  /** When the clock last started counting; `undefined` while paused, stopped or not started. */
  private since: number | undefined
  private armQueued = false
  private pauses = 0
  private stopped = false
  constructor(
    private remaining: number,
    private readonly flight: Flight,
  ) {}
  start() {
    if (this.stopped || this.pauses > 0 || this.since !== undefined) return
    this.since = now()
    if (this.armQueued) return
    this.armQueued = true
    if (toArm.push(this) === 1) void SETTLED.then(armQueued)
  }
  arm() {
    this.armQueued = false
    if (this.since === undefined || this.timer !== undefined) return
    const left = this.remaining - (now() - this.since)
    this.timer = unref(setTimeout(expire, Math.max(0, left), this.flight))
  }
  pause() {
    this.pauses++
    if (this.since === undefined) return
    this.remaining -= now() - this.since
    this.since = undefined
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }
  resume() {
    if (this.pauses > 0) this.pauses--
    this.start()
  }
  stop() {
    this.stopped = true
    this.since = undefined
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
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

const expire = (flight: Flight) => flight.abort('policy')

interface ContextParts {
  ask(flight: Flight, request: unknown, deadline: Pausable): Promise<ConfirmAnswer>
  registerUndo(flight: Flight, restore: unknown): void
  deadlineOf(flight: Flight): RunDeadline
}

/**
 * `ctx`. Its methods are own closures, so a run may destructure them; `signal` and `callId` are
 * getters, so the AbortController and the id are only made for runs (or listeners) that read them.
 */
class RunContext implements ToolContext {
  readonly caller: ToolContext['caller']
  readonly registerUndo: ToolContext['registerUndo']
  readonly confirm: ToolContext['confirm']
  readonly progress: ToolContext['progress']
  readonly #flight: Flight
  constructor(flight: Flight, parts: ContextParts, events: RegistryInternals['events']) {
    this.#flight = flight
    this.caller = flight.runAs
    this.registerUndo = (restore) => parts.registerUndo(flight, restore)
    this.confirm = (request) => parts.ask(flight, request, parts.deadlineOf(flight))
    this.progress = (p) => {
      if (flight.phase !== 'running' || !isObject(p)) return
      const done = Number(p.done)
      if (!Number.isFinite(done)) return
      const { record, callId } = flight
      const event: ProgressEvent = { callId, tool: record.name, caller: flight.caller, done }
      if (typeof p.total === 'number' && Number.isFinite(p.total)) event.total = p.total
      if (typeof p.message === 'string') event.message = p.message
      events.emit('progress', event)
    }
  }
  get callId(): string {
    return this.#flight.callId
  }
  get signal(): AbortSignal {
    return this.#flight.signal
  }
}

export function createExecutor(
  internals: RegistryInternals,
  parts: {
    ask(flight: Flight, request: unknown, deadline: Pausable): Promise<ConfirmAnswer>
    registerUndo(flight: Flight, restore: unknown): void
  },
): Execute {
  const { limits, events } = internals
  const contextParts: ContextParts = { ...parts, deadlineOf }

  function deadlineOf(flight: Flight): RunDeadline {
    return (flight.deadline ??= new Deadline(
      flight.record.def.timeoutMs ?? limits.callTimeoutMs,
      flight,
    ))
  }

  function threw(flight: Flight, error: unknown): ToolResult {
    const { record } = flight
    internals.errorEvent({
      code: 'tool_threw',
      message: `Tool "${record.name}" threw`,
      tool: record.name,
      callId: flight.callId,
      cause: error,
    })
    return toolFailed()
  }

  function settleValue(value: unknown, flight: Flight): ToolResult | Promise<ToolResult> {
    const result = internals.normalize(value, flight)
    if (internals.dev && result.status === 'ok' && flight.record.def.output) {
      const checking = checkOutput(flight, result.data)
      if (checking) return checking.then(() => result)
    }
    return result
  }

  /** Development only: a mismatch is reported and the result is kept (the seed's rule). */
  function checkOutput(flight: Flight, data: unknown): Promise<void> | undefined {
    const { record } = flight
    const report = (cause: unknown, threw: boolean) =>
      internals.errorEvent({
        code: 'output_invalid',
        message: threw
          ? `The output schema of "${record.name}" threw`
          : `Tool "${record.name}" returned data that does not match its output schema`,
        tool: record.name,
        callId: flight.callId,
        cause,
      })
    const conclude = (checked: { value: unknown } | { issues: unknown }) => {
      if ('issues' in checked) report(checked.issues, false)
    }
    try {
      const checked = validateWith(record.def.output!, data)
      if (!isThenable(checked)) {
        conclude(checked)
        return undefined
      }
      return Promise.resolve(checked).then(conclude, (cause: unknown) => report(cause, true))
    } catch (cause) {
      report(cause, true)
      return undefined
    }
  }

  /** Ends a run's hold on its scope: the deadline stops and the slot goes to the next call. */
  function leave(flight: Flight): void {
    flight.deadline?.stop()
    flight.record.scope.queue.release(flight)
  }

  /** Runs with the slot held. A synchronous run needs no timer: nothing can interrupt it. */
  function runWithSlot(flight: Flight, input: unknown): ToolResult | Promise<ToolResult> {
    if (flight.abortedBy) {
      leave(flight)
      return cancelled(flight.abortedBy)
    }
    flight.phase = 'running'
    let value: unknown
    try {
      value = flight.record.def.run(input, new RunContext(flight, contextParts, events))
    } catch (error) {
      leave(flight)
      return threw(flight, error)
    }
    let thenable: boolean
    try {
      thenable = isThenable(value)
    } catch (error) {
      // A result whose `then` throws when read: the run failed, and its slot must still be freed.
      leave(flight)
      return threw(flight, error)
    }
    if (!thenable) {
      leave(flight)
      return settleValue(value, flight)
    }
    // Listening first: a promise that is already settled then ends the run before the deadline
    // would arm its timer.
    const running = awaitRun(flight, value as PromiseLike<unknown>)
    deadlineOf(flight).start()
    return running
  }

  /**
   * A run that returned a promise: its outcome ends the call. Aborted first (deadline, signal,
   * Stop), the run gets `abortGraceMs` to stop; a run that ignores its signal is then abandoned,
   * its slot freed, and a late settle only reported. No `Promise.race` and no `aborted` promise:
   * the flight tells this run of an abort directly.
   */
  function awaitRun(flight: Flight, value: PromiseLike<unknown>): Promise<ToolResult> {
    return new Promise<ToolResult>((resolve) => {
      let over = false
      let grace: ReturnType<typeof setTimeout> | undefined
      const end = (result: ToolResult | Promise<ToolResult>) => {
        over = true
        if (grace !== undefined) clearTimeout(grace)
        // Development's output check finishes before the slot is given back.
        if (isThenable(result)) {
          void result.then((final) => {
            leave(flight)
            resolve(final)
          })
          return
        }
        leave(flight)
        resolve(result)
      }
      const late = (cause: unknown) => {
        const { record } = flight
        internals.errorEvent({
          code: 'late_result',
          message: `Tool "${record.name}" settled after its call was abandoned`,
          tool: record.name,
          callId: flight.callId,
          cause,
        })
      }
      flight.onAbort = (by) => {
        if (over) return
        grace = unref(setTimeout(() => end(cancelled(by)), limits.abortGraceMs))
      }
      // Aborted while the run's synchronous part was going on.
      if (flight.abortedBy) flight.onAbort(flight.abortedBy)
      Promise.resolve(value).then(
        (result) => {
          if (over) late(result)
          // Even after an abort, a run that returned a result says what really happened, so
          // nothing done is reported as undone.
          else end(settleValue(result, flight))
        },
        (error: unknown) => {
          if (over) late(error)
          // A run that stopped by throwing after an abort (usually an AbortError) was cancelled.
          else end(flight.abortedBy ? cancelled(flight.abortedBy) : threw(flight, error))
        },
      )
    })
  }

  return function execute(flight, input) {
    const { record } = flight
    const queue = record.scope.queue
    const entered = queue.enter(flight, limits.queuePerScope)
    if (entered === true) return runWithSlot(flight, input)
    if (entered === 'busy') {
      return refuse(
        'busy',
        `${queue.waiting} calls are already waiting in "${record.scope.path || 'the root scope'}"; retry later`,
      )
    }
    // Time in the queue counts towards the deadline; time waiting on a person does not.
    flight.phase = 'queued'
    const deadline = deadlineOf(flight)
    deadline.start()
    return entered.then((turn) => {
      if (turn === true) return runWithSlot(flight, input)
      deadline.stop()
      return cancelled(turn)
    })
  }
}
