import { bodyOf } from '../base/registryBody'
import { describeForModel } from '../agent/directTools'
import type { Manifest, Toolmark } from '../types'
import type { AgUiTool } from './agUiTypes'

/** The `metadata` key under which each AG-UI tool carries its full name and hints. */
export const AG_UI_METADATA_KEY = 'toolmark'

/** Options of {@link agUiTools}. */
export interface AgUiToolsOptions {
  /**
   * Leave out tools that need a person's approval (default `false`). A session in `inline` mode
   * sets it while no `<ConfirmDialog>` is mounted: nobody could answer.
   */
  withoutApprovals?: boolean
}

/** The list of the last manifest, kept in the registry's body. */
interface Cached {
  manifest: Manifest
  key: string
  list: AgUiTool[]
}

/**
 * The tools the in-app caller may use right now, as AG-UI frontend tools (`RunAgentInput.tools`):
 * `name` is the tool's `llmName` (models refuse dots), `description` says what approvals and
 * untrusted results mean, `parameters` is the input JSON Schema, and `metadata.toolmark` holds
 * the full name and hints for agents that read them. The same revision gives the same frozen
 * array.
 */
export function agUiTools(tm: Toolmark, options: AgUiToolsOptions = {}): readonly AgUiTool[] {
  const manifest = tm.manifest({ caller: 'inapp', detail: 'full' })
  const key = options.withoutApprovals === true ? 'without' : 'all'
  const caches = bodyOf(tm)?.caches
  const cached = caches?.agUiTools as Cached | undefined
  if (cached && cached.manifest === manifest && cached.key === key) return cached.list
  const list: AgUiTool[] = []
  for (const entry of manifest.tools) {
    const needsPerson = entry.hints.consequential === true || entry.hints.destructive === true
    if (needsPerson && options.withoutApprovals === true) continue
    const tool: AgUiTool = {
      name: entry.llmName,
      description: describeForModel(entry),
      parameters: structuredClone(entry.inputSchema ?? { type: 'object' }),
      metadata: { [AG_UI_METADATA_KEY]: { name: entry.name, hints: { ...entry.hints } } },
    }
    list.push(Object.freeze(tool))
  }
  Object.freeze(list)
  if (caches) caches.agUiTools = { manifest, key, list } satisfies Cached
  return list
}
