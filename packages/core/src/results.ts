import type { CancelledBy, FieldChange, ResultIssue, ToolResult } from './types'

/** The tool did its job; `data` is its output. */
export function ok<T>(data: T): ToolResult<T> {
  return { status: 'ok', data }
}

/** The input (or the tool's own checks) failed; the agent should fix `issues[].path` and retry. */
export function invalid(issues: ResultIssue[]): ToolResult<never> {
  return { status: 'invalid', issues }
}

/** The call did not run; `code` says why. */
export function refuse(
  code: string,
  message: string,
  options?: { rev?: number },
): ToolResult<never> {
  return options?.rev === undefined
    ? { status: 'refused', code, message }
    : { status: 'refused', code, message, rev: options.rev }
}

/** Stopped by a person (`operator`), an aborted signal (`signal`) or the app's rules (`policy`). */
export function cancelled(by: CancelledBy): ToolResult<never> {
  return { status: 'cancelled', by }
}

/** The tool failed. Keep the message generic: details belong in `error` events. */
export function errorResult(message: string): ToolResult<never> {
  return { status: 'error', message }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

const isIssue = (value: unknown): value is ResultIssue =>
  isPlainObject(value) && typeof value.path === 'string' && typeof value.message === 'string'

const isChange = (value: unknown): value is FieldChange =>
  isPlainObject(value) && typeof value.path === 'string'

/** Whether `value` is a well-formed `ToolResult` of one of the six statuses. */
export function isToolResult(value: unknown): value is ToolResult {
  if (!isPlainObject(value)) return false
  switch (value.status) {
    case 'ok':
      return 'data' in value
    case 'invalid':
      return Array.isArray(value.issues) && value.issues.every(isIssue)
    case 'refused':
      return (
        typeof value.code === 'string' &&
        typeof value.message === 'string' &&
        (value.rev === undefined || (typeof value.rev === 'number' && Number.isInteger(value.rev)))
      )
    case 'needs_confirmation':
      return (
        typeof value.confirmId === 'string' &&
        typeof value.summary === 'string' &&
        (value.changes === undefined ||
          (Array.isArray(value.changes) && value.changes.every(isChange)))
      )
    case 'cancelled':
      return value.by === 'operator' || value.by === 'signal' || value.by === 'policy'
    case 'error':
      return typeof value.message === 'string'
    default:
      return false
  }
}

/** Freezes an object graph in place (the caller owns it: only call on fresh clones). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Reflect.ownKeys(value as object)) {
      deepFreeze((value as Record<PropertyKey, unknown>)[key])
    }
  }
  return value
}

const NOT_SERIALIZABLE = deepFreeze(errorResult('Result not serializable'))
const TOOL_FAILED = deepFreeze(errorResult('Tool failed'))

/** The frozen "Result not serializable" error. */
export function notSerializable(): ToolResult {
  return NOT_SERIALIZABLE
}

/** The frozen "Tool failed" error: what a thrown exception or a malformed result becomes. */
export function toolFailed(): ToolResult {
  return TOOL_FAILED
}

const NOT_PLAIN = Symbol('not plain')
const PLAIN_COPY_NODES = 2_000

/**
 * The common case, fast: plain objects, arrays and primitives, copied and frozen in one pass.
 * Anything else (a Date, a Map, a class instance, a cycle, a very large or deep graph, a
 * `__proto__` key) answers `NOT_PLAIN` and goes through `structuredClone`, which has the final
 * say on what can be cloned. A getter that throws throws here as it would there.
 */
function frozenPlainCopy(value: unknown, depth: number, budget: { nodes: number }): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' ? NOT_PLAIN : value
  }
  if (--budget.nodes < 0 || depth > 32) return NOT_PLAIN
  const proto = Object.getPrototypeOf(value)
  if (proto === Array.prototype) {
    const list = value as unknown[]
    const out = new Array<unknown>(list.length)
    for (let i = 0; i < list.length; i++) {
      const item = frozenPlainCopy(list[i], depth + 1, budget)
      if (item === NOT_PLAIN) return NOT_PLAIN
      out[i] = item
    }
    return Object.freeze(out)
  }
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return NOT_PLAIN
    const item = frozenPlainCopy((value as Record<string, unknown>)[key], depth + 1, budget)
    if (item === NOT_PLAIN) return NOT_PLAIN
    out[key] = item
  }
  return Object.freeze(out)
}

/** Why a value could not leave `tm.call` as it was (the `error` event's code). */
export interface ResultProblem {
  code: 'invalid_result' | 'result_not_serializable'
  cause?: unknown
}

/**
 * Turns what a tool returned into the result that leaves `tm.call`: a structured clone (so the
 * app's own objects are never frozen), deep-frozen. Anything that is not a `ToolResult` becomes
 * "Tool failed", anything that cannot be cloned "Result not serializable"; `report` hears why.
 */
export function normalizeResult(
  raw: unknown,
  report: (problem: ResultProblem) => void,
): ToolResult {
  let valid: boolean
  try {
    valid = isToolResult(raw)
  } catch (cause) {
    // A proxy or a throwing getter: whatever it is, it is not a plain result.
    report({ code: 'invalid_result', cause })
    return TOOL_FAILED
  }
  if (!valid) {
    report({ code: 'invalid_result' })
    return TOOL_FAILED
  }
  try {
    const copy = frozenPlainCopy(raw, 0, { nodes: PLAIN_COPY_NODES })
    return copy !== NOT_PLAIN
      ? (copy as ToolResult)
      : deepFreeze(structuredClone(raw as ToolResult))
  } catch (cause) {
    report({ code: 'result_not_serializable', cause })
    return NOT_SERIALIZABLE
  }
}
