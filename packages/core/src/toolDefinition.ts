import { isObject } from './guards'
import { isToolName, nameLabel } from './names'
import { jsonSchemaSource, type JsonSchemaConverter } from './jsonSchema'
import { isStandardSchema } from './schema'
import type { ToolDefinition, ToolHints } from './types'

/** The hints a tool may declare. */
export const HINT_KEYS = ['readOnly', 'consequential', 'destructive', 'untrustedContent'] as const

/** The hints that are `true`, frozen (manifests list only those). */
export function hintsOf(def: ToolDefinition<any, any>): ToolHints {
  const hints: ToolHints = {}
  for (const key of HINT_KEYS) if (def.hints?.[key] === true) hints[key] = true
  return Object.freeze(hints)
}

/**
 * What is wrong with a tool definition, as a message naming the fix, or `undefined` when it is
 * sound. `name` is the full name (scope path included).
 */
export function definitionProblem(
  def: ToolDefinition<any, any>,
  name: string,
  converter: JsonSchemaConverter | undefined,
): string | undefined {
  const label = JSON.stringify(nameLabel(def.name))
  if (!isToolName(name)) {
    return `Tool name ${label} is invalid: use segments of letters, digits, "_" or "-" joined by ".", at most 128 characters`
  }
  if (typeof def.description !== 'string' || def.description.trim() === '') {
    return `Tool "${name}" needs a description: tell the model what it does and when to use it`
  }
  if (typeof def.run !== 'function') return `Tool "${name}" needs a run(input, ctx) function`
  if (def.title !== undefined && typeof def.title !== 'string') {
    return `Tool "${name}" has a title that is not a string`
  }
  if (def.input !== undefined && !isStandardSchema(def.input)) {
    return `Tool "${name}" has an input that is not a Standard Schema: pass a zod 4 schema (or any Standard Schema v1)`
  }
  if (def.output !== undefined && !isStandardSchema(def.output)) {
    return `Tool "${name}" has an output that is not a Standard Schema: pass a zod 4 schema (or any Standard Schema v1)`
  }
  if (def.inputSchema !== undefined && !isObject(def.inputSchema)) {
    return `Tool "${name}" has an inputSchema that is not a JSON Schema object`
  }
  if (def.hints !== undefined) {
    if (!isObject(def.hints)) return `Tool "${name}" has hints that are not an object`
    for (const [key, value] of Object.entries(def.hints)) {
      if (!(HINT_KEYS as readonly string[]).includes(key) || typeof value !== 'boolean') {
        return `Tool "${name}" has an unknown or non-boolean hint "${key}": use ${HINT_KEYS.join(', ')}`
      }
    }
    if (def.hints.readOnly && (def.hints.consequential || def.hints.destructive)) {
      return `Tool "${name}" cannot be readOnly and consequential/destructive at once: drop one hint`
    }
  }
  if (
    def.sensitive !== undefined &&
    typeof def.sensitive !== 'function' &&
    (!Array.isArray(def.sensitive) || !def.sensitive.every((p) => typeof p === 'string'))
  ) {
    return `Tool "${name}" has sensitive paths that are not a string array (or a function returning one)`
  }
  if (
    def.timeoutMs !== undefined &&
    !(typeof def.timeoutMs === 'number' && def.timeoutMs > 0 && Number.isFinite(def.timeoutMs))
  ) {
    return `Tool "${name}" has an invalid timeoutMs: use a positive number of milliseconds`
  }
  for (const key of ['summary', 'confirmation', 'check'] as const) {
    if (def[key] !== undefined && typeof def[key] !== 'function') {
      return `Tool "${name}" has a ${key} that is not a function`
    }
  }
  if (jsonSchemaSource(def.input, def.inputSchema, converter) === undefined) {
    return `Tool "${name}" has an input schema without a JSON Schema: use zod ≥ 4.2, pass inputSchema, or give createToolmark a jsonSchema converter`
  }
  return undefined
}
