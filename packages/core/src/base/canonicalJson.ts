/**
 * JSON with object keys sorted and no spaces: the same value always encodes to the same text,
 * in the page and on a server. JSON semantics otherwise (`toJSON`, `undefined` members dropped,
 * `undefined` in arrays and non-finite numbers as `null`).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value, new Set())) ?? 'null'
}

function sorted(value: unknown, seen: Set<object>): unknown {
  if (value !== null && typeof value === 'object') {
    const withJson = value as { toJSON?: unknown }
    if (typeof withJson.toJSON === 'function') return sorted(withJson.toJSON(), seen)
    if (seen.has(value)) throw new TypeError('A cyclic value has no canonical encoding')
    seen.add(value)
    let out: unknown
    if (Array.isArray(value)) {
      out = value.map((item) => {
        const s = sorted(item, seen)
        return s === undefined ? null : s
      })
    } else {
      const object: Record<string, unknown> = {}
      for (const key of Object.keys(value).sort()) {
        const s = sorted((value as Record<string, unknown>)[key], seen)
        if (s !== undefined) Object.defineProperty(object, key, { value: s, enumerable: true })
      }
      out = object
    }
    seen.delete(value)
    return out
  }
  if (typeof value === 'function' || typeof value === 'symbol') return undefined
  if (typeof value === 'bigint') throw new TypeError('A bigint has no JSON encoding')
  return value
}
