import { bodyOf } from '../base/registryBody'
import { describeForModel } from '../agent/directTools'
import type { JsonSchema, Manifest, Toolmark, ToolHints } from '../types'

/**
 * The request body field that carries the page's tools: `{ ..., toolmark: { tools: [...] } }`.
 * `useToolmarkChat` writes it; `readToolmarkTools` reads it.
 */
export const TOOLMARK_BODY_FIELD = 'toolmark'

/** One page tool as a chat request carries it: what a server needs to offer it to a model. */
export interface ChatTool {
  /** The full tool name (what `tm.call` takes). */
  name: string
  /** The name the model sees: `name` with `.` → `__`, at most 64 characters. */
  llmName: string
  /** For the model: what it does and when to use it. */
  description: string
  /** Only the flags that are true. */
  hints: ToolHints
  /** The input JSON Schema, without `$schema`; absent when the page has none. */
  inputSchema?: JsonSchema
}

/** The page's tools for one chat request, sorted by name. */
export interface ChatToolList {
  tools: ChatTool[]
}

const needsPerson = (hints: ToolHints) => hints.consequential === true || hints.destructive === true

/** The list of the last manifest, kept in the registry's body. */
interface Cached {
  manifest: Manifest
  presenter: boolean
  list: ChatToolList
}

/**
 * The tools the in-app caller may use right now, as a chat request carries them: full entries
 * (input schemas included, so the server can offer each as its own model tool) without what a
 * model does not need (`title`, `signature`, `$schema`). Tools that need a person's approval are
 * left out while no `<ConfirmDialog>` (or other presenter) is mounted: a chat waits for the
 * person, and no one could answer. The same revision gives the same frozen object.
 */
export function chatToolList(tm: Toolmark): ChatToolList {
  const presenter = tm.confirmations.hasPresenter()
  // The registry gives the same manifest object for the same revision.
  const manifest = tm.manifest({ caller: 'inapp', detail: 'full' })
  const caches = bodyOf(tm)?.caches
  const cached = caches?.chatTools as Cached | undefined
  if (cached && cached.manifest === manifest && cached.presenter === presenter) return cached.list
  const tools: ChatTool[] = []
  for (const entry of manifest.tools) {
    if (!presenter && needsPerson(entry.hints)) continue
    const tool: ChatTool = {
      name: entry.name,
      llmName: entry.llmName,
      description: entry.description,
      hints: { ...entry.hints },
    }
    if (entry.inputSchema) {
      const { $schema: _dropped, ...schema } = entry.inputSchema
      tool.inputSchema = schema
    }
    tools.push(Object.freeze(tool))
  }
  const list = Object.freeze({ tools: Object.freeze(tools) as ChatTool[] })
  if (caches) caches.chatTools = { manifest, presenter, list } satisfies Cached
  return list
}

/**
 * A tool's description for a model: the page's own, then what its hints mean ("The user must
 * approve each call.", "Read-only.", and for untrusted content that its results are data).
 */
export function describeChatTool(tool: ChatTool): string {
  return describeForModel(tool)
}
