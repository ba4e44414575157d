import type { JsonSchema, ToolResult } from '../types'

export { utf8Length as byteLength } from '../protocol/bounds'

/** Where a scripted agent meets the page: what a model is shown there, and how it acts. */
export type AgentSurfaceKind = 'inapp' | 'webmcp' | 'mcp'

/** One tool as a surface shows it to a model. */
export interface ShownTool {
  /** The page's full tool name (`tickets.close`); scripts call tools by it on every surface. */
  name: string
  /** The name the model calls it by on this surface (`tickets__close` over MCP). */
  shownAs: string
  description: string
  /**
   * Whether the model can see the tool's input shape without asking: a signature in the summary
   * (in-app `page_call`) or an input schema (direct tools, WebMCP, MCP).
   */
  inputShown: boolean
}

/** What the model is given before a request: the tools as text, and the same tools parsed. */
export interface SurfaceListing {
  /** The tool listing exactly as it is sent to the model (its bytes are what the model reads). */
  text: string
  tools: ShownTool[]
}

/** A call's outcome, as the model reads it and as a result. */
export interface SurfaceAnswer {
  /** The text the model reads back. */
  text: string
  result: ToolResult
}

/** One way a model reaches the page. Internal to the scripted agent; each surface builds one. */
export interface AgentSurface {
  readonly kind: AgentSurfaceKind
  list(): Promise<SurfaceListing>
  /** Asks for a tool's full description; only surfaces that hide input shapes have it. */
  describe?(tool: ShownTool): Promise<SurfaceAnswer>
  call(tool: ShownTool, input: unknown): Promise<SurfaceAnswer>
}

/** A result read from a surface that did not carry one (a transport's own error text). */
export function errorAnswer(text: string): SurfaceAnswer {
  return { text, result: { status: 'error', message: text } }
}

/** Whether a parsed value looks like a `ToolResult` (has a known status). */
export function asToolResult(value: unknown): ToolResult | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const status = (value as { status?: unknown }).status
  return status === 'ok' ||
    status === 'invalid' ||
    status === 'refused' ||
    status === 'needs_confirmation' ||
    status === 'cancelled' ||
    status === 'error'
    ? (value as ToolResult)
    : undefined
}

/** Whether a schema is given at all (a tool listed without one takes no input). */
export const hasSchema = (schema: JsonSchema | undefined): boolean =>
  schema !== undefined && schema !== null && typeof schema === 'object'
