import { isThenable } from './guards'
import type {
  JsonSchema,
  ResultIssue,
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaV1,
} from './types'

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

/** Where a tool's JSON Schema comes from, in order; `undefined` when there is no source. */
export function jsonSchemaSource(
  input: StandardSchemaV1 | undefined,
  override: JsonSchema | undefined,
  converter: ((schema: StandardSchemaV1) => JsonSchema | undefined) | undefined,
): 'none' | 'override' | 'standard' | 'converter' | undefined {
  if (override) return 'override'
  if (!input) return 'none'
  if (typeof input['~standard'].jsonSchema?.input === 'function') return 'standard'
  if (converter) return 'converter'
  return undefined
}

/** The empty-object schema of a tool without input. */
export const NO_INPUT_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: {},
  additionalProperties: false,
})

/** Resolves a tool's input JSON Schema: override → Standard JSON Schema → converter. */
export function resolveJsonSchema(
  input: StandardSchemaV1 | undefined,
  override: JsonSchema | undefined,
  converter: ((schema: StandardSchemaV1) => JsonSchema | undefined) | undefined,
): JsonSchema | undefined {
  if (override) return override
  if (!input) return NO_INPUT_SCHEMA
  const std = input['~standard'].jsonSchema
  if (std && typeof std.input === 'function') {
    try {
      return std.input({ target: 'draft-2020-12' })
    } catch {
      // Types JSON cannot carry (dates, maps): keep what can be said and let those be anything.
      return std.input({ target: 'draft-2020-12', libraryOptions: { unrepresentable: 'any' } })
    }
  }
  return converter?.(input)
}

const quote = (v: unknown) => JSON.stringify(v)

/**
 * A compact one-line rendering of a JSON Schema, e.g.
 * `{ values: { title?: string, priority?: "low" | "high" }, overwrite?: boolean }`.
 * Returns `undefined` when it would exceed `budget` characters.
 */
export function renderSignature(
  schema: JsonSchema | undefined,
  budget: number,
): string | undefined {
  if (!schema) return undefined
  const TOO_LONG = Symbol('too long')
  let length = 0
  // Every piece goes through `emit`, so a long schema stops as soon as it is over budget.
  const emit = (text: string) => {
    length += text.length
    if (length > budget) throw TOO_LONG
    return text
  }
  const render = (s: unknown, depth: number): string => {
    if (s === true || s === undefined || s === null || typeof s !== 'object') return emit('any')
    const node = s as Record<string, unknown>
    if (depth > 8) return emit('…')
    if (Array.isArray(node.enum)) return emit(node.enum.map(quote).join(' | '))
    if ('const' in node) return emit(quote(node.const))
    const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined
    if (Array.isArray(union)) {
      return union.map((u, i) => (i > 0 ? emit(' | ') : '') + render(u, depth + 1)).join('')
    }
    const type = node.type
    if (Array.isArray(type)) return emit(type.join(' | '))
    if (type === 'array') {
      const items = render(node.items, depth + 1)
      if (!items.includes(' ')) return items + emit('[]')
      emit('()[]')
      return `(${items})[]`
    }
    if (type === 'object' || node.properties) {
      const props = (node.properties ?? {}) as Record<string, unknown>
      const required = new Set((node.required as string[] | undefined) ?? [])
      const keys = Object.keys(props)
      if (keys.length === 0) {
        const extra = node.additionalProperties
        if (extra && typeof extra === 'object') {
          return emit('{ [key: string]: ') + render(extra, depth + 1) + emit(' }')
        }
        return emit('{}')
      }
      let out = emit('{ ')
      keys.forEach((key, i) => {
        const label = /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key)
        out += emit(`${i > 0 ? ', ' : ''}${label}${required.has(key) ? '' : '?'}: `)
        out += render(props[key], depth + 1)
      })
      return out + emit(' }')
    }
    if (typeof type === 'string') return emit(type)
    return emit('any')
  }
  try {
    return render(schema, 0)
  } catch (e) {
    if (e === TOO_LONG) return undefined
    throw e
  }
}
