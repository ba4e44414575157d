import type { ManifestEntry } from '../types'

/** One text of a tool that a model reads, with where it is, for a finding's message. */
export interface ModelText {
  /** Where, for people: `description`, `input field "query" enum value`, `output schema title`. */
  what: string
  /** The input field it belongs to, as a dot path, when there is one. */
  path?: string
  text: string
}

/** The texts of a tool, and whether the walk read all of them (false: a bound stopped it). */
export interface ModelTexts {
  texts: ModelText[]
  complete: boolean
}

/** Bounds of one tool's walk, schemas and values together: a hostile manifest cannot hang it. */
const MAX_DEPTH = 64
const MAX_NODES = 10_000

/** Keywords whose value is a map of subschemas that are fields of the instance. */
const FIELD_MAPS = new Set(['properties'])
/** Keywords whose value is a map of subschemas that are not fields (`$defs`, patterns). */
const OTHER_MAPS = new Set([
  '$defs',
  'definitions',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
])
/** Keywords whose subschemas describe the same instance as their parent. */
const SAME_INSTANCE = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else'])
/** Keywords whose subschemas describe the items of an array. */
const ITEMS = new Set(['items', 'prefixItems', 'additionalItems', 'contains', 'unevaluatedItems'])
/** Other keywords whose value is a subschema. */
const OTHER_SCHEMAS = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'contentSchema',
])

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Every string of a tool that a model reads: its description and title, and every string in its
 * input and output schemas — each node's `description`, `title` and `$comment`, the root's and
 * those under `$defs`, property names, `enum` and `const` values, `default`s, `examples`, and
 * any other keyword's strings. `required` is left out: it repeats property names. Bounded
 * (`MAX_DEPTH`, `MAX_NODES`); `complete` says whether the bound was reached.
 */
export function modelTexts(
  tool: Pick<ManifestEntry, 'description' | 'title' | 'inputSchema' | 'outputSchema'>,
): ModelTexts {
  const texts: ModelText[] = []
  let nodes = 0
  let complete = true
  const spend = (depth: number): boolean => {
    if (depth > MAX_DEPTH || ++nodes > MAX_NODES) {
      complete = false
      return false
    }
    return true
  }
  const push = (what: string, field: string | undefined, text: string) => {
    texts.push(field ? { what, path: field, text } : { what, text })
  }

  /** Every string in a value (an example, a default), keys included. */
  const walkValue = (value: unknown, what: string, field: string | undefined, depth: number) => {
    if (!spend(depth)) return
    if (typeof value === 'string') push(what, field, value)
    else if (Array.isArray(value)) {
      for (const item of value) walkValue(item, what, field, depth + 1)
    } else if (isObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        push(what, field, key)
        walkValue(item, what, field, depth + 1)
      }
    }
  }

  /**
   * A schema node. `field` is its input field's dot path while it is reached through fields
   * (`''` at the root), undefined elsewhere (`$defs`); `at` is its keyword path, for messages.
   */
  const walkSchema = (
    schema: unknown,
    side: 'input' | 'output',
    field: string | undefined,
    at: string,
    depth: number,
  ) => {
    if (!isObject(schema) || !spend(depth)) return
    const where =
      field === undefined
        ? `${side} schema at ${at}`
        : field === ''
          ? `${side} schema`
          : `${side} field "${field}"`
    // Only input fields have a path a finding can name (`LintFinding.path`).
    const pathOf = side === 'input' ? field : undefined
    const child = (key: string) => (at ? `${at}.${key}` : key)
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'required') continue
      if (FIELD_MAPS.has(key) || OTHER_MAPS.has(key)) {
        if (!isObject(value)) {
          walkValue(value, `${where} ${key}`, pathOf, depth + 1)
          continue
        }
        for (const [name, sub] of Object.entries(value)) {
          const subField =
            FIELD_MAPS.has(key) && field !== undefined
              ? field
                ? `${field}.${name}`
                : name
              : undefined
          const subAt = child(`${key}.${name}`)
          const subWhere =
            subField === undefined ? `${side} schema at ${subAt}` : `${side} field "${subField}"`
          push(`${subWhere} name`, side === 'input' ? subField : undefined, name)
          // `dependencies` may list property names instead of a schema.
          if (Array.isArray(sub)) walkValue(sub, `${subWhere} dependencies`, pathOf, depth + 1)
          else walkSchema(sub, side, subField, subAt, depth + 1)
        }
        continue
      }
      const kind = SAME_INSTANCE.has(key)
        ? 'same'
        : ITEMS.has(key)
          ? 'items'
          : OTHER_SCHEMAS.has(key)
            ? 'other'
            : undefined
      if (kind !== undefined) {
        const subField =
          kind === 'same'
            ? field
            : kind === 'items' && field !== undefined
              ? `${field}[]`
              : undefined
        const list = Array.isArray(value) ? value : [value]
        list.forEach((sub, i) => {
          const subAt = Array.isArray(value) ? child(`${key}.${i}`) : child(key)
          walkSchema(sub, side, subField, subAt, depth + 1)
        })
        continue
      }
      const what =
        key === 'enum'
          ? `${where} enum value`
          : key === 'examples'
            ? `${where} example`
            : `${where} ${key}`
      walkValue(value, what, pathOf, depth + 1)
    }
  }

  if (typeof tool.description === 'string') push('description', undefined, tool.description)
  if (typeof tool.title === 'string') push('title', undefined, tool.title)
  walkSchema(tool.inputSchema, 'input', '', '', 0)
  walkSchema(tool.outputSchema, 'output', '', '', 0)
  return { texts, complete }
}
