/**
 * `@toolmark/core/otel` — OpenTelemetry traces and metrics for every call. The app passes its
 * own `@opentelemetry/api` tracer and meter; this entry imports nothing.
 */
export { otel } from './otel'
export type { OtelOptions } from './otel'
export type {
  OtelAttributes,
  OtelAttributeValue,
  OtelCounter,
  OtelHistogram,
  OtelMeter,
  OtelSpan,
  OtelSpanContext,
  OtelSpanOptions,
  OtelTracer,
} from './otelTypes'
