import { DEFAULT_MESSAGE_LIMITS } from './bounds'
import type { ProtocolMessage } from './messages'

/** Unwinds `toJsonValue` when a value has no JSON form. */
class NotSerializable {}

/**
 * Converts `value` with the rules of `JSON.stringify` (`toJSON`, so `Date` becomes its ISO
 * string; `undefined` properties are dropped and `undefined` array items become `null`), except
 * that what JSON would silently lose or reject — cycles, functions, symbols, bigints, non-finite
 * numbers, nesting past `maxDepth` — makes the whole value unserializable.
 */
function toJsonValue(
  value: unknown,
  key: string,
  depth: number,
  maxDepth: number,
  path: Set<object>,
): unknown {
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON
    if (typeof toJSON === 'function') value = toJSON.call(value, key)
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    value = value.valueOf()
  }
  switch (typeof value) {
    case 'undefined':
      return undefined
    case 'string':
    case 'boolean':
      return value
    case 'number':
      if (!Number.isFinite(value)) throw new NotSerializable()
      return value
    case 'object': {
      if (value === null) return null
      if (depth + 1 > maxDepth || path.has(value)) throw new NotSerializable()
      path.add(value)
      let out: unknown
      if (Array.isArray(value)) {
        out = value.map(
          (item, i) => toJsonValue(item, String(i), depth + 1, maxDepth, path) ?? null,
        )
      } else {
        const record: Record<string, unknown> = {}
        for (const name of Object.keys(value)) {
          const item = toJsonValue(
            (value as Record<string, unknown>)[name],
            name,
            depth + 1,
            maxDepth,
            path,
          )
          if (item !== undefined) record[name] = item
        }
        out = record
      }
      path.delete(value)
      return out
    }
    default:
      // function, symbol, bigint without toJSON
      throw new NotSerializable()
  }
}

/** Options of `encodeMessage`. */
export interface EncodeMessageOptions {
  /** Deepest nesting allowed (the message object is depth 1). Default 128, what agents accept. */
  maxDepth?: number
}

/**
 * Serializes a message to JSON text with JSON semantics: `toJSON` is honoured (`Date` → ISO
 * string) and `undefined` properties vanish. Returns `undefined`, never throws, when the message
 * holds something JSON cannot carry faithfully: a cycle, a function, a symbol, a bigint, a
 * non-finite number, or nesting deeper than `maxDepth`.
 *
 * @example
 * const text = encodeMessage({ protocol: 1, type: 'hello', clientId: '*' })
 */
export function encodeMessage(
  message: ProtocolMessage,
  options: EncodeMessageOptions = {},
): string | undefined {
  const maxDepth = options.maxDepth ?? DEFAULT_MESSAGE_LIMITS.toAgent.maxDepth
  try {
    return JSON.stringify(toJsonValue(message, '', 0, maxDepth, new Set()))
  } catch {
    // NotSerializable, or a toJSON/getter that threw.
    return undefined
  }
}
