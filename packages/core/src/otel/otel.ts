import { maskSensitiveNames } from '../redaction/sensitiveNames'
import type { ConfirmStatus, Consumer, ResultEvent, ToolResult, Toolmark } from '../types'
import type {
  OtelAttributes,
  OtelCounter,
  OtelHistogram,
  OtelMeter,
  OtelSpan,
  OtelTracer,
} from './otelTypes'

/** Options of `otel()`. */
export interface OtelOptions {
  /** The app's tracer: `trace.getTracer('my-app')` from `@opentelemetry/api`. */
  tracer: OtelTracer
  /** The app's meter, for the call counter and the duration histogram. Default: no metrics. */
  meter?: OtelMeter
  /**
   * Puts the call's input and result on its span (`toolmark.input`, `toolmark.result`) as JSON,
   * both redacted the same way (the tool's `sensitive` paths, then every secret-looking name such
   * as `password`, `token`, `apiKey` or `secret`), each cut to `maxLength` characters (default
   * 1 024). Default false: payloads may hold personal
   * data, so they are recorded only when asked.
   */
  recordPayloads?: boolean | { maxLength?: number }
}

/** How a person's decision ended, as span events and attributes name it. */
type Outcome = 'approved' | 'rejected' | 'expired' | 'withdrawn' | 'cancelled'

/** A call span that is still open. */
interface OpenCall {
  readonly span: OtelSpan
  /** The inline confirmation the call waits on, until its end is known. */
  confirming?: string
  /** The result, when it came before the confirmation's end (inline confirmations do). */
  held?: { event: ResultEvent; at: number; timer: ReturnType<typeof setTimeout> }
}

const ERROR = 2
const DEFAULT_MAX_LENGTH = 1024

/**
 * How a decision ended, as the span names it: the confirmation's final status, a withdrawal
 * split by who withdrew it (access went away: `withdrawn`; the waiting call's signal:
 * `cancelled`), an eviction read as the expiry it is to the waiting call.
 */
function outcomeOf(
  status: Exclude<ConfirmStatus, 'pending'>,
  result: ToolResult | undefined,
): Outcome {
  if (status === 'evicted') return 'expired'
  if (status === 'withdrawn') {
    return result?.status === 'cancelled' && result.by === 'policy' ? 'withdrawn' : 'cancelled'
  }
  return status
}

/**
 * A payload as a span attribute: one redaction for inputs and results alike (whatever the tool
 * declared sensitive is already `[redacted]`, and every secret-looking name is masked on top),
 * as JSON cut to `maxLength` characters.
 */
function payload(value: unknown, maxLength: number): string {
  let text: string
  try {
    text = JSON.stringify(maskSensitiveNames(value)) ?? 'undefined'
  } catch {
    text = '[unserializable]'
  }
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text
}

/** The attributes a result adds to its span and its measurements. */
function resultAttributes(result: ToolResult): OtelAttributes {
  const out: OtelAttributes = { 'toolmark.status': result.status }
  if (result.status === 'refused') out['toolmark.refused.code'] = result.code
  if (result.status === 'cancelled') out['toolmark.cancelled.by'] = result.by
  return out
}

/** The checked options of `otel()`, with the payload settings resolved. */
interface OtelSettings {
  readonly tracer: OtelTracer
  readonly meter: OtelMeter | undefined
  /** Whether inputs and results go on spans. */
  readonly payloads: boolean
  /** Where a recorded payload is cut. */
  readonly maxLength: number
}

/** Checks the tracer and meter (a wrong one throws at attach, naming the fix). */
function readOptions(options: OtelOptions): OtelSettings {
  const { tracer, meter } = (options ?? {}) as Partial<OtelOptions>
  if (typeof tracer?.startSpan !== 'function') {
    throw new TypeError(
      "otel({ tracer }) needs an OpenTelemetry tracer: pass trace.getTracer('my-app') from @opentelemetry/api",
    )
  }
  if (meter !== undefined && typeof meter?.createCounter !== 'function') {
    throw new TypeError(
      "otel({ meter }) must be an OpenTelemetry meter: pass metrics.getMeter('my-app') from @opentelemetry/api, or leave it out",
    )
  }
  const record = options.recordPayloads
  const maxLength =
    record === true || record === undefined || record === false
      ? DEFAULT_MAX_LENGTH
      : Math.max(16, record.maxLength ?? DEFAULT_MAX_LENGTH)
  return { tracer, meter, payloads: record !== undefined && record !== false, maxLength }
}

/** Counts and times each result on the meter's instruments; does nothing without a meter. */
function callMeter(meter: OtelMeter | undefined): (event: ResultEvent) => void {
  const counter: OtelCounter | undefined = meter?.createCounter('toolmark.calls', {
    description: 'Tool calls, by tool, caller and status',
    unit: '{call}',
  })
  const histogram: OtelHistogram | undefined = meter?.createHistogram('toolmark.call.duration', {
    description: 'Time from a tool call to its result, waiting on a person included',
    unit: 'ms',
  })
  return (event) => {
    const attributes: OtelAttributes = {
      'toolmark.tool': event.tool,
      'toolmark.caller': event.caller,
      'toolmark.status': event.result.status,
    }
    counter?.add(1, attributes)
    histogram?.record(event.durationMs, attributes)
  }
}

/**
 * Ends a call's span with its result: how the person's decision ended (when known), the
 * result's attributes, the result itself when `maxLength` is given, and an error status.
 */
function endCallSpan(
  span: OtelSpan,
  event: ResultEvent,
  endTime: number,
  outcome: Outcome | undefined,
  maxLength: number | undefined,
): void {
  if (outcome) {
    span.addEvent(`toolmark.confirmation.${outcome}`, {}, endTime)
    span.setAttribute('toolmark.confirmation', outcome)
  }
  const attributes = resultAttributes(event.result)
  for (const [key, value] of Object.entries(attributes)) span.setAttribute(key, value)
  span.setAttribute('toolmark.duration_ms', event.durationMs)
  if (maxLength !== undefined) {
    span.setAttribute('toolmark.result', payload(event.result, maxLength))
  }
  if (event.result.status === 'error') {
    span.setStatus({ code: ERROR, message: event.result.message })
  }
  span.end(endTime)
}

/**
 * Traces and measures every call with OpenTelemetry: one span per call (`toolmark.call <tool>`,
 * from the call to its result, with span events while a person decides), a call counter
 * (`toolmark.calls`) and a duration histogram (`toolmark.call.duration`, ms) by tool, caller and
 * status. The app passes its own `@opentelemetry/api` tracer and meter; core imports none.
 *
 * No span is left open: every call ends with one `result` event (cancelled, abandoned after the
 * abort grace, or withdrawn when its tool unmounts included), and detaching ends what is still
 * open with `toolmark.status` `detached`. A deferred confirmation gets a span of its own,
 * `toolmark.confirmation <tool>`, linked to the call's, from the request to the person's answer;
 * the approved run is traced as a call of `human`.
 *
 * @example
 * import { metrics, trace } from '@opentelemetry/api'
 * tm.use(otel({ tracer: trace.getTracer('helpdesk'), meter: metrics.getMeter('helpdesk') }))
 */
export function otel(options: OtelOptions): Consumer {
  return (tm: Toolmark) => {
    const { tracer, meter, payloads, maxLength } = readOptions(options)
    const measure = callMeter(meter)

    const open = new Map<string, OpenCall>()
    /** Spans of deferred confirmations, by confirmation id. */
    const deciding = new Map<string, OtelSpan>()

    const finish = (
      state: OpenCall,
      event: ResultEvent,
      endTime: number,
      outcome: Outcome | undefined,
    ) => endCallSpan(state.span, event, endTime, outcome, payloads ? maxLength : undefined)

    const offCall = tm.events.on('call', (event) => {
      const attributes: OtelAttributes = {
        'toolmark.tool': event.tool,
        'toolmark.caller': event.caller,
        'toolmark.call_id': event.callId,
      }
      if (payloads) attributes['toolmark.input'] = payload(event.input, maxLength)
      open.set(event.callId, {
        span: tracer.startSpan(`toolmark.call ${event.tool}`, { attributes }),
      })
    })

    const offResult = tm.events.on('result', (event) => {
      measure(event)
      const at = Date.now()
      const state = open.get(event.callId)
      if (!state) {
        // A call begun before this was attached: its span is drawn from its duration.
        const span = tracer.startSpan(`toolmark.call ${event.tool}`, {
          startTime: at - event.durationMs,
          attributes: {
            'toolmark.tool': event.tool,
            'toolmark.caller': event.caller,
            'toolmark.call_id': event.callId,
          },
        })
        finish({ span }, event, at, undefined)
        return
      }
      if (state.confirming !== undefined) {
        // An inline confirmation announces its end just after the call's result: wait for it,
        // so the span says how the person's decision ended. A macrotask at most; a span whose
        // confirmation never said (the registry was torn down) ends without an outcome.
        const timer = setTimeout(() => {
          if (open.get(event.callId) !== state) return
          open.delete(event.callId)
          finish(state, event, at, undefined)
        }, 0)
        state.held = { event, at, timer }
        return
      }
      open.delete(event.callId)
      finish(state, event, at, undefined)
    })

    const offConfirm = tm.events.on('confirm', ({ status, entry, result }) => {
      const state = open.get(entry.callId)
      if (status === 'pending') {
        state?.span.addEvent('toolmark.confirmation.requested', {
          'toolmark.confirm_id': entry.id,
          'toolmark.confirmation.mode': entry.mode,
        })
        if (entry.mode === 'inline') {
          if (state) state.confirming = entry.id
          return
        }
        const links = state ? [{ context: state.span.spanContext() }] : []
        deciding.set(
          entry.id,
          tracer.startSpan(`toolmark.confirmation ${entry.tool}`, {
            attributes: {
              'toolmark.tool': entry.tool,
              'toolmark.caller': entry.caller,
              'toolmark.call_id': entry.callId,
              'toolmark.confirm_id': entry.id,
            },
            links,
          }),
        )
        return
      }
      const outcome = outcomeOf(status, result)
      const span = deciding.get(entry.id)
      if (span) {
        deciding.delete(entry.id)
        span.setAttribute('toolmark.confirmation', outcome)
        if (result) span.setAttribute('toolmark.status', result.status)
        span.end()
        return
      }
      if (!state || state.confirming !== entry.id) return
      state.confirming = undefined
      if (state.held) {
        clearTimeout(state.held.timer)
        open.delete(entry.callId)
        finish(state, state.held.event, state.held.at, outcome)
        return
      }
      state.span.addEvent(`toolmark.confirmation.${outcome}`)
    })

    const offProgress = tm.events.on('progress', (event) => {
      const attributes: OtelAttributes = { 'toolmark.progress.done': event.done }
      if (event.total !== undefined) attributes['toolmark.progress.total'] = event.total
      open.get(event.callId)?.span.addEvent('toolmark.progress', attributes)
    })

    return () => {
      offCall()
      offResult()
      offConfirm()
      offProgress()
      for (const state of open.values()) {
        if (state.held) {
          clearTimeout(state.held.timer)
          finish(state, state.held.event, state.held.at, undefined)
          continue
        }
        state.span.setAttribute('toolmark.status', 'detached')
        state.span.end()
      }
      open.clear()
      for (const span of deciding.values()) {
        span.setAttribute('toolmark.confirmation', 'detached')
        span.end()
      }
      deciding.clear()
    }
  }
}
