import type { JsonSchema, StandardSchemaV1 } from '../types'

/**
 * Keeping a tool's schemas stable across renders. A schema written inline
 * (`input: z.object({ ... })`) is a new object on every render; registering again for each one
 * would bump the registry's revision and withdraw the tool's pending confirmations whenever the
 * component renders. So a new schema object only counts as a change when its JSON Schema differs
 * (or, for a schema that has none, when it is another object), and validation always goes to the
 * latest schema through {@link latestSchema}.
 */

type Kind = 'input' | 'output'

const fingerprints = new WeakMap<object, { input?: string | null; output?: string | null }>()

/** The schema's JSON Schema as a string, or `null` when it has none (or cannot render one). */
function fingerprint(schema: StandardSchemaV1, kind: Kind): string | null {
  let cached = fingerprints.get(schema)
  if (!cached) {
    cached = {}
    fingerprints.set(schema, cached)
  }
  if (cached[kind] !== undefined) return cached[kind]
  let value: string | null = null
  try {
    const converter = schema['~standard'].jsonSchema
    const render = kind === 'output' ? (converter?.output ?? converter?.input) : converter?.input
    if (render) value = JSON.stringify(render.call(converter, { target: 'draft-2020-12' }))
  } catch {
    value = null
  }
  cached[kind] = value
  return value
}

/** Whether `next` describes the same schema as `previous`, for registration purposes. */
export function sameSchema(
  previous: StandardSchemaV1 | undefined,
  next: StandardSchemaV1 | undefined,
  kind: Kind,
): boolean {
  if (previous === next) return true
  if (!previous || !next) return false
  const a = fingerprint(previous, kind)
  return a !== null && a === fingerprint(next, kind)
}

/** Whether two explicit JSON Schemas are equal by value. */
export function sameJsonSchema(previous: JsonSchema | undefined, next: JsonSchema | undefined) {
  if (previous === next) return true
  if (!previous || !next) return false
  try {
    return JSON.stringify(previous) === JSON.stringify(next)
  } catch {
    return false
  }
}

/**
 * A schema that describes itself like `registered` (vendor, JSON Schema) but validates with
 * whatever `current()` returns now, so refinements that read fresh props or state stay fresh.
 */
export function latestSchema<T extends StandardSchemaV1>(
  registered: T,
  current: () => StandardSchemaV1 | undefined,
): T {
  const standard = registered['~standard']
  return {
    '~standard': {
      version: 1,
      vendor: standard.vendor,
      validate: (value: unknown) => (current() ?? registered)['~standard'].validate(value),
      ...(standard.jsonSchema ? { jsonSchema: standard.jsonSchema } : {}),
    },
  } as unknown as T
}
