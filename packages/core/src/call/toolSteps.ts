import type { Call, Waited } from './call'
import type { ConfirmAnswer } from './inRunAsks'
import { isObject, isThenable } from '../base/guards'
import { NODE_ENV_READABLE } from '../base/nodeEnv'
import { cancelled, toolFailed } from '../base/results'
import { validateWith } from '../schema/standardSchema'
import type { RegistryInternals } from '../tool/toolRecord'
import type { CheckContext, ProgressEvent, QuestionAnswer, ToolContext, ToolResult } from '../types'

declare const process: { env: Record<string, string | undefined> }

/**
 * The two steps that run the app's own code in the scope's slot: `check` (a precondition) and
 * `run`. Both hand back a normalized result; the pipeline settles the call with it.
 */
export interface ToolSteps {
  /** `undefined` when the call may go on, else the result that ends it. */
  check(call: Call, input: unknown): ToolResult | undefined | Promise<ToolResult | undefined>
  run(call: Call, input: unknown): ToolResult | Promise<ToolResult>
}

/** What `ctx` lends a run beyond the call itself. */
export interface RunParts {
  ask(call: Call, request: unknown): Promise<ConfirmAnswer>
  question(call: Call, request: unknown): Promise<QuestionAnswer>
  registerUndo(call: Call, restore: unknown): void
  /**
   * The run read `ctx.signal`: it can be stopped while it runs, by its own code too, so the call
   * is listed for Stop and withdrawal from now (a call that runs at once is not, otherwise).
   */
  stoppable(call: Call): void
}

/**
 * `ctx` for `run`. `signal` and `callId` are getters, so the AbortController and the id are only
 * made for runs that read them; the methods are made on first read too, and are bound, so a run
 * may destructure them.
 */
class RunContext implements ToolContext {
  readonly caller: ToolContext['caller']
  readonly #call: Call
  readonly #parts: RunParts
  /** The methods made so far (one field for the four: every run makes its `ctx`). */
  #made: Partial<Pick<ToolContext, 'registerUndo' | 'confirm' | 'ask' | 'progress'>> | undefined

  constructor(call: Call, parts: RunParts) {
    this.#call = call
    this.#parts = parts
    this.caller = call.runAs
  }
  get callId(): string {
    return this.#call.callId
  }
  get signal(): AbortSignal {
    this.#parts.stoppable(this.#call)
    return this.#call.signal
  }
  get registerUndo(): ToolContext['registerUndo'] {
    return ((this.#made ??= {}).registerUndo ??= (restore) =>
      this.#parts.registerUndo(this.#call, restore))
  }
  get confirm(): ToolContext['confirm'] {
    return ((this.#made ??= {}).confirm ??= (request) => this.#parts.ask(this.#call, request))
  }
  get ask(): ToolContext['ask'] {
    return ((this.#made ??= {}).ask ??= ((request: unknown) =>
      this.#parts.question(this.#call, request)) as ToolContext['ask'])
  }
  get progress(): ToolContext['progress'] {
    return ((this.#made ??= {}).progress ??= (p) => reportProgress(this.#call, p))
  }
  get approval(): ToolContext['approval'] {
    return this.#call.approval
  }
}

function reportProgress(call: Call, p: unknown): void {
  if (call.phase !== 'running' || !isObject(p)) return
  const done = Number(p.done)
  if (!Number.isFinite(done)) return
  const event: ProgressEvent = {
    callId: call.callId,
    tool: call.record.name,
    caller: call.caller,
    done,
  }
  if (typeof p.total === 'number' && Number.isFinite(p.total)) event.total = p.total
  if (typeof p.message === 'string') event.message = p.message
  call.internals.events.emit('progress', event)
}

/** `ctx` for `check`: who asks, and a signal that fires if the call is stopped meanwhile. */
class CheckContextImpl implements CheckContext {
  readonly caller: CheckContext['caller']
  readonly #call: Call
  constructor(call: Call) {
    this.#call = call
    this.caller = call.runAs
  }
  get callId(): string {
    return this.#call.callId
  }
  get signal(): AbortSignal {
    return this.#call.signal
  }
}

/** Development only: a mismatch is reported and the result is kept (the seed's rule). */
function checkOutput(call: Call, data: unknown): Promise<void> | undefined {
  const { record, internals } = call
  const report = (cause: unknown, threwOut: boolean) =>
    internals.errorEvent({
      code: 'output_invalid',
      message: threwOut
        ? `The output schema of "${record.name}" threw`
        : `Tool "${record.name}" returned data that does not match its output schema`,
      tool: record.name,
      callId: call.callId,
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

export function createToolSteps(internals: RegistryInternals, parts: RunParts): ToolSteps {
  function threw(call: Call, error: unknown, what: 'check' | 'tool'): ToolResult {
    internals.toolError('tool_threw', call, error, `${what} threw`)
    return toolFailed()
  }

  function settleValue(value: unknown, call: Call): ToolResult | Promise<ToolResult> {
    const result = call.normalize(value)
    // Dev mode in a development build only: production bundles leave the check out. The cheap
    // tests come first, so unbundled Node reads `process.env` only for tools with an output.
    if (
      NODE_ENV_READABLE &&
      process.env.NODE_ENV !== 'production' &&
      internals.dev &&
      result.status === 'ok' &&
      call.record.def.output
    ) {
      const checking = checkOutput(call, result.data)
      if (checking) return checking.then(() => result)
    }
    return result
  }

  function check(call: Call, input: unknown) {
    let value: unknown
    try {
      value = call.record.def.check!(input, new CheckContextImpl(call))
    } catch (error) {
      return threw(call, error, 'check')
    }
    const conclude = (stop: unknown): ToolResult | undefined =>
      stop === undefined ? undefined : call.normalize(stop)
    let thenable: boolean
    try {
      thenable = isThenable(value)
    } catch (error) {
      return threw(call, error, 'check')
    }
    if (!thenable) return conclude(value)
    // A precondition only reads: when the call is stopped, it is not waited for.
    return new Promise<ToolResult | undefined>((resolve) =>
      call.wait(value as PromiseLike<unknown>, 'check', (w) =>
        resolve(
          'stopped' in w
            ? cancelled(w.stopped)
            : 'error' in w
              ? threw(call, w.error, 'check')
              : conclude(w.value),
        ),
      ),
    )
  }

  /** Runs with the slot held. A synchronous run needs no timer: nothing can interrupt it. */
  function run(call: Call, input: unknown): ToolResult | Promise<ToolResult> {
    let value: unknown
    try {
      value = call.record.def.run(input, new RunContext(call, parts))
    } catch (error) {
      return threw(call, error, 'tool')
    }
    let thenable: boolean
    try {
      thenable = isThenable(value)
    } catch (error) {
      // A result whose `then` throws when read: the run failed.
      return threw(call, error, 'tool')
    }
    if (!thenable) return settleValue(value, call)
    // The call gives a run that ignores its aborted signal `abortGraceMs` to stop, then abandons
    // it (settling frees the slot) and only reports a late settle.
    return new Promise<ToolResult>((resolve) =>
      call.wait(value as PromiseLike<unknown>, 'run', (w) => resolve(ran(call, w))),
    )
  }

  function ran(call: Call, w: Waited<unknown>): ToolResult | Promise<ToolResult> {
    // Even after an abort, a run that returned a result says what really happened, so nothing
    // done is reported as undone.
    if ('value' in w) return settleValue(w.value, call)
    // A run that stopped by throwing after an abort (usually an AbortError) was cancelled.
    if ('error' in w)
      return call.abortedBy ? cancelled(call.abortedBy) : threw(call, w.error, 'tool')
    return cancelled(w.stopped)
  }

  return { check, run }
}
