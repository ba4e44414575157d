/**
 * The parts of `@opentelemetry/api` that `otel()` uses, described by shape: an app passes its own
 * tracer and meter (`trace.getTracer('app')`, `metrics.getMeter('app')`) and its `context` and
 * `trace` APIs, so core keeps zero runtime dependencies. Any OpenTelemetry API 1.x object fits.
 */

/** An attribute value, as OpenTelemetry accepts it. */
export type OtelAttributeValue = string | number | boolean

/** Attributes of a span, a span event or a measurement. */
export type OtelAttributes = Record<string, OtelAttributeValue>

/** A span context, for links between spans. */
export interface OtelSpanContext {
  traceId: string
  spanId: string
  traceFlags: number
}

/** A live span. */
export interface OtelSpan {
  setAttribute(key: string, value: OtelAttributeValue): unknown
  addEvent(name: string, attributes?: OtelAttributes, time?: number): unknown
  /** `code`: 0 unset, 1 ok, 2 error (OpenTelemetry's `SpanStatusCode`). */
  setStatus(status: { code: number; message?: string }): unknown
  end(endTime?: number): void
  spanContext(): OtelSpanContext
}

/** What `otel()` passes when it starts a span. */
export interface OtelSpanOptions {
  /** OpenTelemetry's `SpanKind`: `otel()` starts every span as 0, `INTERNAL`. */
  kind?: number
  attributes?: OtelAttributes
  /** Milliseconds since the epoch. */
  startTime?: number
  links?: { context: OtelSpanContext; attributes?: OtelAttributes }[]
}

/** A tracer (`trace.getTracer(name)`). */
export interface OtelTracer {
  /** `context`: the parent's; without one the tracer uses the active context. */
  startSpan(name: string, options?: OtelSpanOptions, context?: OtelContext): OtelSpan
}

/** A context (an immutable map of values, the active span among them). */
export interface OtelContext {
  getValue(key: symbol): unknown
}

/** The context API: `context` from `@opentelemetry/api`. */
export interface OtelContextApi {
  /** The context in effect now. */
  active(): OtelContext
  /** Calls `fn` with `context` active. */
  with<T>(context: OtelContext, fn: () => T): T
}

/** The trace API: `trace` from `@opentelemetry/api`. */
export interface OtelTraceApi {
  /** `context` with `span` as its active span. */
  setSpan(context: OtelContext, span: OtelSpan): OtelContext
}

/** A counter instrument. */
export interface OtelCounter {
  add(value: number, attributes?: OtelAttributes): void
}

/** A histogram instrument. */
export interface OtelHistogram {
  record(value: number, attributes?: OtelAttributes): void
}

/** A meter (`metrics.getMeter(name)`). */
export interface OtelMeter {
  createCounter(name: string, options?: { description?: string; unit?: string }): OtelCounter
  createHistogram(
    name: string,
    options?: {
      description?: string
      unit?: string
      /** Bucket boundaries the conventions advise (an API without advice ignores it). */
      advice?: { explicitBucketBoundaries?: number[] }
    },
  ): OtelHistogram
}
