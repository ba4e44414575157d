import type { WebMCPModelContext, WebMCPTool } from '../../src/webmcp'

/**
 * A model context with the behaviour both real hosts share: names are unique, aborting the
 * registration signal unregisters, and `executeTool` runs the registered `execute`.
 */
export interface FakeModelContext extends WebMCPModelContext {
  /** Tools currently registered, by name. */
  readonly tools: Map<string, WebMCPTool>
  /** Every tool dictionary ever passed to `registerTool`, in order. */
  readonly registered: WebMCPTool[]
  /** Names passed to `registerTool` (successful or not), in order. */
  readonly attempts: string[]
  /** Names whose registration was withdrawn by aborting its signal, in order. */
  readonly unregistered: string[]
  /** Makes the next `registerTool` of `name` reject with `error`. */
  rejectNext(name: string, error: Error): void
  /** Runs a registered tool the way a host does; `input` is passed through untouched. */
  executeTool(
    name: string,
    input: unknown,
    options?: { signal?: AbortSignal },
  ): ReturnType<WebMCPTool['execute']>
}

export function createFakeModelContext(): FakeModelContext {
  const tools = new Map<string, WebMCPTool>()
  const registered: WebMCPTool[] = []
  const attempts: string[] = []
  const unregistered: string[] = []
  const failures = new Map<string, Error>()
  return {
    tools,
    registered,
    attempts,
    unregistered,
    rejectNext(name, error) {
      failures.set(name, error)
    },
    async registerTool(tool, options) {
      attempts.push(tool.name)
      const failure = failures.get(tool.name)
      if (failure) {
        failures.delete(tool.name)
        throw failure
      }
      if (tools.has(tool.name)) throw new Error(`Duplicate tool name: ${tool.name}`)
      options?.signal?.throwIfAborted()
      tools.set(tool.name, tool)
      registered.push(tool)
      options?.signal?.addEventListener(
        'abort',
        () => {
          unregistered.push(tool.name)
          if (tools.get(tool.name) === tool) tools.delete(tool.name)
        },
        { once: true },
      )
    },
    executeTool(name, input, options) {
      const tool = tools.get(name)
      if (!tool) return Promise.reject(new Error(`Tool not found: ${name}`))
      return tool.execute(input, { signal: options?.signal ?? new AbortController().signal })
    },
  }
}

/** Lets the registry's coalesced revision (one microtask) and the fake's promises settle. */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0))
