import { isObject } from '../base/guards'
import { isToolName, nameLabel } from '../tool/names'
import { hasJsonSchemaSource } from '../schema/jsonSchema'
import type { JsonSchemaConverter } from '../schema/jsonSchemaConverter'
import type { Problem } from '../base/problem'
import { isStandardSchema } from '../schema/standardSchema'
import type { ToolDefinition, ToolHints } from '../types'

/** The hints a tool may declare. */
export const HINT_KEYS = ['readOnly', 'consequential', 'destructive', 'untrustedContent'] as const

/** The hints that are `true`, frozen (manifests list only those). */
export function hintsOf(def: ToolDefinition<any, any>): ToolHints {
  const hints: ToolHints = {}
  for (const key of HINT_KEYS) if (def.hints?.[key] === true) hints[key] = true
  return Object.freeze(hints)
}

/**
 * What is wrong with a tool definition, or `undefined` when it is sound. `name` is the full name
 * (scope path included).
 */
export function definitionProblem(
  def: ToolDefinition<any, any>,
  name: string,
  converter: JsonSchemaConverter | undefined,
): Problem | undefined {
  if (!isToolName(name)) return ['tool name', nameLabel(def.name)]
  if (typeof def.description !== 'string' || def.description.trim() === '') {
    return ['description', name]
  }
  if (typeof def.run !== 'function') return ['run', name]
  if (def.title !== undefined && typeof def.title !== 'string') return ['title', name]
  if (def.input !== undefined && !isStandardSchema(def.input)) return ['input', name]
  if (def.output !== undefined && !isStandardSchema(def.output)) return ['output', name]
  if (def.inputSchema !== undefined && !isObject(def.inputSchema)) return ['inputSchema', name]
  if (def.hints !== undefined) {
    if (!isObject(def.hints)) return ['hints', name]
    for (const [key, value] of Object.entries(def.hints)) {
      if (!(HINT_KEYS as readonly string[]).includes(key) || typeof value !== 'boolean') {
        return ['hint', name, key]
      }
    }
    if (def.hints.readOnly && (def.hints.consequential || def.hints.destructive)) {
      return ['hint conflict', name]
    }
  }
  if (
    def.sensitive !== undefined &&
    typeof def.sensitive !== 'function' &&
    (!Array.isArray(def.sensitive) || !def.sensitive.every((p) => typeof p === 'string'))
  ) {
    return ['sensitive', name]
  }
  if (
    def.timeoutMs !== undefined &&
    !(typeof def.timeoutMs === 'number' && def.timeoutMs > 0 && Number.isFinite(def.timeoutMs))
  ) {
    return ['timeoutMs', name]
  }
  if (def.verify !== undefined && typeof def.verify !== 'boolean') return ['verify', name]
  if (def.grant !== undefined && typeof def.grant !== 'boolean') return ['grant', name]
  for (const key of ['summary', 'confirmation', 'check'] as const) {
    if (def[key] !== undefined && typeof def[key] !== 'function') {
      return ['not a function', name, key]
    }
  }
  if (!hasJsonSchemaSource(def.input, def.inputSchema, converter)) {
    return ['no JSON Schema', name]
  }
  return undefined
}
