import { isPlainObject } from './guards'
import type { CancelledBy, FieldChange, ResultIssue, ToolResult } from '../types'

/** An input check's answer (validation, an edited input, a question's answer): the parsed value, or the result to return instead. */
export type Checked = { value: unknown } | { result: ToolResult }

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
/** Nodes the copy in progress may still visit (saved and restored around a nested copy). */
let budget = 0

/**
 * The common case, fast: plain objects, arrays and primitives, copied and frozen in one pass
 * (`bench/call.mjs`: `structuredClone` of a small result costs 2.5 µs more).
 * Anything else (a Date, a Map, a class instance, a cycle, a very large or deep graph, a
 * `__proto__` key) answers `NOT_PLAIN` and goes through `structuredClone`, which has the final
 * say on what can be cloned. A getter that throws throws here as it would there.
 */
function frozenPlainCopy(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' ? NOT_PLAIN : value
  }
  if (--budget < 0 || depth > 32) return NOT_PLAIN
  const proto = Object.getPrototypeOf(value)
  if (proto === Array.prototype) {
    const list = value as unknown[]
    const out = new Array<unknown>(list.length)
    for (let i = 0; i < list.length; i++) {
      const item = frozenPlainCopy(list[i], depth + 1)
      if (item === NOT_PLAIN) return NOT_PLAIN
      out[i] = item
    }
    return Object.freeze(out)
  }
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN
  const out: Record<string, unknown> = {}
  const keys = Object.keys(value)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]
    if (key === '__proto__') return NOT_PLAIN
    const item = frozenPlainCopy((value as Record<string, unknown>)[key], depth + 1)
    if (item === NOT_PLAIN) return NOT_PLAIN
    out[key] = item
  }
  return Object.freeze(out)
}

/** The keys each status may carry (DESIGN §3.4 step 9: a result is rebuilt with these only). */
const STATUS_KEYS: Record<ToolResult['status'], readonly string[]> = {
  ok: ['status', 'data'],
  invalid: ['status', 'issues'],
  refused: ['status', 'code', 'message', 'rev'],
  needs_confirmation: ['status', 'confirmId', 'summary', 'changes'],
  cancelled: ['status', 'by'],
  error: ['status', 'message'],
}
const ISSUE_KEYS = ['path', 'message'] as const
const CHANGE_KEYS = ['path', 'before', 'after'] as const

/** `value` with only `keys` (those present), and the names of the others in `dropped`. */
function pick(
  value: Record<string, unknown>,
  keys: readonly string[],
  where: string,
  dropped: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of keys)
    if (Object.prototype.hasOwnProperty.call(value, key)) out[key] = value[key]
  for (const key of Object.keys(value)) if (!keys.includes(key)) dropped.push(where + key)
  return out
}

/**
 * A valid result rebuilt with only its status's own keys (and, in issues and changes, only
 * theirs): what leaves `tm.call` never carries more than its status allows. `dropped` names what
 * was left out; `undefined` when nothing was (the result is returned as it is then).
 */
function shape(value: ToolResult): { result: ToolResult; dropped: string[] | undefined } {
  const raw = value as unknown as Record<string, unknown>
  const keys = STATUS_KEYS[value.status]
  const dropped: string[] = []
  const top = pick(raw, keys, '', dropped)
  if (value.status === 'invalid') {
    top.issues = value.issues.map((issue, i) =>
      pick(issue as unknown as Record<string, unknown>, ISSUE_KEYS, `issues.${i}.`, dropped),
    )
  } else if (value.status === 'needs_confirmation' && value.changes) {
    top.changes = value.changes.map((change, i) =>
      pick(change as unknown as Record<string, unknown>, CHANGE_KEYS, `changes.${i}.`, dropped),
    )
  }
  return dropped.length === 0
    ? { result: value, dropped: undefined }
    : { result: top as unknown as ToolResult, dropped }
}

/**
 * `{ status: 'ok', data }` with exactly those keys, as `ok()` makes it: rebuilt as a literal, the
 * cheapest shape to build and freeze, with the same keys in the same order as the general copy.
 */
function okCopy(value: Record<string, unknown>): unknown {
  budget--
  const data = frozenPlainCopy(value.data, 1)
  return data === NOT_PLAIN ? NOT_PLAIN : Object.freeze({ status: 'ok', data })
}

/** A frozen copy of a plain result, or `NOT_PLAIN`. Reentrant: a getter may start another copy. */
function plainCopy(value: ToolResult): unknown {
  const outer = budget
  budget = PLAIN_COPY_NODES
  try {
    return value.status === 'ok'
      ? okCopy(value as unknown as Record<string, unknown>)
      : frozenPlainCopy(value, 0)
  } finally {
    budget = outer
  }
}

/**
 * Whether `value` is a plain object with exactly the keys `ok()` gives it, in that order: the
 * common case, known valid with this one look at its keys (no status switch, no reshaping).
 */
function isBareOk(value: unknown): value is { status: 'ok'; data: unknown } {
  if (!isPlainObject(value) || value.status !== 'ok') return false
  const keys = Object.keys(value)
  return keys.length === 2 && keys[0] === 'status' && keys[1] === 'data'
}

/** Why a value could not leave `tm.call` as it was (the `error` event's code). */
export interface ResultProblem {
  code: 'invalid_result' | 'result_not_serializable' | 'result_keys_dropped'
  /** The exception, or for `result_keys_dropped` the dot paths of the keys left out. */
  cause?: unknown
}

/**
 * Turns what a tool returned into the result that leaves `tm.call`: rebuilt with only its status's
 * keys, copied (so the app's own objects are never frozen) and deep-frozen. Anything that is not a
 * `ToolResult` becomes "Tool failed", anything that cannot be cloned "Result not serializable";
 * a key the status does not have is dropped and reported; `report` hears why,
 * with `context` passed through (so a caller needs no closure per result).
 */
export function normalizeResult<C>(
  raw: unknown,
  report: (problem: ResultProblem, context: C) => void,
  context: C,
): ToolResult {
  let bareOk: boolean
  let valid: boolean
  try {
    bareOk = isBareOk(raw)
    valid = bareOk || isToolResult(raw)
  } catch (cause) {
    // A proxy or a throwing getter: whatever it is, it is not a plain result.
    report({ code: 'invalid_result', cause }, context)
    return TOOL_FAILED
  }
  if (!valid) {
    report({ code: 'invalid_result' }, context)
    return TOOL_FAILED
  }
  try {
    let result = raw as ToolResult
    if (!bareOk) {
      const shaped = shape(result)
      if (shaped.dropped) report({ code: 'result_keys_dropped', cause: shaped.dropped }, context)
      result = shaped.result
    }
    const copy = plainCopy(result)
    return copy !== NOT_PLAIN ? (copy as ToolResult) : deepFreeze(structuredClone(result))
  } catch (cause) {
    report({ code: 'result_not_serializable', cause }, context)
    return NOT_SERIALIZABLE
  }
}
