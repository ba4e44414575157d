import type { WebMCPTool, WebMCPToolResponse } from '../webmcp/modelContext'
import type { AgentSurface, ShownTool, SurfaceAnswer } from './agentSurface'
import { asToolResult, errorAnswer } from './agentSurface'

/** Where the WebMCP surface reads the registered tools: a recording model context fits. */
export interface WebMCPToolSource {
  /** The tools registered right now, as the host holds them (with their `execute`). */
  listTools(): readonly WebMCPTool[] | Promise<readonly WebMCPTool[]>
}

/**
 * What a browser agent's model is given of one tool: everything but `execute`, read member by
 * member. Chrome 160's `getTools()` returns `Tool` objects whose members are getters (nothing to
 * spread or stringify) and whose empty members are `null`: `null` counts as absent here.
 */
const listed = (tool: WebMCPTool) => {
  const shown: Record<string, unknown> = { name: tool.name }
  const title = tool.title as string | null | undefined
  if (title !== undefined && title !== null) shown.title = title
  shown.description = tool.description
  const inputSchema = tool.inputSchema as WebMCPTool['inputSchema'] | null
  if (inputSchema !== undefined && inputSchema !== null) shown.inputSchema = inputSchema
  const outputSchema = tool.outputSchema as WebMCPTool['outputSchema'] | null
  if (outputSchema !== undefined && outputSchema !== null) shown.outputSchema = outputSchema
  const annotations = tool.annotations as WebMCPTool['annotations'] | null
  if (annotations !== undefined && annotations !== null) {
    shown.annotations = {
      readOnlyHint: annotations.readOnlyHint,
      untrustedContentHint: annotations.untrustedContentHint,
      consequentialHint: annotations.consequentialHint,
      ...(annotations.destructiveHint === true ? { destructiveHint: true } : {}),
    }
  }
  return shown
}

const textOf = (response: WebMCPToolResponse): string =>
  Array.isArray(response?.content)
    ? response.content.map((item) => (typeof item?.text === 'string' ? item.text : '')).join('')
    : JSON.stringify(response)

/**
 * A browser agent's view: the tools registered on a model context, each with its name,
 * description and input schema (so every input shape is shown); calls run the tool's `execute`
 * as the host does and the model reads the response's text.
 */
export function webmcpSurface(source: WebMCPToolSource): AgentSurface {
  let current: readonly WebMCPTool[] = []
  return {
    kind: 'webmcp',
    async list() {
      current = [...(await source.listTools())].sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      )
      const tools: ShownTool[] = current.map((tool) => ({
        name: tool.name,
        shownAs: tool.name,
        description: tool.description,
        // A tool registered without a schema takes no input: nothing is hidden.
        inputShown: true,
      }))
      return { text: JSON.stringify(current.map(listed)), tools }
    },
    async call(tool, input): Promise<SurfaceAnswer> {
      const registered = current.find((t) => t.name === tool.shownAs)
      if (!registered) return errorAnswer(`Tool not found: ${tool.shownAs}`)
      let response: WebMCPToolResponse
      try {
        response = await registered.execute(input, { signal: new AbortController().signal })
      } catch (error) {
        return errorAnswer(error instanceof Error ? error.message : String(error))
      }
      const text = textOf(response)
      const result = asToolResult(response?.structuredContent)
      return result ? { text, result } : errorAnswer(text)
    },
  }
}
