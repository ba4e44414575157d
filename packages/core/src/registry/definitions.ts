import { bodyOf, type DefinitionFacts } from '../base/registryBody'
import type { Toolmark } from '../types'
import type { ToolRecord } from '../tool/toolRecord'

export type { DefinitionFacts } from '../base/registryBody'

/**
 * What the registry's body lends the linter (`lintManifestOf`), tours and recordings about a
 * tool, beyond what manifests say. `createToolmark` puts it in the body, once.
 */
export function definitionsOf(
  tools: ReadonlyMap<string, ToolRecord>,
): (name: string) => DefinitionFacts | undefined {
  return (name) => {
    const record = tools.get(name)
    if (!record) return undefined
    const { def } = record
    return {
      summary: typeof def.summary === 'function' || typeof def.confirmation === 'function',
      sensitive: (path, input) => record.sensitive.within(input).matches(path),
    }
  }
}

/** The facts of one tool of a registry made by `createToolmark`, or undefined. */
export function definitionFacts(tm: Toolmark, name: string): DefinitionFacts | undefined {
  return bodyOf(tm)?.definitions(name)
}
