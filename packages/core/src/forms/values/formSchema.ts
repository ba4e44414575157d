import type { JsonSchema } from '../../types'

/**
 * What a form declares, read from its JSON Schema: which paths exist, which are arrays (whole
 * values with `$append` / `$remove`), and what `null` clears each field to.
 */
export type FormNode =
  | {
      readonly kind: 'object'
      /** Declared properties. */
      readonly props: ReadonlyMap<string, FormNode>
      /** Any other key (a record's value schema); absent when only `props` are declared. */
      readonly rest: FormNode | undefined
      /** What `null` writes when the object has no declared properties to clear one by one. */
      readonly empty: unknown
    }
  | { readonly kind: 'array'; readonly items: FormNode }
  | {
      readonly kind: 'value'
      /** What `null` writes: `null` when the schema allows it, else the type's empty value. */
      readonly empty: unknown
    }

type Schema = Record<string, unknown>

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const ANY: FormNode = Object.freeze({ kind: 'value', empty: undefined })

/** The JSON Schema types a node allows, `null` included. */
function typesOf(schema: Schema): Set<string> {
  const types = new Set<string>()
  const { type } = schema
  if (typeof type === 'string') types.add(type)
  if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') types.add(t)
  if (Array.isArray(schema.enum)) {
    for (const v of schema.enum) types.add(v === null ? 'null' : typeof v)
  }
  if ('const' in schema) types.add(schema.const === null ? 'null' : typeof schema.const)
  if (isSchema(schema.properties) || schema.additionalProperties !== undefined) types.add('object')
  if (schema.items !== undefined || schema.prefixItems !== undefined) types.add('array')
  return types
}

/** Follows a local `$ref` of the root schema (`#`, `#/$defs/X`, `#/definitions/X`), once. */
export function resolveRef(root: JsonSchema, ref: string): Schema | undefined {
  if (ref === '#') return root
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref)
  if (!match) return undefined
  const defs = root[match[1]]
  const target = isSchema(defs) ? defs[decodeURIComponent(match[2])] : undefined
  return isSchema(target) ? target : undefined
}

/** Compiles a form's JSON Schema into the tree fills are checked against. */
export function compileFormSchema(root: JsonSchema): FormNode {
  const refs = new Map<string, FormNode>()

  const compile = (schema: unknown, depth: number): FormNode => {
    if (!isSchema(schema) || depth > 64) return ANY
    if (typeof schema.$ref === 'string') {
      const cached = refs.get(schema.$ref)
      if (cached) return cached
      const target = resolveRef(root, schema.$ref)
      if (!target) return ANY
      // A shell first, filled in after, so recursive schemas end.
      const shell = {} as FormNode
      refs.set(schema.$ref, shell)
      Object.assign(shell, compile(target, depth + 1))
      return shell
    }
    const variants: Schema[] = []
    const nullable = { value: false }
    const collect = (s: unknown, d: number) => {
      if (!isSchema(s) || d > 64) return
      if (typeof s.$ref === 'string') {
        const target = resolveRef(root, s.$ref)
        if (target) collect(target, d + 1)
        return
      }
      const union = (s.anyOf ?? s.oneOf) as unknown
      if (Array.isArray(union)) {
        for (const option of union) collect(option, d + 1)
        return
      }
      if (Array.isArray(s.allOf)) {
        for (const part of s.allOf) collect(part, d + 1)
      }
      const types = typesOf(s)
      if (types.has('null')) nullable.value = true
      if (types.size === 1 && types.has('null')) return
      variants.push(s)
    }
    collect(schema, depth)

    const objects = variants.filter((v) => typesOf(v).has('object'))
    const arrays = variants.filter((v) => typesOf(v).has('array'))
    const declared = objects.filter(
      (v) => isSchema(v.properties) || isSchema(v.additionalProperties),
    )
    if (declared.length > 0 && declared.length === variants.length) {
      const props = new Map<string, FormNode>()
      let rest: FormNode | undefined
      for (const v of declared) {
        if (isSchema(v.properties)) {
          for (const [key, child] of Object.entries(v.properties)) {
            if (!props.has(key)) props.set(key, compile(child, depth + 1))
          }
        }
        if (isSchema(v.additionalProperties) && !rest) {
          rest = compile(v.additionalProperties, depth + 1)
        }
      }
      return { kind: 'object', props, rest, empty: nullable.value ? null : {} }
    }
    if (arrays.length > 0 && arrays.length === variants.length) {
      const items = arrays.find((v) => v.items !== undefined)?.items
      return { kind: 'array', items: compile(items, depth + 1) }
    }
    return { kind: 'value', empty: emptyValue(variants, nullable.value) }
  }

  return compile(root, 0)
}

/** What `null` clears a field to, so the form keeps a value its inputs can show. */
function emptyValue(variants: Schema[], nullable: boolean): unknown {
  if (nullable) return null
  if (variants.length === 0) return undefined
  const fixed = (v: Schema) => Array.isArray(v.enum) || 'const' in v
  const allowed = (v: Schema) => (Array.isArray(v.enum) ? v.enum : [v.const])
  if (variants.some((v) => fixed(v) && allowed(v).includes(''))) return ''
  const only = (type: string) =>
    variants.every((v) => {
      const types = typesOf(v)
      return !fixed(v) && types.size === 1 && types.has(type)
    })
  if (only('string')) return ''
  if (only('boolean')) return false
  return undefined
}

const SAFE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])

/** Drops bounds that only restate "a safe integer" (zod's `.int()`), to keep manifests small. */
function tidy(schema: Schema): Schema {
  const out: Schema = { ...schema }
  if (typeof out.minimum === 'number' && SAFE_BOUNDS.has(out.minimum)) delete out.minimum
  if (typeof out.maximum === 'number' && SAFE_BOUNDS.has(out.maximum)) delete out.maximum
  return out
}

/** Deep copy of a schema inside an array item: kept as is (items are whole values), only tidied. */
function tidyDeep(schema: unknown, depth: number): unknown {
  if (Array.isArray(schema)) return schema.map((s) => tidyDeep(s, depth + 1))
  if (!isSchema(schema) || depth > 64) return schema
  const out: Schema = {}
  for (const [key, value] of Object.entries(tidy(schema))) {
    out[key] = key === 'enum' || key === 'const' ? value : tidyDeep(value, depth + 1)
  }
  return out
}

const REMOVE_SCHEMA: Schema = {
  type: 'array',
  items: { type: 'integer', minimum: 0 },
  description: 'Indexes of the items to remove',
}

/**
 * The JSON Schema of a fill's `values`: the form's schema with every field optional and arrays
 * also taking `{ $append }` or `{ $remove }`. That `null` clears any field is said once, in the
 * description, rather than as `| null` on every field: the one-line signature stays short.
 */
function partialSchema(schema: unknown, depth: number): unknown {
  if (!isSchema(schema) || depth > 64) return schema
  if (typeof schema.$ref === 'string') return schema
  const union = (schema.anyOf ?? schema.oneOf) as unknown
  if (Array.isArray(union)) {
    const key = schema.anyOf ? 'anyOf' : 'oneOf'
    const hasObject = union.some((u) => isSchema(u) && isSchema(u.properties))
    if (hasObject) {
      return { ...tidy(schema), [key]: union.map((u) => partialSchema(u, depth + 1)) }
    }
    return tidyDeep(schema, depth)
  }
  const types = typesOf(schema)
  if (types.has('object') && isSchema(schema.properties)) {
    const properties: Schema = {}
    for (const [key, child] of Object.entries(schema.properties)) {
      properties[key] = partialSchema(child, depth + 1)
    }
    const out: Schema = { ...tidy(schema), properties }
    delete out.required
    if (out.additionalProperties === undefined) out.additionalProperties = false
    else if (isSchema(out.additionalProperties)) {
      out.additionalProperties = partialSchema(out.additionalProperties, depth + 1)
    }
    return out
  }
  if (types.has('array') && !types.has('object')) {
    const whole = tidyDeep(schema, depth)
    return {
      anyOf: [
        whole,
        {
          type: 'object',
          properties: { $append: whole },
          required: ['$append'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { $remove: REMOVE_SCHEMA },
          required: ['$remove'],
          additionalProperties: false,
        },
      ],
    }
  }
  return tidyDeep(schema, depth)
}

/** The input JSON Schema of `<form>.fill`, derived from the form's JSON Schema. */
export function fillInputSchema(
  form: JsonSchema,
  options: {
    arrays: boolean
    /** Puts the declared file fields' schemas in `values` (the code `fileFields()` brings). */
    files?: (values: Record<string, unknown>) => Record<string, unknown>
  },
): JsonSchema {
  const { $schema: _ignored, $defs, definitions, ...body } = form
  const partial = partialSchema(body, 0) as Schema
  const values = options.files ? options.files(partial) : partial
  const out: JsonSchema = {
    type: 'object',
    properties: {
      values: {
        ...values,
        description:
          'Fields to set, as a partial object. Leave a field out to keep it; null clears it.' +
          (options.arrays
            ? ' Lists take a whole new value, { "$append": [...] } or { "$remove": [index, ...] }.'
            : ''),
      },
      overwrite: {
        type: 'boolean',
        description: 'Also replace fields the user edited (default false: they are skipped).',
      },
    },
    required: ['values'],
    additionalProperties: false,
  }
  if ($defs !== undefined) out.$defs = tidyDeep($defs, 0)
  if (definitions !== undefined) out.definitions = tidyDeep(definitions, 0)
  return out
}
