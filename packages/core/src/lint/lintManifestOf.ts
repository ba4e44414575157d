import { definitionFacts } from '../registry/definitions'
import type { Caller, Toolmark } from '../types'
import type { LintEntry, LintManifest } from './rules'

/** Every property path of an input schema as the sensitive check reads it (`cards.0.cvc`). */
function propertyPaths(schema: unknown, path = '', depth = 0): string[] {
  if (typeof schema !== 'object' || schema === null || depth > 16) return []
  const out: string[] = []
  const { properties, items } = schema as { properties?: unknown; items?: unknown }
  if (properties && typeof properties === 'object') {
    for (const [name, child] of Object.entries(properties)) {
      const at = path ? `${path}.${name}` : name
      out.push(at, ...propertyPaths(child, at, depth + 1))
    }
  }
  if (items && typeof items === 'object') {
    out.push(...propertyPaths(items, path ? `${path}.0` : '0', depth + 1))
  }
  return out
}

/**
 * The manifest a linter needs from a live registry: the full manifest as `caller` sees it
 * (default `test`, which sees every class), plus what manifests leave out — whether each tool has
 * a `summary`, and which of its input paths are redacted. `JSON.stringify` it for
 * `toolmark-lint manifest.json`.
 */
export function lintManifestOf(tm: Toolmark, options: { caller?: Caller } = {}): LintManifest {
  const { rev, tools } = tm.manifest({ caller: options.caller ?? 'test', detail: 'full' })
  return {
    rev,
    tools: tools.map((entry) => {
      const out: LintEntry = { ...entry }
      const facts = definitionFacts(tm, entry.name)
      if (facts) {
        out.summary = facts.summary
        out.sensitive = propertyPaths(entry.inputSchema)
          .filter((p) => facts.sensitive(p))
          .map((p) => p.replace(/\.0(?=\.|$)/g, '[]').replace(/^0(?=\.|$)/, '[]'))
      }
      return out
    }),
  }
}
