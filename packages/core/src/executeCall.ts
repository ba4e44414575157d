import type { ConfirmAnswer, Pausable } from './confirmFlow'
import { now } from './ids'
import { isObject, isThenable, unref, type Flight, type RegistryInternals } from './internals'
import type { Release } from './scopeQueue'
import { cancelled, refuse, toolFailed } from './results'
import { validateWith } from './schema'
import type { CancelledBy, ProgressEvent, ToolContext, ToolResult } from './types'

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown }

/**
 * Steps 6–7 of the pipeline: wait for the scope's slot, run with `ctx`, keep the deadline.
 * A run that returns synchronously is settled synchronously; everything else is a promise.
 */
export type Execute = (flight: Flight, input: unknown) => ToolResult | Promise<ToolResult>

/**
 * A run's deadline. It is paused while a person decides inside the run (`ctx.confirm`), so only
 * the tool's own time counts; pauses nest. No timer exists until `start`.
 */
class Deadline implements Pausable {
  private timer: ReturnType<typeof setTimeout> | undefined
  private startedAt = 0
  private pauses = 0
  private stopped = false
  constructor(
    private remaining: number,
    private readonly onExpire: () => void,
  ) {}
  start() {
    if (this.stopped || this.pauses > 0 || this.timer !== undefined) return
    this.startedAt = now()
    this.timer = unref(setTimeout(this.onExpire, Math.max(0, this.remaining)))
  }
  pause() {
    this.pauses++
    if (this.timer === undefined) return
    clearTimeout(this.timer)
    this.timer = undefined
    this.remaining -= now() - this.startedAt
  }
  resume() {
    if (this.pauses > 0) this.pauses--
    this.start()
  }
  stop() {
    this.stopped = true
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }
}

/**
 * `ctx`. Its methods are own closures, so a run may destructure them; `signal` is a getter, so
 * the AbortController is only made for runs that look at it.
 */
class RunContext implements ToolContext {
  readonly callId: string
  readonly caller: ToolContext['caller']
  readonly registerUndo: ToolContext['registerUndo']
  readonly confirm: ToolContext['confirm']
  readonly progress: ToolContext['progress']
  readonly #flight: Flight
  constructor(
    flight: Flight,
    deadline: Deadline,
    parts: {
      ask(flight: Flight, request: unknown, deadline: Pausable): Promise<ConfirmAnswer>
      registerUndo(flight: Flight, restore: unknown): void
    },
    events: RegistryInternals['events'],
  ) {
    this.#flight = flight
    this.callId = flight.callId
    this.caller = flight.runAs
    this.registerUndo = (restore) => parts.registerUndo(flight, restore)
    this.confirm = (request) => parts.ask(flight, request, deadline)
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
  get signal(): AbortSignal {
    return this.#flight.signal
  }
}

const toSettled = (promise: PromiseLike<unknown>): Promise<Settled> =>
  Promise.resolve(promise).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  )

export function createExecutor(
  internals: RegistryInternals,
  parts: {
    ask(flight: Flight, request: unknown, deadline: Pausable): Promise<ConfirmAnswer>
    registerUndo(flight: Flight, restore: unknown): void
  },
): Execute {
  const { limits, events } = internals

  function settleRun(settled: Settled, flight: Flight): ToolResult | Promise<ToolResult> {
    const { record, callId } = flight
    if (!settled.ok) {
      internals.errorEvent({
        code: 'tool_threw',
        message: `Tool "${record.name}" threw`,
        tool: record.name,
        callId,
        cause: settled.error,
      })
      return toolFailed()
    }
    const result = internals.normalize(settled.value, record, callId)
    if (internals.dev && result.status === 'ok' && record.def.output) {
      const checking = checkOutput(flight, result.data)
      if (checking) return checking.then(() => result)
    }
    return result
  }

  /** Development only: a mismatch is reported and the result is kept (the seed's rule). */
  function checkOutput(flight: Flight, data: unknown): Promise<void> | undefined {
    const { record, callId } = flight
    const report = (cause: unknown, threw: boolean) =>
      internals.errorEvent({
        code: 'output_invalid',
        message: threw
          ? `The output schema of "${record.name}" threw`
          : `Tool "${record.name}" returned data that does not match its output schema`,
        tool: record.name,
        callId,
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

  function createContext(flight: Flight, deadline: Deadline): ToolContext {
    return new RunContext(flight, deadline, parts, events)
  }

  /** Runs with the slot held. A synchronous run needs no timer: nothing can interrupt it. */
  function runWithSlot(
    flight: Flight,
    input: unknown,
    release: Release,
    deadline: Deadline,
  ): ToolResult | Promise<ToolResult> {
    if (flight.abortedBy) {
      deadline.stop()
      release()
      return cancelled(flight.abortedBy)
    }
    flight.phase = 'running'
    let value: unknown
    try {
      value = flight.record.def.run(input, createContext(flight, deadline))
    } catch (error) {
      deadline.stop()
      release()
      return settleRun({ ok: false, error }, flight)
    }
    if (!isThenable(value)) {
      deadline.stop()
      release()
      return settleRun({ ok: true, value }, flight)
    }
    deadline.start()
    return awaitRun(flight, toSettled(value), release, deadline)
  }

  async function awaitRun(
    flight: Flight,
    running: Promise<Settled>,
    release: Release,
    deadline: Deadline,
  ): Promise<ToolResult> {
    const { record } = flight
    try {
      const first = await Promise.race([running, flight.aborted])
      if (typeof first !== 'string') return await settleRun(first, flight)

      // Aborted while running: the run gets a grace period to stop, then its slot is freed.
      let grace: ReturnType<typeof setTimeout> | undefined
      const graceOver = new Promise<'grace'>((resolve) => {
        grace = unref(setTimeout(() => resolve('grace'), limits.abortGraceMs))
      })
      const late = await Promise.race([running, graceOver])
      clearTimeout(grace)
      if (late === 'grace') {
        void running.then((settled) => {
          internals.errorEvent({
            code: 'late_result',
            message: `Tool "${record.name}" settled after its call was abandoned`,
            tool: record.name,
            callId: flight.callId,
            cause: settled.ok ? settled.value : settled.error,
          })
        })
        return cancelled(first)
      }
      // A run that stopped by throwing (usually an AbortError) was cancelled; one that returned a
      // result says what really happened, so nothing done is reported as undone.
      if (!late.ok) return cancelled(first)
      return await settleRun(late, flight)
    } finally {
      deadline.stop()
      release()
    }
  }

  return function execute(flight, input) {
    const { record } = flight
    const queue = record.scope.queue
    const entered = queue.enter(() => flight.aborted, limits.queuePerScope)
    if (entered === 'busy') {
      return refuse(
        'busy',
        `${queue.waiting} calls are already waiting in "${record.scope.path || 'the root scope'}"; retry later`,
      )
    }
    const deadline = new Deadline(record.def.timeoutMs ?? limits.callTimeoutMs, () =>
      flight.abort('policy'),
    )
    if (typeof entered === 'function') return runWithSlot(flight, input, entered, deadline)
    // Time in the queue counts towards the deadline; time waiting on a person does not.
    flight.phase = 'queued'
    deadline.start()
    return entered.then((turn) => {
      if (typeof turn === 'function') return runWithSlot(flight, input, turn, deadline)
      deadline.stop()
      return cancelled(turn as CancelledBy)
    })
  }
}
