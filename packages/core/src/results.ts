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

/**
 * Turns what a tool returned into the result that leaves `tm.call`: a structured clone (so the
 * app's own objects are never frozen), deep-frozen. Returns `null` when cloning fails.
 */
export function finalizeResult(result: ToolResult): ToolResult | null {
  try {
    return deepFreeze(structuredClone(result))
  } catch {
    return null
  }
}

/** The frozen "Result not serializable" error. */
export function notSerializable(): ToolResult {
  return NOT_SERIALIZABLE
}
