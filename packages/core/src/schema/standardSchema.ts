import { isThenable } from '../base/guards'
import type {
  ResultIssue,
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaV1,
} from '../types'

/** Joins a Standard Schema issue path into a dot path (`items.2.name`; `''` for the root). */
export function issuePath(path: StandardSchemaIssue['path']): string {
  if (!path) return ''
  return path
    .map((seg) => {
      const key = typeof seg === 'object' && seg !== null ? seg.key : seg
      return typeof key === 'symbol' ? (key.description ?? '') : String(key)
    })
    .join('.')
}

/** Issues as `ToolResult` issues. */
export function toIssues(issues: ReadonlyArray<StandardSchemaIssue>): ResultIssue[] {
  return issues.map((i) => ({
    path: issuePath(i.path),
    message: typeof i.message === 'string' ? i.message : 'Invalid value',
  }))
}

/** Whether `value` implements Standard Schema v1. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const std = (value as { '~standard'?: { version?: unknown; validate?: unknown } } | null)?.[
    '~standard'
  ]
  return !!std && std.version === 1 && typeof std.validate === 'function'
}

/** What validation gives: the parsed value, or the issues as dot paths. */
export type Validated<T> = { value: T } | { issues: ResultIssue[] }

function fromResult<T>(result: StandardSchemaResult<T>): Validated<T> {
  if (result.issues) {
    const issues = toIssues(result.issues)
    return { issues: issues.length > 0 ? issues : [{ path: '', message: 'Invalid input' }] }
  }
  return { value: result.value }
}

/**
 * Validates with a Standard Schema: synchronously when the schema is synchronous (most are), else
 * as a promise. Throws (or rejects) only when the validator itself does; callers turn that into
 * an error result.
 */
export function validateWith<T>(
  schema: StandardSchemaV1<unknown, T>,
  value: unknown,
): Validated<T> | Promise<Validated<T>> {
  const result = schema['~standard'].validate(value)
  return isThenable(result)
    ? Promise.resolve(result).then((r) => fromResult(r as StandardSchemaResult<T>))
    : fromResult(result)
}
