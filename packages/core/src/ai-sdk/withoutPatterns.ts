import { isPlainObject } from '../base/guards'
import type { JsonSchema } from '../types'

/** Keywords whose value is one subschema. */
const ONE = [
  'additionalProperties',
  'additionalItems',
  'contains',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]
/** Keywords whose value is a list of subschemas. */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']
/** Keywords whose value maps names to subschemas. */
const MAP = ['$defs', 'definitions', 'dependentSchemas', 'properties']

function strip(node: unknown): unknown {
  if (!isPlainObject(node)) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'pattern' || key === 'patternProperties') continue
    if (ONE.includes(key) && isPlainObject(value)) out[key] = strip(value)
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map(strip)
    else if (MAP.includes(key) && isPlainObject(value)) {
      const map: Record<string, unknown> = {}
      for (const [name, schema] of Object.entries(value)) map[name] = strip(schema)
      out[key] = map
    } else out[key] = value
  }
  // Properties a pattern would have matched must not become "additional" and be refused.
  if (isPlainObject(node.patternProperties)) delete out.additionalProperties
  return out
}

/**
 * A copy of a posted schema for checking on the server, without regular expressions: `pattern`
 * and `patternProperties` come from the client, and a server never runs a regular expression a
 * client wrote (its backtracking is unbounded). Only narrowing keywords go, so the check is never
 * stricter than the page's own; the page checks the patterns when the call reaches it.
 */
export function withoutPatterns(schema: JsonSchema): JsonSchema {
  return strip(schema) as JsonSchema
}
