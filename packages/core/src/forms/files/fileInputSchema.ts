import { DEFAULT_MAX_FILES, acceptList, formatBytes } from './fileRules'
import type { FileFieldRules } from '../values/fileValues'

// What a fill's input schema says of declared file fields. Only the code `fileFields()` brings
// reaches this module.

type Schema = Record<string, unknown>

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** The JSON Schema of one file field's value: `{ ref }` or `{ url }`, as the app takes them. */
function fileSchema(rules: FileFieldRules, means: { ref: boolean; url: boolean }): Schema {
  const kinds: Schema[] = []
  const one = (key: string, description: string): Schema => ({
    type: 'object',
    properties: { [key]: { type: 'string', description } },
    required: [key],
    additionalProperties: false,
  })
  if (means.ref) kinds.push(one('ref', 'A file the person gave you, by its id'))
  if (means.url) kinds.push(one('url', 'An https URL of an allowed origin'))
  const accept = acceptList(rules.accept)
  const facts = [
    accept.length > 0 ? `types ${accept.join(', ')}` : '',
    rules.maxBytes ? `at most ${formatBytes(rules.maxBytes)}` : '',
  ].filter((f) => f !== '')
  const single: Schema =
    kinds.length === 1 ? kinds[0] : kinds.length > 1 ? { oneOf: kinds } : { not: {} }
  const description = `A file${facts.length > 0 ? ` (${facts.join(', ')})` : ''}.`
  if (!rules.multiple) return { ...single, description }
  return {
    type: 'array',
    items: single,
    maxItems: rules.maxFiles ?? DEFAULT_MAX_FILES,
    description: `Files${facts.length > 0 ? ` (${facts.join(', ')})` : ''}.`,
  }
}

/** Puts each file field's schema at its path in a (partial) `values` schema of `<form>.fill`. */
export function withFileSchemas(
  values: Schema,
  files: ReadonlyMap<string, FileFieldRules>,
  means: { ref: boolean; url: boolean },
): Schema {
  let out = values
  for (const [path, rules] of files) {
    const segments = path.split('.')
    const put = (schema: Schema, i: number): Schema => {
      const properties = isSchema(schema.properties) ? schema.properties : {}
      const key = segments[i]
      const child =
        i + 1 === segments.length
          ? fileSchema(rules, means)
          : put(isSchema(properties[key]) ? (properties[key] as Schema) : {}, i + 1)
      return { ...schema, properties: { ...properties, [key]: child } }
    }
    out = put(out, 0)
  }
  return out
}
