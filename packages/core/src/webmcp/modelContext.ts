import type { JsonSchema, ToolResult } from '../types'

/**
 * Annotations a WebMCP tool carries. Chromium keeps `readOnlyHint`, `untrustedContentHint` and
 * `consequentialHint`; `destructiveHint` is sent only when true (MCP's name for it).
 */
export interface WebMCPAnnotations {
  readOnlyHint: boolean
  untrustedContentHint: boolean
  consequentialHint: boolean
  destructiveHint?: boolean
}

/** What a registered tool's `execute` answers: the `ToolResult` as MCP-style content. */
export interface WebMCPToolResponse {
  /** One text item holding the result as JSON, for hosts that read `content`. */
  content: [{ type: 'text'; text: string }]
  /** The result itself (JSON semantics: what `JSON.parse(content[0].text)` gives). */
  structuredContent: ToolResult
  /** True for every status but `ok`, so the model treats it as a failed attempt. */
  isError: boolean
}

/** The tool dictionary handed to `modelContext.registerTool`. */
export interface WebMCPTool {
  name: string
  title?: string
  description: string
  inputSchema?: JsonSchema
  /** What `data` of an `ok` result looks like (Chrome 159+ accepts it; others ignore it). */
  outputSchema?: JsonSchema
  annotations: WebMCPAnnotations
  /**
   * Runs the tool. Native WebMCP passes an object and `{ signal }`; some hosts pass the input as
   * a JSON string and no second argument.
   */
  execute(input: unknown, client?: { signal?: AbortSignal }): Promise<WebMCPToolResponse>
}

/**
 * The part of `document.modelContext` Toolmark uses: native Chromium WebMCP and the
 * `@mcp-b/webmcp-polyfill` both fit. Aborting `options.signal` unregisters the tool.
 */
export interface WebMCPModelContext {
  registerTool(tool: WebMCPTool, options?: { signal?: AbortSignal }): Promise<unknown> | unknown
}

/** Which implementation serves `modelContext`: the browser's own, or a script (a polyfill). */
export type WebMCPHostKind = 'native' | 'polyfill'

/** A model context found on the page, with its kind. */
export interface WebMCPHost {
  context: WebMCPModelContext
  kind: WebMCPHostKind
}

const readProperty = (target: unknown, key: string): unknown => {
  if (target === null || (typeof target !== 'object' && typeof target !== 'function')) {
    return undefined
  }
  try {
    return (target as Record<string, unknown>)[key]
  } catch {
    // A getter may throw (a detached document, a hostile page script): treat it as absent.
    return undefined
  }
}

const isModelContext = (value: unknown): value is WebMCPModelContext =>
  typeof readProperty(value, 'registerTool') === 'function'

/**
 * Finds the model context to serve: the explicit one, else `document.modelContext`, else
 * `navigator.modelContext`. Returns `undefined` when there is none or it cannot register tools.
 * Never throws; reads globals only when called.
 */
export function findModelContext(explicit?: unknown): WebMCPHost | undefined {
  // Read one at a time: a polyfill's `navigator.modelContext` getter warns that it is deprecated.
  const candidates: (() => unknown)[] =
    explicit !== undefined
      ? [() => explicit]
      : [
          () =>
            readProperty(typeof document === 'undefined' ? undefined : document, 'modelContext'),
          () =>
            readProperty(typeof navigator === 'undefined' ? undefined : navigator, 'modelContext'),
        ]
  for (const read of candidates) {
    const candidate = read()
    if (isModelContext(candidate)) return { context: candidate, kind: hostKind(candidate) }
  }
  return undefined
}

/**
 * Native WebMCP's methods are built into the browser and print `[native code]`; a polyfill's
 * are script functions. The kind decides nothing about correctness (every input form is
 * accepted either way) but tells people which host they are talking to.
 */
export function hostKind(context: WebMCPModelContext): WebMCPHostKind {
  try {
    const source = Function.prototype.toString.call(context.registerTool)
    return source.includes('[native code]') ? 'native' : 'polyfill'
  } catch {
    return 'polyfill'
  }
}
