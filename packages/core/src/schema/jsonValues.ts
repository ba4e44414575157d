import { isObject } from '../base/guards'

/** What the JSON Schema check asks of a JSON value: its type, its size, a short rendering of it. */

export const hasOwn = (value: object, key: string) =>
  Object.prototype.hasOwnProperty.call(value, key)

export const finite = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value)

export const count = (value: unknown): number | undefined =>
  finite(value) && value >= 0 ? Math.floor(value) : undefined

/** The JSON type of a value, as `type` names it (`integer` is reported as `number`). */
export function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  switch (typeof value) {
    case 'string':
      return 'string'
    case 'boolean':
      return 'boolean'
    case 'number':
      return Number.isFinite(value) ? 'number' : 'not JSON'
    case 'object':
      return 'object'
    default:
      return 'not JSON'
  }
}

export const KNOWN_TYPES = new Set([
  'null',
  'boolean',
  'object',
  'array',
  'number',
  'integer',
  'string',
])

export function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'number':
      return finite(value)
    case 'object':
      return isObject(value)
    default:
      return jsonType(value) === type
  }
}

/** At most `limit` characters of a value's JSON text, built no further than that. */
export function show(value: unknown, limit = 40): string {
  let text = ''
  const write = (part: string) => {
    text += part
    return text.length <= limit
  }
  const walk = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') return write(JSON.stringify(v.slice(0, limit + 1)))
    if (v === null || typeof v !== 'object') return write(String(JSON.stringify(v) ?? v))
    if (depth > 8) return write('…')
    const list = Array.isArray(v)
    if (!write(list ? '[' : '{')) return false
    let first = true
    for (const key of Object.keys(v)) {
      if (!first && !write(',')) return false
      first = false
      if (!list && !write(`${JSON.stringify(key.slice(0, limit + 1))}:`)) return false
      if (!walk((v as Record<string, unknown>)[key], depth + 1)) return false
    }
    return write(list ? ']' : '}')
  }
  walk(value, 0)
  return text.length > limit ? `${text.slice(0, limit)}…` : text
}

/** Code points of a string (what JSON Schema counts), without building an array. */
export function codePoints(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
  }
  return n
}

/** A number as written in JSON (its shortest form): `digits × 10^-scale`. */
export function decimal(n: number): { digits: bigint; scale: number } | undefined {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(n)))
  if (!match) return undefined
  const [, whole, fraction = '', exponent = '0'] = match
  return { digits: BigInt(whole + fraction), scale: fraction.length - Number(exponent) }
}

/**
 * `value` is a multiple of `step` in decimal, as written: 0.3 is a multiple of 0.1 although
 * 0.3 / 0.1 is 2.9999999999999996 in floating point.
 */
export function isMultiple(value: number, step: number): boolean {
  const a = decimal(value)
  const b = decimal(step)
  if (!a || !b || Math.abs(a.scale - b.scale) > 700) {
    const quotient = value / step
    return Math.abs(quotient - Math.round(quotient)) <= 1e-9 * Math.max(1, Math.abs(quotient))
  }
  const scale = Math.max(a.scale, b.scale)
  const left = a.digits * 10n ** BigInt(scale - a.scale)
  const right = b.digits * 10n ** BigInt(scale - b.scale)
  return right === 0n || left % right === 0n
}

/** Each JSON type as a message names it. */
export const TYPE_NAMES: Record<string, string> = {
  null: 'null',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  number: 'a number',
  integer: 'an integer',
  string: 'a string',
}
