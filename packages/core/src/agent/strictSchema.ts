import { defineOwn, isObject } from '../base/guards'
import { CLIENT_SCHEMA_CHECK, jsonSchemaCheck } from '../schema/jsonSchemaCheck'
import type { JsonSchemaCheck } from '../schema/jsonSchemaCheck'
import type { JsonSchema } from '../types'

type Node = Record<string, unknown>

const hasOwn = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key)

/** Formats OpenAI's strict mode accepts; any other `format` is left out of the strict schema. */
const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
])

/**
 * Keywords strict mode does not take but that only narrow what is valid: leaving them out of
 * the model's schema loosens it, and the page still checks them.
 */
const LOOSENED = new Set([
  '$schema',
  '$comment',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'minLength',
  'maxLength',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'contentEncoding',
  'contentMediaType',
])

const NUMERIC = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
])

const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'])

/** OpenAI's documented limits for strict schemas. */
const MAX_NESTING = 10
const MAX_PROPERTIES = 5_000
const MAX_ENUM_VALUES = 1_000
const MAX_NODES = 10_000

/** Lookarounds, backreferences and named groups: regex features strict mode may refuse. */
const RISKY_PATTERN = /\(\?<?[=!]|\(\?<[A-Za-z]|\\[1-9]|\\k</

class NotStrict {}

/** Follows `#` and `#/$defs/name` (the references strict schemas keep). */
function resolve(root: Node, ref: string): unknown {
  if (ref === '#') return root
  const prefix = '#/$defs/'
  if (!ref.startsWith(prefix)) return undefined
  const defs = hasOwn(root, '$defs') ? root.$defs : undefined
  const name = ref.slice(prefix.length).replace(/~1/g, '/').replace(/~0/g, '~')
  return isObject(defs) && hasOwn(defs, name) ? defs[name] : undefined
}

/**
 * Whether a schema may accept `null`. Conservative: `true` unless a keyword rules null out, so
 * an optional property that might be nullable is never made "nullable for absent".
 */
export function acceptsNull(node: unknown, root: Node, depth = 0): boolean {
  if (node === false) return false
  if (!isObject(node) || depth > 32) return true
  if (typeof node.$ref === 'string') {
    const target = resolve(root, node.$ref)
    if (target !== undefined && !acceptsNull(target, root, depth + 1)) return false
  }
  if (Array.isArray(node.enum) && !node.enum.includes(null)) return false
  if (hasOwn(node, 'const') && node.const !== null) return false
  const type = node.type
  if (typeof type === 'string' && type !== 'null') return false
  if (Array.isArray(type) && !type.includes('null')) return false
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = node[key]
    if (Array.isArray(list) && !list.some((branch) => acceptsNull(branch, root, depth + 1))) {
      return false
    }
  }
  if (
    Array.isArray(node.allOf) &&
    !node.allOf.every((part) => acceptsNull(part, root, depth + 1))
  ) {
    return false
  }
  return true
}

function nullable(schema: Node): Node {
  const plain = !hasOwn(schema, 'enum') && !hasOwn(schema, 'const') && !hasOwn(schema, 'anyOf')
  if (plain && typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] }
  if (plain && Array.isArray(schema.type)) return { ...schema, type: [...schema.type, 'null'] }
  return { anyOf: [schema, { type: 'null' }] }
}

/**
 * The schema OpenAI's strict mode needs, or `undefined` when `schema` cannot be made strict
 * without changing what it means: every object closed (`additionalProperties: false`) with
 * every property required, optional ones made nullable (`null` then stands for "absent", and
 * `restoreOptionals` drops it again). Not strict: a root that is not an object, free-form or
 * record objects, an optional property that already accepts `null` (null and absent would
 * mean different things), `allOf`, `not`, `if`, tuples, `patternProperties`, and anything past
 * OpenAI's limits (10 levels, 5 000 properties, 1 000 enum values). Constraints strict mode
 * cannot express but that only narrow the value (`minLength`, `maxLength`, unsupported
 * formats, lookaround patterns…) are left out: the page still enforces them. `oneOf` becomes
 * `anyOf` for the same reason.
 */
export function toStrictSchema(schema: JsonSchema): JsonSchema | undefined {
  if (!isObject(schema) || schema.type !== 'object' || hasOwn(schema, 'anyOf')) return undefined
  const root = schema
  let nodes = 0
  let properties = 0
  let enums = 0

  const convert = (node: unknown, nesting: number): Node => {
    if (++nodes > MAX_NODES || nesting > MAX_NESTING || !isObject(node)) throw new NotStrict()
    const out: Node = {}
    for (const key of Object.keys(node)) {
      const value = node[key]
      if (LOOSENED.has(key)) continue
      if (NUMERIC.has(key)) {
        if (typeof value !== 'number' || !Number.isFinite(value)) throw new NotStrict()
        out[key] = value
        continue
      }
      switch (key) {
        case 'title':
        case 'description':
          if (typeof value === 'string') out[key] = value
          break
        case 'type': {
          const list = Array.isArray(value) ? value : [value]
          if (list.length === 0 || !list.every((t) => typeof t === 'string' && JSON_TYPES.has(t))) {
            throw new NotStrict()
          }
          out.type = Array.isArray(value) ? [...value] : value
          break
        }
        case 'enum':
          if (!Array.isArray(value) || (enums += value.length) > MAX_ENUM_VALUES) {
            throw new NotStrict()
          }
          out.enum = structuredClone(value)
          break
        case 'const':
          out.const = structuredClone(value)
          break
        case 'pattern':
          if (typeof value !== 'string') throw new NotStrict()
          if (!RISKY_PATTERN.test(value)) out.pattern = value
          break
        case 'format':
          if (typeof value === 'string' && STRICT_FORMATS.has(value)) out.format = value
          break
        case 'items':
          out.items = convert(value, nesting + 1)
          break
        case 'anyOf':
        case 'oneOf':
          if (!Array.isArray(value) || value.length === 0 || hasOwn(out, 'anyOf')) {
            throw new NotStrict()
          }
          out.anyOf = value.map((branch) => convert(branch, nesting))
          break
        case '$ref':
          if (typeof value !== 'string' || resolve(root, value) === undefined) throw new NotStrict()
          out.$ref = value
          break
        case '$defs':
          if (node !== root || !isObject(value)) throw new NotStrict()
          out.$defs = {}
          for (const name of Object.keys(value)) {
            defineOwn(out.$defs as Node, name, convert(value[name], 0))
          }
          break
        case 'properties':
        case 'required':
        case 'additionalProperties':
          break
        default:
          throw new NotStrict()
      }
    }
    const types = Array.isArray(node.type) ? node.type : [node.type]
    if (types.includes('object') || hasOwn(node, 'properties')) {
      const declared = node.properties
      const additional = node.additionalProperties
      // A free-form or record object cannot be closed without changing its meaning.
      if (!isObject(declared) || (additional !== undefined && typeof additional !== 'boolean')) {
        throw new NotStrict()
      }
      const required = Array.isArray(node.required) ? node.required : []
      const converted: Node = {}
      for (const key of Object.keys(declared)) {
        if (++properties > MAX_PROPERTIES) throw new NotStrict()
        let property = convert(declared[key], nesting + 1)
        if (!required.includes(key)) {
          if (acceptsNull(declared[key], root)) throw new NotStrict()
          property = nullable(property)
        }
        defineOwn(converted, key, property)
      }
      if (out.type === undefined) out.type = 'object'
      out.properties = converted
      out.required = Object.keys(declared)
      out.additionalProperties = false
    }
    return out
  }

  try {
    return convert(root, 0)
  } catch {
    // NotStrict, or a schema that is not plain JSON data: either way, not strict.
    return undefined
  }
}

/**
 * Undoes `toStrictSchema` on a model's arguments: drops each `null` the model sent for a
 * property the original schema has optional and non-nullable, at any depth (through `$ref`,
 * arrays and the `anyOf` branch the value matches). Everything else is returned as it is.
 */
export function restoreOptionals(schema: JsonSchema, value: unknown): unknown {
  const root = schema
  const checks = new Map<unknown, JsonSchemaCheck>()
  const issues = (branch: unknown, candidate: unknown) => {
    let check = checks.get(branch)
    if (!check) {
      check = jsonSchemaCheck(branch as JsonSchema, { ...CLIENT_SCHEMA_CHECK, root })
      checks.set(branch, check)
    }
    return check(candidate).length
  }

  const walk = (node: unknown, current: unknown, depth: number): unknown => {
    if (!isObject(node) || depth > 64) return current
    if (typeof node.$ref === 'string') {
      const target = resolve(root, node.$ref)
      return target === undefined ? current : walk(target, current, depth + 1)
    }
    const branches = Array.isArray(node.anyOf) ? node.anyOf : node.oneOf
    if (Array.isArray(branches)) {
      // The branch the value matches, else the one it comes closest to.
      let best: { candidate: unknown; issues: number } | undefined
      for (const branch of branches) {
        const candidate = walk(branch, current, depth + 1)
        const count = issues(branch, candidate)
        if (count === 0) return candidate
        if (!best || count < best.issues) best = { candidate, issues: count }
      }
      return best ? best.candidate : current
    }
    if (Array.isArray(current)) {
      return node.items === undefined
        ? current
        : current.map((item) => walk(node.items, item, depth + 1))
    }
    if (isObject(current) && isObject(node.properties)) {
      const declared = node.properties
      const required = Array.isArray(node.required) ? node.required : []
      const out: Node = {}
      for (const key of Object.keys(current)) {
        const property = hasOwn(declared, key) ? declared[key] : undefined
        if (property === undefined) {
          defineOwn(out, key, current[key])
          continue
        }
        const absent =
          current[key] === null && !required.includes(key) && !acceptsNull(property, root)
        if (!absent) defineOwn(out, key, walk(property, current[key], depth + 1))
      }
      return out
    }
    return current
  }

  return walk(root, value, 0)
}
