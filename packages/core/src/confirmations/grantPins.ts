import { FORBIDDEN_SEGMENTS, getIn, isObject } from '../base/guards'
import { canonicalJson } from '../base/canonicalJson'
import type { JsonSchema } from '../types'

/** The schemas a value at this schema may match (`anyOf`/`oneOf` branches, nullable fields). */
function branches(schema: unknown, depth = 0): Record<string, unknown>[] {
  if (!isObject(schema) || depth > 8) return []
  const out: Record<string, unknown>[] = [schema]
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key]
    if (Array.isArray(list)) for (const item of list) out.push(...branches(item, depth + 1))
  }
  return out
}

/**
 * Whether the tool's input JSON Schema declares this dot path (object properties, array items
 * by index). A pin on a path the schema does not declare would compare nothing the tool reads.
 */
export function declaresPath(schema: JsonSchema | undefined, path: string): boolean {
  if (path === '') return false
  let current: Record<string, unknown>[] = branches(schema)
  for (const segment of path.split('.')) {
    if (segment === '' || FORBIDDEN_SEGMENTS.has(segment)) return false
    const next: Record<string, unknown>[] = []
    for (const s of current) {
      const properties = s.properties
      if (isObject(properties) && Object.prototype.hasOwnProperty.call(properties, segment)) {
        next.push(...branches(properties[segment]))
      }
      if (/^(0|[1-9][0-9]{0,8})$/.test(segment) && isObject(s.items)) {
        next.push(...branches(s.items))
      }
    }
    if (next.length === 0) return false
    current = next
  }
  return true
}

/** The value at a pin's dot path of an input (a path `declaresPath` accepted); `undefined` when absent. */
export const valueAt = (input: unknown, path: string): unknown => getIn(input, path.split('.'))

/**
 * What a pinned value is compared by: its canonical JSON (keys sorted), so `{ a, b }` and
 * `{ b, a }` pin alike; an absent value has its own key. `undefined` when the value has no
 * canonical encoding (a cycle, a bigint): such a value is never pinned.
 */
export function pinKey(value: unknown): string | undefined {
  if (value === undefined) return '\u0000absent'
  try {
    return canonicalJson(value)
  } catch {
    return undefined
  }
}
