import { callSeamOf, wrapRuns } from '../call/runWrappers'
import { reportError } from '../events/reportError'
import type { Consumer, ErrorEvent, ResultEvent, Toolmark } from '../types'
import { CallTracer, type ToolMeasure } from './callTracer'
import type {
  OtelAttributes,
  OtelContextApi,
  OtelCounter,
  OtelHistogram,
  OtelMeter,
  OtelTraceApi,
  OtelTracer,
} from './otelTypes'
import { errorTypeOf, executionAttributes, toolNames } from './toolSpans'

/** Options of `otel()`. */
export interface OtelOptions {
  /** The app's tracer: `trace.getTracer('my-app')` from `@opentelemetry/api`. */
  tracer: OtelTracer
  /**
   * The app's meter, for the call counter and the duration histograms (`toolmark.call.duration`,
   * and the conventions' `gen_ai.execute_tool.duration`). Default: no metrics.
   */
  meter?: OtelMeter
  /**
   * `context` from `@opentelemetry/api`, given with `trace`: each call's span is started under
   * the context active at `tm.call`, and the tool's `run` executes with its span active, so a
   * span the run starts is that span's child. Default: spans are started under whatever context
   * is active, and `run` executes in the caller's context.
   */
  context?: OtelContextApi
  /** `trace` from `@opentelemetry/api`, given with `context`. */
  trace?: OtelTraceApi
  /**
   * Puts the call's input and result on its span (`toolmark.input`, `toolmark.result`) as JSON,
   * and under the conventions' opt-in names too (`gen_ai.tool.call.arguments`, the input, and
   * `gen_ai.tool.call.result`, a successful run's data), all redacted the same way (the tool's
   * `sensitive` paths, then every secret-looking name such as `password`, `token`, `apiKey` or
   * `secret`, and credential headers such as `Authorization`, `Cookie`, `Set-Cookie`,
   * `X-Api-Key` or `X-Session-Id`), each cut to `maxLength` characters (default 1 024). Default
   * false: payloads may hold personal data, so they are recorded only when asked.
   */
  recordPayloads?: boolean | { maxLength?: number }
}

const DEFAULT_MAX_LENGTH = 1024

/** The checked options of `otel()`, with the payload settings resolved. */
interface OtelSettings {
  readonly tracer: OtelTracer
  readonly meter: OtelMeter | undefined
  /** The app's context and trace APIs, when both are given. */
  readonly api: { readonly context: OtelContextApi; readonly trace: OtelTraceApi } | undefined
  /** Where a recorded payload is cut; `undefined`: payloads are not recorded. */
  readonly maxLength: number | undefined
}

/** Checks what `otel()` is given (a wrong object throws at attach, naming the fix). */
function readOptions(options: OtelOptions): OtelSettings {
  const { tracer, meter, context, trace } = (options ?? {}) as Partial<OtelOptions>
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
  const given = context !== undefined || trace !== undefined
  if (
    given &&
    (typeof context?.with !== 'function' ||
      typeof context.active !== 'function' ||
      typeof trace?.setSpan !== 'function')
  ) {
    throw new TypeError(
      "otel({ context, trace }) takes both APIs of @opentelemetry/api: import { context, trace } from '@opentelemetry/api' and pass them, or leave both out",
    )
  }
  const record = options.recordPayloads
  const maxLength =
    record === undefined || record === false
      ? undefined
      : record === true
        ? DEFAULT_MAX_LENGTH
        : Math.max(16, record.maxLength ?? DEFAULT_MAX_LENGTH)
  const api = given ? { context: context!, trace: trace! } : undefined
  return { tracer, meter, api, maxLength }
}

/** Counts and times each result on the meter's instruments; does nothing without a meter. */
function callMeter(
  meter: OtelMeter | undefined,
): (event: ResultEvent, tool: string, thrown: string | undefined) => void {
  const counter: OtelCounter | undefined = meter?.createCounter('toolmark.calls', {
    description: 'Tool calls, by tool, caller and status',
    unit: '{call}',
  })
  const histogram: OtelHistogram | undefined = meter?.createHistogram('toolmark.call.duration', {
    description: 'Time from a tool call to its result, waiting on a person included',
    unit: 's',
  })
  return (event, tool, thrown) => {
    if (!meter) return
    const attributes: OtelAttributes = {
      'toolmark.tool': tool,
      'toolmark.caller': event.caller,
      'toolmark.status': event.result.status,
    }
    const errorType = errorTypeOf(event.result, thrown)
    if (errorType !== undefined) attributes['error.type'] = errorType
    counter?.add(1, attributes)
    histogram?.record(event.durationMs / 1000, attributes)
  }
}

/**
 * Bucket boundaries the conventions advise for `gen_ai.execute_tool.duration`, in seconds: an SDK
 * that takes advice uses them unless a view of the app says otherwise.
 */
const EXECUTION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
]

/**
 * Times each tool span that ends with a result on the conventions' `gen_ai.execute_tool.duration`
 * histogram; `undefined` without a meter.
 */
function executionMeter(meter: OtelMeter | undefined): ToolMeasure | undefined {
  const histogram = meter?.createHistogram('gen_ai.execute_tool.duration', {
    description: 'Duration of a single tool execution',
    unit: 's',
    advice: { explicitBucketBoundaries: EXECUTION_BUCKETS },
  })
  if (!histogram) return undefined
  return (tool, seconds, errorType) =>
    histogram.record(seconds, executionAttributes(tool, errorType))
}

/**
 * Traces and measures every call with OpenTelemetry, after its GenAI conventions for tool
 * execution: one span per call (`execute_tool <tool>`, kind `INTERNAL`, from the call to its
 * result, with `gen_ai.*` attributes, `error.type` on failures and span events while a person
 * decides), a call counter (`toolmark.calls`) and a duration histogram (`toolmark.call.duration`,
 * seconds) by tool, caller and status, and the conventions' `gen_ai.execute_tool.duration`
 * histogram (seconds) of every `execute_tool` span, by tool and `error.type`. A name no tool has is recorded as `_OTHER`, so names an
 * agent makes up stay one value. The app passes its own `@opentelemetry/api` objects; core
 * imports none. Given `context` and `trace`, the tool's `run` executes with the call's span
 * active, so the spans it starts are the call's children.
 *
 * No span is left open: every call ends with one `result` event (cancelled, abandoned after the
 * abort grace, or withdrawn when its tool unmounts included), and detaching ends what is still
 * open with `toolmark.status` `detached`. A deferred confirmation gets a span of its own,
 * `toolmark.confirmation <tool>`, under the asking call's span and linked to it, from the request
 * to the person's answer; the approved run is an `execute_tool <tool>` span of `human` under it,
 * linked to the asking span too.
 *
 * @example
 * import { context, metrics, trace } from '@opentelemetry/api'
 * tm.use(
 *   otel({ tracer: trace.getTracer('helpdesk'), meter: metrics.getMeter('helpdesk'), context, trace }),
 * )
 */
export function otel(options: OtelOptions): Consumer {
  return (tm: Toolmark) => {
    const { tracer, meter, api, maxLength } = readOptions(options)
    const measure = callMeter(meter)
    const seam = callSeamOf(tm)
    const report = (event: ErrorEvent) => reportError(tm, event)
    const toolName = toolNames(tm, seam)
    const measureExecution = executionMeter(meter)
    const spans = new CallTracer({
      tracer,
      api,
      maxLength,
      seam,
      report,
      toolName,
      measure: measureExecution,
    })
    const off = [
      tm.events.on('call', (event) => spans.call(event)),
      tm.events.on('result', (event) => {
        measure(event, spans.toolOf(event), spans.thrownBy(event.callId))
        spans.result(event)
      }),
      tm.events.on('error', (event) => spans.error(event)),
      tm.events.on('confirm', (event) => spans.confirm(event)),
      tm.events.on('progress', (event) => spans.progress(event)),
    ]
    const unwrap = seam && wrapRuns(seam, spans.wrapRun)
    return () => {
      unwrap?.()
      for (const stop of off) stop()
      spans.detach()
    }
  }
}
