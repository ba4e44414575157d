import type { Toolmark } from '../types'
import type { ToolRecord } from '../tool/toolRecord'

/** What a registry tells its own linter about a tool, beyond the manifest entry. */
export interface DefinitionFacts {
  /** Whether the tool says what a confirmation shows (`summary`, or `confirmation().summary`). */
  readonly summary: boolean
  /** Whether a dot path of `input` is redacted (`sensitive`, form fields marked sensitive). */
  sensitive(path: string, input?: unknown): boolean
}

// A registered symbol, so a registry made by one copy of core is still readable by another's.
const DEFINITIONS: unique symbol = Symbol.for('toolmark.definitions') as never

interface WithDefinitions {
  readonly [DEFINITIONS]?: (name: string) => DefinitionFacts | undefined
}

/**
 * Lends the linter (`lintManifestOf`) read access to what manifests leave out, as a read-only,
 * non-enumerable property keyed by a symbol: off the registry's public shape. Called once, by
 * `createToolmark`.
 */
export function attachDefinitions(tm: Toolmark, tools: ReadonlyMap<string, ToolRecord>): void {
  const facts = (name: string): DefinitionFacts | undefined => {
    const record = tools.get(name)
    if (!record) return undefined
    const { def } = record
    return {
      summary: typeof def.summary === 'function' || typeof def.confirmation === 'function',
      sensitive: (path, input) => record.sensitive.within(input).matches(path),
    }
  }
  Object.defineProperty(tm, DEFINITIONS, { value: facts })
}

/** The facts of one tool of a registry made by `createToolmark`, or undefined. */
export function definitionFacts(tm: Toolmark, name: string): DefinitionFacts | undefined {
  return (tm as WithDefinitions)[DEFINITIONS]?.(name)
}
