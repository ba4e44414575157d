import { isObject } from '../base/guards'
import { deepFreeze } from '../base/results'
import type { JsonSchema, StandardSchemaV1 } from '../types'
import type { JsonSchemaConverter } from './jsonSchemaConverter'

/**
 * What converting one schema object gave. Made once per schema object (and per converter) and
 * shared by every tool, registry and surface that uses that object, so its identity can be
 * compared and used as a cache key.
 */
export interface SchemaConversion {
  /**
   * The JSON Schema, deep-frozen. Always a copy: the object the app passed (an `inputSchema`, or
   * what a converter returned) is never handed out. `undefined` when there is none.
   */
  readonly schema: JsonSchema | undefined
  /** Set when the conversion threw (the schema is then `undefined`); it is never retried. */
  readonly failed: boolean
  /** What the conversion threw, when it did. */
  readonly cause?: unknown
}

/** Whether a tool has a JSON Schema to offer: an override, no input, a Standard JSON Schema or a converter. */
export function hasJsonSchemaSource(
  input: StandardSchemaV1 | undefined,
  override: JsonSchema | undefined,
  converter: JsonSchemaConverter | undefined,
): boolean {
  return (
    !!override ||
    !input ||
    typeof input['~standard'].jsonSchema?.input === 'function' ||
    !!converter
  )
}

/** The empty-object schema of a tool without input. */
export const NO_INPUT_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: {},
  additionalProperties: false,
})

const NO_INPUT: SchemaConversion = Object.freeze({ schema: NO_INPUT_SCHEMA, failed: false })
const NONE: SchemaConversion = Object.freeze({ schema: undefined, failed: false })

// Keyed by the schema object, so a conversion lives exactly as long as the schema it came from.
// The Standard JSON Schema target is fixed (draft 2020-12), so one entry per schema covers it;
// a converter is the app's own function, so its conversions are kept per converter.
const fromOverride = new WeakMap<object, SchemaConversion>()
const fromStandard = new WeakMap<object, SchemaConversion>()
// Also keyed by the `~standard.jsonSchema` object that does the converting: a schema that
// delegates to another's (the React hooks' `latestSchema`, one per mounted tool) shares its
// conversion, so 1,000 components declaring one schema convert it once, not 1,000 times
// (bench/webmcp-react.measure.tsx in jsdom: 5.1× the plain components before, 2.85× after).
const fromStandardMethods = new WeakMap<object, SchemaConversion>()
const fromConverter = new WeakMap<object, WeakMap<JsonSchemaConverter, SchemaConversion>>()

/** `cache`'s value for `key`, made by `make` the first time it is asked for. */
function memo<K extends object, V extends object>(cache: WeakMap<K, V>, key: K, make: () => V): V {
  let value = cache.get(key)
  if (!value) cache.set(key, (value = make()))
  return value
}

/**
 * Runs one conversion: its result copied and frozen, or what it threw. The copy leaves out the
 * root's `$schema`: every schema here is draft 2020-12, and the keyword only costs bytes in
 * every entry, describe answer and host listing (and some model APIs refuse it).
 */
function convert(produce: () => unknown): SchemaConversion {
  try {
    const schema = produce()
    if (!isObject(schema)) return NONE
    const copy = structuredClone(schema)
    delete copy.$schema
    return Object.freeze({ schema: deepFreeze(copy), failed: false })
  } catch (cause) {
    return Object.freeze({ schema: undefined, failed: true, cause })
  }
}

function standardConversion(input: StandardSchemaV1): SchemaConversion {
  const std = input['~standard'].jsonSchema!
  return convert(() => {
    try {
      return std.input({ target: 'draft-2020-12' })
    } catch {
      // Types JSON cannot carry (dates, maps): keep what can be said and let those be anything.
      return std.input({ target: 'draft-2020-12', libraryOptions: { unrepresentable: 'any' } })
    }
  })
}

/**
 * The JSON Schema of a Standard Schema: its Standard JSON Schema (draft 2020-12) when it has
 * one, else what `converter` makes of it. Converted once per schema object (and converter) for
 * the whole page; every later call returns the same {@link SchemaConversion}.
 *
 * A schema object mutated after its first conversion keeps its first JSON Schema (for every tool
 * and registry that uses it): build a new schema object to change what agents see.
 */
export function jsonSchemaOf(
  input: StandardSchemaV1,
  converter?: JsonSchemaConverter,
): SchemaConversion {
  const std = input['~standard'].jsonSchema
  if (std && typeof std.input === 'function') {
    return memo(fromStandard, input, () =>
      memo(fromStandardMethods, std, () => standardConversion(input)),
    )
  }
  if (!converter) return NONE
  const byConverter = memo(fromConverter, input, () => new WeakMap())
  return memo(byConverter, converter, () => convert(() => converter(input)))
}

/**
 * A tool's input JSON Schema: `inputSchema` (the override) → the input's Standard JSON Schema →
 * `converter`; the empty-object schema for a tool without input. Cached per schema object, see
 * {@link jsonSchemaOf}; an override is copied and frozen once per object too.
 */
export function inputJsonSchema(
  input: StandardSchemaV1 | undefined,
  override: JsonSchema | undefined,
  converter: JsonSchemaConverter | undefined,
): SchemaConversion {
  if (override) return memo(fromOverride, override, () => convert(() => override))
  if (!input) return NO_INPUT
  return jsonSchemaOf(input, converter)
}

const fromOutput = new WeakMap<object, SchemaConversion>()
const fromOutputMethods = new WeakMap<object, SchemaConversion>()

/**
 * A tool's output JSON Schema, from the output schema's Standard JSON Schema (its `output` side,
 * draft 2020-12); none when the schema has no Standard JSON Schema. Converted once per schema
 * object, like {@link jsonSchemaOf}.
 */
export function outputJsonSchema(output: StandardSchemaV1 | undefined): SchemaConversion {
  const std = output?.['~standard'].jsonSchema
  if (!output || !std || typeof std.output !== 'function') return NONE
  return memo(fromOutput, output, () => memo(fromOutputMethods, std, () => outputConversion(std)))
}

function outputConversion(std: NonNullable<StandardSchemaV1['~standard']['jsonSchema']>) {
  return convert(() => {
    try {
      return std.output!({ target: 'draft-2020-12' })
    } catch {
      return std.output!({
        target: 'draft-2020-12',
        libraryOptions: { unrepresentable: 'any' },
      })
    }
  })
}

// Frozen schemas cannot change, so their rendering is kept per schema object and budget.
const signatures = new WeakMap<object, Map<number, string | undefined>>()

/**
 * {@link renderSignature}, kept per (frozen) schema object and budget: tools that share a
 * schema share its signature. A schema that is not frozen is rendered every time.
 */
export function signatureOf(schema: JsonSchema | undefined, budget: number): string | undefined {
  if (!schema || !Object.isFrozen(schema)) return renderSignature(schema, budget)
  let byBudget = signatures.get(schema)
  if (!byBudget) {
    byBudget = new Map()
    signatures.set(schema, byBudget)
  }
  if (byBudget.has(budget)) return byBudget.get(budget)
  const signature = renderSignature(schema, budget)
  byBudget.set(budget, signature)
  return signature
}

const quote = (v: unknown) => JSON.stringify(v)

/**
 * A compact one-line rendering of a JSON Schema in TypeScript's notation without spaces, e.g.
 * `{values:{title?:string,priority?:"low"|"high"},overwrite?:boolean}`: every character is a
 * token a model reads on every turn. Returns `undefined` when it would exceed `budget` characters.
 */
export function renderSignature(
  schema: JsonSchema | undefined,
  budget: number,
): string | undefined {
  if (!schema) return undefined
  const TOO_LONG = Symbol('too long')
  let length = 0
  // Every piece goes through `emit`, so a long schema stops as soon as it is over budget.
  const emit = (text: string) => {
    length += text.length
    if (length > budget) throw TOO_LONG
    return text
  }
  const render = (s: unknown, depth: number): string => {
    if (s === true || s === undefined || s === null || typeof s !== 'object') return emit('any')
    const node = s as Record<string, unknown>
    if (depth > 8) return emit('…')
    if (Array.isArray(node.enum)) return emit(node.enum.map(quote).join('|'))
    if ('const' in node) return emit(quote(node.const))
    const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined
    if (Array.isArray(union)) {
      return union.map((u, i) => (i > 0 ? emit('|') : '') + render(u, depth + 1)).join('')
    }
    const type = node.type
    if (Array.isArray(type)) return emit(type.join('|'))
    if (type === 'array') {
      const items = render(node.items, depth + 1)
      if (!items.includes('|')) return items + emit('[]')
      emit('()[]')
      return `(${items})[]`
    }
    if (type === 'object' || node.properties) {
      const props = (node.properties ?? {}) as Record<string, unknown>
      const required = new Set((node.required as string[] | undefined) ?? [])
      const keys = Object.keys(props)
      if (keys.length === 0) {
        const extra = node.additionalProperties
        if (extra && typeof extra === 'object') {
          return emit('{[key:string]:') + render(extra, depth + 1) + emit('}')
        }
        return emit('{}')
      }
      let out = emit('{')
      keys.forEach((key, i) => {
        const label = /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key)
        out += emit(`${i > 0 ? ',' : ''}${label}${required.has(key) ? '' : '?'}:`)
        out += render(props[key], depth + 1)
      })
      return out + emit('}')
    }
    if (typeof type === 'string') return emit(type)
    return emit('any')
  }
  try {
    return render(schema, 0)
  } catch (e) {
    if (e === TOO_LONG) return undefined
    throw e
  }
}

// Labels are read from frozen schemas, so they are kept per schema object.
const titles = new WeakMap<object, Readonly<Record<string, string>>>()

/**
 * The `title` of every object property in a JSON Schema, by dot path (`requester.email`), for
 * people reading a confirmation: the dialog shows these instead of the path. Arrays are not
 * walked (their items have no fixed path). Kept per (frozen) schema object.
 */
export function titlesOf(schema: JsonSchema | undefined): Readonly<Record<string, string>> {
  if (!schema) return EMPTY_TITLES
  let found = titles.get(schema)
  if (!found) {
    const out: Record<string, string> = {}
    collectTitles(schema, '', out, 0)
    found = Object.freeze(out)
    if (Object.isFrozen(schema)) titles.set(schema, found)
  }
  return found
}

const EMPTY_TITLES: Readonly<Record<string, string>> = Object.freeze({})

function collectTitles(
  schema: unknown,
  prefix: string,
  out: Record<string, string>,
  depth: number,
): void {
  if (!isObject(schema) || depth > 16) return
  const properties = schema.properties
  if (!isObject(properties)) return
  for (const [key, child] of Object.entries(properties)) {
    const path = prefix === '' ? key : `${prefix}.${key}`
    if (isObject(child) && typeof child.title === 'string' && child.title.trim() !== '') {
      out[path] = child.title
    }
    collectTitles(child, path, out, depth + 1)
  }
}
