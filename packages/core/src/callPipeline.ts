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
  type RegistryInternals,
  type ToolRecord,
} from './internals'
import { nameLabel } from './names'
import { needsConfirmation } from './policy'
import { compileSensitive, redactValue } from './redact'
import { cancelled, invalid, refuse, toolFailed } from './results'
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

export function createCallPipeline(
  internals: RegistryInternals,
  journal: UndoJournal,
): CallPipeline {
  const { events, flights } = internals

  /** Step 4; synchronous when the schema is. */
  function checkInput(
    record: ToolRecord,
    input: unknown,
    callId: string,
  ): Checked | Promise<Checked> {
    const schema = record.def.input
    if (!schema) {
      // Such a tool's run receives `undefined` as its input.
      if (input === undefined || (isPlainObject(input) && Object.keys(input).length === 0)) {
        return { value: undefined }
      }
      return { result: invalid([{ path: '', message: 'This tool takes no input: send {}' }]) }
    }
    const threw = (cause: unknown): Checked => {
      internals.errorEvent({
        code: 'validator_threw',
        message: `The input schema of "${record.name}" threw while validating`,
        tool: record.name,
        callId,
        cause,
      })
      return { result: toolFailed() }
    }
    const conclude = (checked: Validated<unknown>): Checked =>
      'issues' in checked ? { result: invalid(checked.issues) } : checked
    try {
      const checked = validateWith(schema, input)
      return isThenable(checked)
        ? Promise.resolve(checked).then(conclude, threw)
        : conclude(checked)
    } catch (cause) {
      return threw(cause)
    }
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

  async function pipeline(
    callId: string,
    started: number | undefined,
    name: unknown,
    input: unknown,
    callOptions: unknown,
  ): Promise<ToolResult> {
    const co = (isObject(callOptions) ? callOptions : {}) as CallOptions
    const caller: unknown = co.caller === undefined ? 'inapp' : co.caller
    const label = nameLabel(name)
    const record = typeof name === 'string' ? internals.tools.get(name) : undefined
    const eventCaller = (isCaller(caller) ? caller : nameLabel(caller)) as Caller
    // 1. Every call is seen, refused ones included. Redaction costs a walk: only for listeners.
    if (events.has('call')) {
      events.emit('call', {
        callId,
        tool: label,
        caller: eventCaller,
        input: redactValue(input, record?.sensitive ?? NO_SENSITIVE),
      })
    }
    const finish = (result: ToolResult): ToolResult => {
      // Results built here are fresh and plain; a tool's own result was normalized on the way.
      const final = Object.isFrozen(result) ? result : internals.normalize(result, record, callId)
      if (events.has('result')) {
        events.emit('result', {
          callId,
          tool: label,
          caller: eventCaller,
          result: final,
          durationMs: started === undefined ? 0 : now() - started,
        })
      }
      return final
    }

    if (callOptions !== undefined && callOptions !== null && !isObject(callOptions)) {
      return finish(
        refuse('not_allowed', 'tm.call() options must be an object like { caller: "inapp" }'),
      )
    }
    if (!isCaller(caller)) {
      return finish(refuse('not_allowed', `Unknown caller ${JSON.stringify(eventCaller)}`))
    }
    // 2. Lookup.
    const access = record ? internals.access(record, caller) : 'hidden'
    if (!record || access === 'hidden') {
      const rev = internals.rev()
      return finish(
        typeof co.rev === 'number' && co.rev < rev
          ? refuse('stale', `Tool ${JSON.stringify(label)} is gone since revision ${co.rev}`, {
              rev,
            })
          : refuse('unknown_tool', `No tool named ${JSON.stringify(label)}`, { rev }),
      )
    }
    // 3. Policy, rate limit, an already-aborted signal.
    if (access === 'denied') {
      return finish(
        refuse('not_allowed', `Policy does not allow ${caller} to call "${record.name}"`),
      )
    }
    if (access === 'no_presenter') {
      return finish(
        refuse(
          'not_allowed',
          `"${record.name}" needs a person's confirmation and no one can see it now`,
        ),
      )
    }
    const rateLimit = internals.policyOf(caller).rateLimit
    if (rateLimit && !internals.rateLimiter.take(caller, rateLimit, now())) {
      return finish(refuse('rate_limited', `Too many calls from ${caller}; wait and retry`))
    }
    const signal = isAbortSignal(co.signal) ? co.signal : undefined
    if (signal?.aborted) return finish(cancelled('signal'))

    // 4. Validation. Awaited even when synchronous, so a run never starts inside tm.call's frame.
    const checked = await checkInput(record, input, callId)
    if ('result' in checked) return finish(checked.result)
    if (signal?.aborted) return finish(cancelled('signal'))

    const flight = createFlight(callId, record, caller, caller)
    const onSignal = () => flight.abort('signal')
    signal?.addEventListener('abort', onSignal, { once: true })
    flights.add(flight)
    try {
      // 5. Confirmation.
      if (needsConfirmation(record.cls, caller)) {
        const prepared = confirmFlow.prepare(record, checked.value, callId)
        if ('result' in prepared) return finish(prepared.result)
        if (internals.confirmMode(caller) === 'deferred') {
          return finish(confirmFlow.deferred(flight, checked.value, prepared))
        }
        return await confirmFlow.inline(flight, checked.value, prepared, finish)
      }
      // 6–8. Queue, run, normalize.
      const outcome = execute(flight, checked.value)
      return finish(isThenable(outcome) ? await outcome : outcome)
    } finally {
      flight.phase = 'done'
      flights.delete(flight)
      signal?.removeEventListener('abort', onSignal)
    }
  }

  return {
    async call(name, input, options) {
      // The clock is read only when someone listens for durationMs.
      const started = events.has('result') ? now() : undefined
      const callId = randomId('call_')
      try {
        return await pipeline(callId, started, name, input, options)
      } catch (cause) {
        // The pipeline is written not to throw (a hostile proxy as input might still manage).
        internals.errorEvent({
          code: 'internal_error',
          message: 'The call pipeline failed',
          callId,
          cause,
        })
        const result = toolFailed()
        let caller: Caller = 'inapp'
        try {
          const given = (options as CallOptions | undefined)?.caller
          if (isCaller(given)) caller = given
        } catch {}
        events.emit('result', {
          callId,
          tool: nameLabel(name),
          caller,
          result,
          durationMs: started === undefined ? 0 : now() - started,
        })
        return result
      }
    },
    cancelAll(by) {
      for (const flight of [...flights]) if (flight.caller !== 'human') flight.abort(by)
    },
    withdraw() {
      for (const flight of [...flights]) {
        if (flight.phase !== 'queued') continue
        const access = internals.access(flight.record, flight.runAs)
        if (access === 'hidden' || access === 'denied') flight.abort('policy')
      }
      confirmFlow.withdraw()
    },
    dropTool: confirmFlow.dropTool,
  }
}
