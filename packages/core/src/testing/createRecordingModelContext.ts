import type { WebMCPModelContext, WebMCPTool } from '../webmcp/modelContext'
import type { WebMCPToolSource } from './webmcpSurface'

/** A model context that keeps what is registered on it, for tests and scripted agents. */
export interface RecordingModelContext extends WebMCPModelContext, WebMCPToolSource {
  /** The tools registered right now, in registration order. */
  listTools(): WebMCPTool[]
}

/**
 * A stand-in for `document.modelContext` with the behaviour hosts share: names are unique (a
 * second registration of a name throws) and aborting a registration's signal unregisters it.
 * Pass it to `webmcp({ modelContext })`, then to `createScriptedAgent({ webmcp })`.
 *
 * @example
 * const modelContext = createRecordingModelContext()
 * tm.use(webmcp({ modelContext }))
 * const agent = createScriptedAgent({ webmcp: modelContext })
 */
export function createRecordingModelContext(): RecordingModelContext {
  const tools = new Map<string, WebMCPTool>()
  return {
    registerTool(tool, options) {
      if (tools.has(tool.name)) throw new Error(`Duplicate tool name: ${tool.name}`)
      const signal = options?.signal
      if (signal?.aborted) return
      tools.set(tool.name, tool)
      signal?.addEventListener(
        'abort',
        () => {
          if (tools.get(tool.name) === tool) tools.delete(tool.name)
        },
        { once: true },
      )
    },
    listTools: () => [...tools.values()],
  }
}
