/**
 * `@toolmark/core/otel` — OpenTelemetry traces and metrics for every call, after the GenAI
 * conventions for tool execution. The app passes its own `@opentelemetry/api` tracer, meter and
 * context and trace APIs; this entry imports nothing.
 */
export { otel } from './otel'
export type { OtelOptions } from './otel'
export type {
  OtelAttributes,
  OtelAttributeValue,
  OtelContext,
  OtelContextApi,
  OtelCounter,
  OtelHistogram,
  OtelMeter,
  OtelSpan,
  OtelSpanContext,
  OtelSpanOptions,
  OtelTraceApi,
  OtelTracer,
} from './otelTypes'
