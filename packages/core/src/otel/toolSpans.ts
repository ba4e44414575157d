import type { CallSeam } from '../call/runWrappers'
import { maskSensitiveNames } from '../redaction/sensitiveNames'
import type { Caller, ConfirmStatus, ErrorEvent, ToolResult, Toolmark } from '../types'
import type { OtelAttributes, OtelSpan } from './otelTypes'

/**
 * What a tool span says, after the OpenTelemetry GenAI conventions for tool execution: the
 * `gen_ai.*` attributes they name, `error.type` on failures, and Toolmark's own under
 * `toolmark.*`.
 */

/** `SpanKind.INTERNAL`: a tool runs in the app's own process. */
export const INTERNAL = 0
/** `SpanStatusCode.ERROR`. */
const ERROR = 2
/** `error.type` when nothing names the failure better (the conventions' fallback). */
const OTHER = '_OTHER'

/**
 * The tool name recorded for a name no tool has when it is called (as the conventions' `_OTHER`
 * for a method they do not know): names an agent makes up, one or five hundred, are one value of
 * the metrics' and spans' attributes and one span name, so they cannot grow cardinality.
 */
export const UNKNOWN_TOOL = OTHER

/**
 * What telemetry names a called tool: its name when a tool of that name is registered, else
 * `UNKNOWN_TOOL`. A registry made elsewhere (no seam) is asked through `describe`.
 */
export function toolNames(tm: Toolmark, seam: CallSeam | undefined): (tool: string) => string {
  const known = (tool: string): boolean => {
    if (seam) return seam.tools.has(tool)
    try {
      return tm.describe(tool, { caller: 'human' }) !== undefined
    } catch {
      return false
    }
  }
  return (tool) => (known(tool) ? tool : UNKNOWN_TOOL)
}

/** How a person's decision ended, as span events and attributes name it. */
export type Outcome = 'approved' | 'rejected' | 'expired' | 'withdrawn' | 'cancelled'

/** The span name of a tool's execution. */
export const toolSpanName = (tool: string): string => `execute_tool ${tool}`

/**
 * How a decision ended, as the span names it: the confirmation's final status, a withdrawal
 * split by who withdrew it (access went away: `withdrawn`; the waiting call's signal:
 * `cancelled`), an eviction read as the expiry it is to the waiting call.
 */
export function outcomeOf(
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
export function payload(value: unknown, maxLength: number): string {
  let text: string
  try {
    text = JSON.stringify(maskSensitiveNames(value)) ?? 'undefined'
  } catch {
    text = '[unserializable]'
  }
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text
}

/**
 * The `gen_ai.tool.type` of every tool: Toolmark's tools are functions the app itself runs, on
 * the agent's parameters.
 */
const TOOL_TYPE = 'function'

/** The attributes a tool span starts with. */
export function toolAttributes(
  callId: string,
  tool: string,
  caller: Caller,
  description: string | undefined,
): OtelAttributes {
  const out: OtelAttributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
    'gen_ai.tool.call.id': callId,
    'gen_ai.tool.type': TOOL_TYPE,
    'toolmark.tool': tool,
    'toolmark.caller': caller,
    'toolmark.call_id': callId,
  }
  if (description !== undefined) out['gen_ai.tool.description'] = description
  return out
}

/**
 * What an `error` event about a call says of the failure: for something thrown (`tool_threw`,
 * `validator_threw`, `internal_error`…) that is an `Error`, its class (`TypeError`, the app's own
 * `PaymentError`); else the event's code (`tool_threw` for a thrown string, `invalid_result`…).
 */
export function thrownType(event: ErrorEvent): string {
  if (!event.code.endsWith('_threw') && event.code !== 'internal_error') return event.code
  try {
    const cause = event.cause
    if (cause instanceof Error) {
      const made: unknown = cause.constructor
      if (typeof made === 'function' && made.name !== '') return made.name
      return cause.name
    }
  } catch {
    // A cause whose constructor cannot be read is named by the event's code.
  }
  return event.code
}

/**
 * `error.type` of a result, set on failures only: a refusal's code, `invalid`, or for an error
 * what the call threw (`thrown`), else `_OTHER`. Success, a pending confirmation and a
 * cancellation (someone stopped the call) are no failures.
 */
export function errorTypeOf(result: ToolResult, thrown: string | undefined): string | undefined {
  switch (result.status) {
    case 'refused':
      return result.code
    case 'invalid':
      return 'invalid'
    case 'error':
      return thrown ?? OTHER
    default:
      return undefined
  }
}

/** The attributes a result adds to its span and its measurements. */
export function resultAttributes(
  result: ToolResult,
  errorType: string | undefined,
): OtelAttributes {
  const out: OtelAttributes = { 'toolmark.status': result.status }
  if (errorType !== undefined) out['error.type'] = errorType
  if (result.status === 'refused') out['toolmark.refused.code'] = result.code
  if (result.status === 'cancelled') out['toolmark.cancelled.by'] = result.by
  return out
}

/**
 * The attributes of a tool execution's `gen_ai.execute_tool.duration` measurement, as the
 * conventions list them for it: the tool, its type, and `error.type` on a failure.
 */
export function executionAttributes(tool: string, errorType: string | undefined): OtelAttributes {
  const out: OtelAttributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
    'gen_ai.tool.type': TOOL_TYPE,
  }
  if (errorType !== undefined) out['error.type'] = errorType
  return out
}

/** How a tool span ends. */
export interface SpanEnd {
  readonly result: ToolResult
  /** What the call threw, when an `error` event said (`thrownType`). */
  readonly thrown: string | undefined
  readonly durationMs: number
  /** Milliseconds since the epoch. */
  readonly endTime: number
  /** How the person's decision ended, when one was asked inline. */
  readonly outcome?: Outcome
  /** Where the recorded result is cut; `undefined`: no result recorded. */
  readonly maxLength: number | undefined
}

/**
 * Ends a tool span with its result: how the person's decision ended (when known), the result's
 * attributes, the result itself when `maxLength` is given (`toolmark.result`, and a successful
 * run's data as the conventions' `gen_ai.tool.call.result`), and an error status on a failure.
 * Returns the span's `error.type`, for its measurement.
 */
export function endToolSpan(span: OtelSpan, end: SpanEnd): string | undefined {
  const { result, outcome, maxLength, endTime } = end
  if (outcome) {
    span.addEvent(`toolmark.confirmation.${outcome}`, {}, endTime)
    span.setAttribute('toolmark.confirmation', outcome)
  }
  const errorType = errorTypeOf(result, end.thrown)
  const attributes = resultAttributes(result, errorType)
  for (const [key, value] of Object.entries(attributes)) span.setAttribute(key, value)
  span.setAttribute('toolmark.duration', end.durationMs / 1000)
  if (maxLength !== undefined) {
    span.setAttribute('toolmark.result', payload(result, maxLength))
    // The conventions' result is what a successful run returned: its data, redacted the same way.
    if (result.status === 'ok') {
      span.setAttribute('gen_ai.tool.call.result', payload(result.data, maxLength))
    }
  }
  if (errorType !== undefined) {
    // An error's message is generic already; a refusal's may quote the app's data: its code only.
    const message = result.status === 'error' ? result.message : errorType
    span.setStatus({ code: ERROR, message })
  }
  span.end(endTime)
  return errorType
}
