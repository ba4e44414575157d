import { isCaller, isObject } from '../base/guards'
import {
  inputJsonSchema,
  outputJsonSchema,
  signatureOf,
  type SchemaConversion,
} from '../schema/jsonSchema'
import type { JsonSchemaConverter } from '../schema/jsonSchemaConverter'
import type { RegistryInternals, ToolRecord } from '../tool/toolRecord'
import { deepFreeze } from '../base/results'
import type { Caller, JsonSchema, Manifest, ManifestEntry } from '../types'

type Detail = 'summary' | 'full'

/** The manifests of one registry: built on demand, cached until the next revision. */
export interface Manifests {
  manifest(options?: { caller?: Caller; detail?: Detail }): Manifest
  describe(name: string, options?: { caller?: Caller }): ManifestEntry | undefined
  /** Forgets the cached manifests (every change calls it; entries per tool stay cached). */
  clear(): void
}

const byName = (a: ToolRecord, b: ToolRecord) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

export function createManifests(
  internals: RegistryInternals,
  converter: JsonSchemaConverter | undefined,
): Manifests {
  const cache = new Map<string, Manifest>()

  // Conversions are shared page-wide (one per schema object); a failed one is reported once
  // per registry, not once per tool that uses it or per revision.
  const reported = new WeakSet<SchemaConversion>()

  function schemaOf(record: ToolRecord): JsonSchema | undefined {
    if (record.schema === undefined) {
      const conversion = inputJsonSchema(record.def.input, record.def.inputSchema, converter)
      record.schema = conversion.schema ?? null
      if (conversion.failed && !reported.has(conversion)) {
        reported.add(conversion)
        internals.toolError('json_schema_failed', { record }, conversion.cause)
      }
    }
    return record.schema ?? undefined
  }

  /** One tool's entry; a tool's definition never changes, so entries live as long as the tool. */
  function entryOf(record: ToolRecord, detail: Detail): ManifestEntry {
    const cached = detail === 'full' ? record.fullEntry : record.summaryEntry
    if (cached) return cached
    const { def } = record
    const schema = schemaOf(record)
    const entry = { name: record.name, llmName: record.llmName } as ManifestEntry
    if (typeof def.title === 'string' && def.title) entry.title = def.title
    entry.description = def.description
    entry.hints = { ...record.hints }
    const budget = detail === 'summary' ? internals.limits.signatureBudget : Infinity
    const signature = signatureOf(schema, budget)
    if (signature !== undefined) entry.signature = signature
    if (detail === 'full' && schema) entry.inputSchema = schema
    if (detail === 'full') {
      const output = outputJsonSchema(def.output).schema
      if (output) entry.outputSchema = output
    }
    deepFreeze(entry)
    if (detail === 'full') record.fullEntry = entry
    else record.summaryEntry = entry
    return entry
  }

  // The registered tools in name order, kept across revisions: a revision that adds or removes a
  // few tools merges those in instead of sorting every tool again.
  let ordered: ToolRecord[] = []
  const inOrder = new Set<ToolRecord>()

  function recordsInNameOrder(): readonly ToolRecord[] {
    const { tools } = internals
    let added: ToolRecord[] | undefined
    for (const record of tools.values()) {
      if (!inOrder.has(record)) (added ??= []).push(record)
    }
    // Every current tool is known and the counts match: nothing was added or removed.
    if (!added && tools.size === ordered.length) return ordered
    const kept = ordered.filter((record) => {
      if (tools.get(record.name) === record) return true
      inOrder.delete(record)
      return false
    })
    if (!added) return (ordered = kept)
    added.sort(byName)
    for (const record of added) inOrder.add(record)
    const merged: ToolRecord[] = []
    let i = 0
    let j = 0
    while (i < kept.length || j < added.length) {
      if (j >= added.length || (i < kept.length && kept[i].name < added[j].name)) {
        merged.push(kept[i++])
      } else merged.push(added[j++])
    }
    return (ordered = merged)
  }

  function manifest(options?: { caller?: Caller; detail?: Detail }): Manifest {
    const o = isObject(options) ? options : {}
    const caller = o.caller === undefined ? 'inapp' : isCaller(o.caller) ? o.caller : undefined
    const detail: Detail = o.detail === 'full' ? 'full' : 'summary'
    const key = `${caller ?? '?'}|${detail}`
    const cached = cache.get(key)
    if (cached) return cached
    const tools: ManifestEntry[] = []
    if (caller) {
      for (const record of recordsInNameOrder()) {
        if (internals.access(record, caller) === 'ok') tools.push(entryOf(record, detail))
      }
    }
    const result: Manifest = Object.freeze({
      rev: internals.rev(),
      tools: Object.freeze(tools) as ManifestEntry[],
    })
    cache.set(key, result)
    return result
  }

  function describe(name: string, options?: { caller?: Caller }): ManifestEntry | undefined {
    const o = isObject(options) ? options : {}
    const caller = o.caller === undefined ? 'inapp' : o.caller
    if (typeof name !== 'string' || !isCaller(caller)) return undefined
    const record = internals.tools.get(name)
    if (!record || internals.access(record, caller) !== 'ok') return undefined
    return entryOf(record, 'full')
  }

  return { manifest, describe, clear: () => cache.clear() }
}
