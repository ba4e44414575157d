import { createConfirmFlow, type Checked } from './confirmFlow'
import { createExecutor } from './executeCall'
import { createFlight } from './flight'
import { now, randomId } from './ids'
import {
  isAbortSignal,
  isCaller,
  isObject,
  isPlainObject,
  isThenable,
  type Access,
  type Flight,
  type RegistryInternals,
  type ToolRecord,
} from './internals'
import { nameLabel } from './names'
import { needsConfirmation } from './policy'
import { compileSensitive, redactValue } from './redact'
import { cancelled, deepFreeze, invalid, refuse, toolFailed } from './results'
import { validateWith, type Validated } from './schema'
import type { Caller, CallOptions, CancelledBy, ToolResult } from './types'
import type { UndoJournal } from './undoJournal'

/** The call pipeline of DESIGN §3.4, plus what stops calls from outside. */
export interface CallPipeline {
  call(name: unknown, input?: unknown, options?: unknown): Promise<ToolResult>
  /** Stop: aborts every agent call in flight. */
  cancelAll(by: CancelledBy): void
  /** After a revision: calls that lost access before running end `cancelled policy`. */
  withdraw(): void
  /** A tool went away: its pending confirmations are withdrawn. */
  dropTool(record: ToolRecord): void
}

const NO_SENSITIVE = compileSensitive(undefined)
const NO_OPTIONS: CallOptions = Object.freeze({})

const conclude = (checked: Validated<unknown>): Checked =>
  'issues' in checked ? { result: invalid(checked.issues) } : checked

export function createCallPipeline(
  internals: RegistryInternals,
  journal: UndoJournal,
): CallPipeline {
  const { events, flights } = internals

  /** Step 4; synchronous when the schema is. `call.callId` is read only to report a problem. */
  function checkInput(
    record: ToolRecord,
    input: unknown,
    call: { readonly callId: string },
  ): Checked | Promise<Checked> {
    const schema = record.def.input
    if (!schema) {
      // Such a tool's run receives `undefined` as its input.
      if (input === undefined || (isPlainObject(input) && Object.keys(input).length === 0)) {
        return { value: undefined }
      }
      return { result: invalid([{ path: '', message: 'This tool takes no input: send {}' }]) }
    }
    try {
      const checked = validateWith(schema, input)
      return isThenable(checked)
        ? Promise.resolve(checked).then(conclude, (cause: unknown) =>
            validatorThrew(record, call, cause),
          )
        : conclude(checked)
    } catch (cause) {
      return validatorThrew(record, call, cause)
    }
  }

  function validatorThrew(
    record: ToolRecord,
    call: { readonly callId: string },
    cause: unknown,
  ): Checked {
    internals.errorEvent({
      code: 'validator_threw',
      message: `The input schema of "${record.name}" threw while validating`,
      tool: record.name,
      callId: call.callId,
      cause,
    })
    return { result: toolFailed() }
  }

  // The executor and the confirmation flow need each other (a run may ask a person; an approval
  // runs the tool): each gets the other through a late-bound function.
  const confirmFlow = createConfirmFlow(internals, {
    checkInput,
    execute: (flight, input) => execute(flight, input),
  })
  const execute = createExecutor(internals, {
    ask: confirmFlow.ask,
    registerUndo: journal.register,
  })

  /** Step 8 for a call that found its tool: normalize, then `result` with `durationMs`. */
  function finish(result: ToolResult, flight: Flight, started: number | undefined): ToolResult {
    // Results built here are fresh and plain; a tool's own result was normalized on the way.
    const final = Object.isFrozen(result) ? result : internals.normalize(result, flight)
    if (events.has('result')) {
      events.emit('result', {
        callId: flight.callId,
        tool: flight.record.name,
        caller: flight.caller,
        result: final,
        durationMs: started === undefined ? 0 : now() - started,
      })
    }
    return final
  }

  /** Step 8 for a call refused before it had a tool and a caller. */
  function finishEarly(
    result: ToolResult,
    callId: string | undefined,
    tool: string,
    caller: Caller,
    started: number | undefined,
  ): ToolResult {
    // Built here, fresh and plain: freezing is enough.
    const final = deepFreeze(result)
    if (events.has('result')) {
      events.emit('result', {
        callId: callId ?? randomId('call_'),
        tool,
        caller,
        result: final,
        durationMs: started === undefined ? 0 : now() - started,
      })
    }
    return final
  }

  /** Steps 5–8, after the one hop that keeps a run out of tm.call's frame. */
  function proceed(
    flight: Flight,
    checked: Checked,
    signal: AbortSignal | undefined,
    started: number | undefined,
  ): ToolResult | Promise<ToolResult> {
    try {
      if ('result' in checked) return finish(checked.result, flight, started)
      if (signal?.aborted) return finish(cancelled('signal'), flight, started)
      return fly(flight, checked.value, signal, started)
    } catch (cause) {
      // The pipeline is written not to throw (a hostile proxy as input might still manage).
      return failed(flight.record.name, flight.caller, flight.callId, started, cause)
    }
  }

  /** Steps 5–8 with the flight listed for Stop and withdrawal until its result is out. */
  function fly(
    flight: Flight,
    value: unknown,
    signal: AbortSignal | undefined,
    started: number | undefined,
  ): ToolResult | Promise<ToolResult> {
    const { record, caller } = flight
    const onSignal = signal && (() => flight.abort('signal'))
    if (onSignal) signal.addEventListener('abort', onSignal, { once: true })
    flights.add(flight)
    let later = false
    try {
      // 5. Confirmation.
      if (needsConfirmation(record.cls, caller)) {
        const prepared = confirmFlow.prepare(record, value, flight.callId)
        if ('result' in prepared) return finish(prepared.result, flight, started)
        if (internals.confirmMode(caller) === 'deferred') {
          return finish(confirmFlow.deferred(flight, value, prepared), flight, started)
        }
        later = true
        const outcome = confirmFlow.inline(flight, value, prepared, (result) =>
          finish(result, flight, started),
        )
        return settleLater(flight, outcome, signal, onSignal, started, true)
      }
      // 6–8. Queue, run, normalize.
      const outcome = execute(flight, value)
      if (!isThenable(outcome)) return finish(outcome, flight, started)
      later = true
      return settleLater(flight, outcome, signal, onSignal, started, false)
    } finally {
      if (!later) land(flight, signal, onSignal)
    }
  }

  /**
   * The end of a call whose outcome is a promise: one await, then `finish` (unless the outcome
   * is `finished` already), then landing.
   */
  async function settleLater(
    flight: Flight,
    outcome: Promise<ToolResult>,
    signal: AbortSignal | undefined,
    onSignal: (() => void) | undefined,
    started: number | undefined,
    finished: boolean,
  ): Promise<ToolResult> {
    try {
      const result = await outcome
      return finished ? result : finish(result, flight, started)
    } catch (cause) {
      return failed(flight.record.name, flight.caller, flight.callId, started, cause)
    } finally {
      land(flight, signal, onSignal)
    }
  }

  /** The flight is over: off the list, and the caller's signal no longer reaches it. */
  function land(
    flight: Flight,
    signal: AbortSignal | undefined,
    onSignal: (() => void) | undefined,
  ) {
    flight.phase = 'done'
    flights.delete(flight)
    if (onSignal) signal!.removeEventListener('abort', onSignal)
  }

  /** What tm.call answers when the pipeline itself fails. */
  function failed(
    tool: string,
    caller: Caller,
    callId: string,
    started: number | undefined,
    cause: unknown,
  ): ToolResult {
    internals.errorEvent({
      code: 'internal_error',
      message: 'The call pipeline failed',
      callId,
      cause,
    })
    const result = toolFailed()
    events.emit('result', {
      callId,
      tool,
      caller,
      result,
      durationMs: started === undefined ? 0 : now() - started,
    })
    return result
  }

  /**
   * Steps 1–4 run synchronously inside tm.call, the rest after one hop. The clock is read only
   * when someone listens for `durationMs`, and the call id is minted only when someone reads it.
   */
  function call(name: unknown, input: unknown, callOptions: unknown): Promise<ToolResult> {
    const started = events.has('result') ? now() : undefined
    let flight: Flight | undefined
    let callId: string | undefined
    try {
      const co = (isObject(callOptions) ? callOptions : NO_OPTIONS) as CallOptions
      const given: unknown = co.caller
      const caller: unknown = given === undefined ? 'inapp' : given
      const record = typeof name === 'string' ? internals.tools.get(name) : undefined
      const knownCaller = isCaller(caller)
      if (record && knownCaller) flight = createFlight(undefined, record, caller, caller)
      // 1. Every call is seen, refused ones included. Redaction costs a walk: only for listeners.
      if (events.has('call')) {
        callId = flight ? flight.callId : randomId('call_')
        events.emit('call', {
          callId,
          tool: nameLabel(name),
          caller: (knownCaller ? caller : nameLabel(caller)) as Caller,
          input: redactValue(input, record?.sensitive ?? NO_SENSITIVE),
        })
      }
      if (callOptions !== undefined && callOptions !== null && !isObject(callOptions)) {
        const refused = refuse(
          'not_allowed',
          'tm.call() options must be an object like { caller: "inapp" }',
        )
        return flight
          ? Promise.resolve(finish(refused, flight, started))
          : Promise.resolve(
              finishEarly(refused, callId, nameLabel(name), caller as Caller, started),
            )
      }
      if (!knownCaller) {
        const label = nameLabel(caller)
        const refused = refuse('not_allowed', `Unknown caller ${JSON.stringify(label)}`)
        return Promise.resolve(
          finishEarly(refused, callId, nameLabel(name), label as Caller, started),
        )
      }
      // 2. Lookup.
      const access = record ? internals.access(record, caller) : 'hidden'
      if (!flight || access === 'hidden') {
        const rev = internals.rev()
        const label = nameLabel(name)
        const refused =
          typeof co.rev === 'number' && co.rev < rev
            ? refuse('stale', `Tool ${JSON.stringify(label)} is gone since revision ${co.rev}`, {
                rev,
              })
            : refuse('unknown_tool', `No tool named ${JSON.stringify(label)}`, { rev })
        return flight
          ? Promise.resolve(finish(refused, flight, started))
          : Promise.resolve(finishEarly(refused, callId, label, caller, started))
      }
      // 3. Policy, rate limit, an already-aborted signal.
      const refused = refusal(flight, access)
      if (refused) return Promise.resolve(finish(refused, flight, started))
      const signal = isAbortSignal(co.signal) ? co.signal : undefined
      if (signal?.aborted) return Promise.resolve(finish(cancelled('signal'), flight, started))

      // 4. Validation, synchronous when the schema is. The rest waits for one hop even then, so a
      // run never starts inside tm.call's frame.
      const checking = checkInput(flight.record, input, flight)
      const known = flight
      return Promise.resolve(checking).then((checked) => proceed(known, checked, signal, started))
    } catch (cause) {
      // The pipeline is written not to throw (a hostile proxy as input might still manage).
      let caller: Caller = 'inapp'
      try {
        const given = (callOptions as CallOptions | undefined)?.caller
        if (isCaller(given)) caller = given
      } catch {}
      const id = flight ? flight.callId : (callId ?? randomId('call_'))
      return Promise.resolve(failed(nameLabel(name), caller, id, started, cause))
    }
  }

  /** Step 3 for a visible tool: policy and the rate limit. */
  function refusal(flight: Flight, access: Access): ToolResult | undefined {
    const { record, caller } = flight
    if (access === 'denied') {
      return refuse('not_allowed', `Policy does not allow ${caller} to call "${record.name}"`)
    }
    if (access === 'no_presenter') {
      return refuse(
        'not_allowed',
        `"${record.name}" needs a person's confirmation and no one can see it now`,
      )
    }
    const rateLimit = internals.policyOf(caller).rateLimit
    if (rateLimit && !internals.rateLimiter.take(caller, rateLimit, now())) {
      return refuse('rate_limited', `Too many calls from ${caller}; wait and retry`)
    }
    return undefined
  }

  return {
    call,
    cancelAll(by) {
      for (const flight of flights.snapshot()) if (flight.caller !== 'human') flight.abort(by)
    },
    withdraw() {
      for (const flight of flights.snapshot()) {
        if (flight.phase !== 'queued') continue
        const access = internals.access(flight.record, flight.runAs)
        if (access === 'hidden' || access === 'denied') flight.abort('policy')
      }
      confirmFlow.withdraw()
    },
    dropTool: confirmFlow.dropTool,
  }
}
