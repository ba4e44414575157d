import type { JsonSchema } from '@toolmark/core'

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** Deep enough for real inputs, shallow enough that a recursive schema cannot loop. */
const MAX_DEPTH = 8

/**
 * A starting input for a tool, from its JSON Schema: every declared `default`, plus a blank
 * value of the right type for each required property without one, so a person sees the shape
 * and edits only what matters. Optional properties without a default are left out.
 */
export function exampleInput(schema: JsonSchema | undefined): unknown {
  if (!schema) return {}
  return exampleOf(schema, schema, 0) ?? {}
}

function exampleOf(schema: unknown, root: JsonSchema, depth: number): unknown {
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined
  if ('default' in schema) return schema.default
  if ('const' in schema) return schema.const
  if (typeof schema.$ref === 'string')
    return exampleOf(resolveRef(root, schema.$ref), root, depth + 1)
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const variants = schema[key]
    if (Array.isArray(variants)) {
      // A nullable field is `anyOf [T, null]`: the useful example is T's.
      const variant = variants.find((v) => !(isObject(v) && v.type === 'null')) ?? variants[0]
      return exampleOf(variant, root, depth + 1)
    }
  }
  const type = Array.isArray(schema.type)
    ? schema.type.find((t) => t !== 'null')
    : (schema.type ?? (isObject(schema.properties) ? 'object' : undefined))
  switch (type) {
    case 'object':
      return objectExample(schema, root, depth)
    case 'array':
      return []
    case 'string':
      return ''
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0
    case 'boolean':
      return false
    case 'null':
      return null
    default:
      return undefined
  }
}

function objectExample(schema: Record<string, unknown>, root: JsonSchema, depth: number) {
  const out: Record<string, unknown> = {}
  const required = new Set(Array.isArray(schema.required) ? schema.required : [])
  const properties = isObject(schema.properties) ? schema.properties : {}
  for (const [key, property] of Object.entries(properties)) {
    if (!required.has(key) && !(isObject(property) && 'default' in property)) continue
    const value = exampleOf(property, root, depth + 1)
    if (value !== undefined) out[key] = value
  }
  return out
}

/** Resolves a local `#/…` reference (JSON Pointer); anything else is not followed. */
function resolveRef(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined
  let node: unknown = root
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (!isObject(node)) return undefined
    node = node[key]
  }
  return node
}
