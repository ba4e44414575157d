import type { AgentSurface, ShownTool, SurfaceAnswer } from './agentSurface'
import { asToolResult, errorAnswer } from './agentSurface'

/** A tool as an MCP server lists it (`tools/list`). */
export interface McpListedTool {
  name: string
  description?: string
  inputSchema?: unknown
  _meta?: Record<string, unknown>
  [key: string]: unknown
}

/**
 * The part of an MCP client the scripted agent uses; the official SDK's `Client` fits as is.
 * Core depends on no MCP package, so this is all it asks for.
 */
export interface McpToolClient {
  listTools(): Promise<{ tools: McpListedTool[] }>
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<{
    content?: unknown
    structuredContent?: unknown
    isError?: unknown
    [key: string]: unknown
  }>
}

/** `_meta` key under which `toolmark-mcp` lists a tool's full page name. */
const NAME_META_KEY = 'toolmark/name'

const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? content
        .map((item: { type?: unknown; text?: unknown }) =>
          item?.type === 'text' && typeof item.text === 'string' ? item.text : '',
        )
        .join('\n')
    : ''

/** The `ToolResult` a text block holds after its `[…] ` markers, if it holds one. */
function resultOfText(text: string) {
  try {
    return asToolResult(JSON.parse(text.replace(/^(\[[^\]\n]*\] )+/, '')))
  } catch {
    return undefined
  }
}

/**
 * A desktop agent's view: the MCP client's `tools/list` (names, descriptions, input schemas),
 * calls through `tools/call`. The model reads the result's text content; the outcome comes from
 * its `structuredContent`, or is an `error` carrying the text when the server sent none.
 */
export function mcpSurface(client: McpToolClient): AgentSurface {
  return {
    kind: 'mcp',
    async list() {
      const { tools: listed } = await client.listTools()
      const tools: ShownTool[] = listed.map((tool) => {
        const fullName = tool._meta?.[NAME_META_KEY]
        return {
          name: typeof fullName === 'string' ? fullName : tool.name,
          shownAs: tool.name,
          description: tool.description ?? '',
          inputShown: true,
        }
      })
      return { text: JSON.stringify(listed), tools }
    },
    async call(tool, input): Promise<SurfaceAnswer> {
      const args =
        input !== null && typeof input === 'object' && !Array.isArray(input)
          ? (input as Record<string, unknown>)
          : {}
      let reply: Awaited<ReturnType<McpToolClient['callTool']>>
      try {
        reply = await client.callTool({ name: tool.shownAs, arguments: args })
      } catch (error) {
        return errorAnswer(error instanceof Error ? error.message : String(error))
      }
      const text = textOf(reply.content)
      // A tool listed with an outputSchema sends its data as structuredContent (or none when it
      // failed): the whole result is then the JSON of the text, after its markers.
      const result = asToolResult(reply.structuredContent) ?? resultOfText(text)
      return result ? { text, result } : errorAnswer(text)
    },
  }
}
