import type { PageClient } from '../agent/pageClientTypes'
import type { ToolResult } from '../types'
import type { AgentSurface, AgentSurfaceKind, ShownTool, SurfaceListing } from './agentSurface'
import { byteLength } from './agentSurface'
import { inAppSurface, type InAppSurfaceOptions } from './inAppSurface'
import { mcpSurface, type McpToolClient } from './mcpSurface'
import { webmcpSurface, type WebMCPToolSource } from './webmcpSurface'

/** Which surface the agent plays on, and how it is reached. */
export type ScriptedAgentSurfaceOptions =
  | ({ inApp: PageClient } & InAppSurfaceOptions)
  | { webmcp: WebMCPToolSource }
  | { mcp: McpToolClient }

/** Options of {@link createScriptedAgent}. */
export type ScriptedAgentOptions = ScriptedAgentSurfaceOptions & {
  /**
   * Awaited before each model request, so what the last round changed in the page (a form that
   * appeared, a new tool list) reaches the surface first. Default: one macrotask.
   */
  settle?: () => Promise<unknown>
}

/** A tool call a turn asks for, by the page's full tool name. */
export interface ScriptedCall {
  tool: string
  /** Default `{}`. */
  input?: unknown
}

/** A call the agent made, with what it got back. */
export interface ScriptedCallRecord {
  /** The page's full tool name. */
  tool: string
  input: unknown
  result: ToolResult
  /** The round (1-based) the call went out in. */
  round: number
  /** What the model read back. */
  text: string
}

/** What the agent has seen so far, given to each turn. */
export interface AgentView {
  /** The tools the surface shows now. */
  readonly tools: readonly ShownTool[]
  /** Every call made so far, in the order they went out. */
  readonly calls: readonly ScriptedCallRecord[]
  /** Whether the surface shows a tool of that full name now. */
  shows(tool: string): boolean
  /** The latest result of a tool, or `undefined` when it was not called yet. */
  result(tool: string): ToolResult | undefined
  /** The `data` of a tool's latest result; throws when that result is not `ok`. */
  data<T = any>(tool: string): T
}

/**
 * One turn of a script: what a model would emit after reading what it has seen so far. It
 * returns the calls of one round (sent concurrently, in order), or nothing to make no call.
 */
export type ScriptTurn = (
  seen: AgentView,
) =>
  | ScriptedCall
  | readonly ScriptedCall[]
  | undefined
  | void
  | Promise<ScriptedCall | readonly ScriptedCall[] | undefined | void>

/** What playing a script took. */
export interface ScriptedAgentReport {
  surface: AgentSurfaceKind
  /** Rounds: every call a model emits before it next sees results (describes included). */
  rounds: number
  /** Tool calls made (describes not included). */
  calls: number
  /** `page_describe` calls the agent needed because a tool's input was not shown. */
  describes: number
  /** Bytes the model read: a listing per round, describe answers and results. */
  bytesRead: number
  bytes: { listings: number; describes: number; results: number }
  /** The listing the first round read: its bytes and how many tools it showed. */
  firstListing: { bytes: number; tools: number }
  /** Calls whose result was `invalid`. */
  invalid: number
  /** Calls whose result was `refused`. */
  refused: number
  /** Calls whose result was `error` (the surface's own failures included). */
  errors: number
  /** Every call, in the order it went out. */
  records: readonly ScriptedCallRecord[]
}

/** Plays scripts against one surface. */
export interface ScriptedAgent {
  readonly surface: AgentSurfaceKind
  /** What the model would be shown now. */
  listing(): Promise<SurfaceListing>
  /** Plays a script from a fresh conversation (nothing described yet) and reports. */
  run(script: readonly ScriptTurn[]): Promise<ScriptedAgentReport>
}

const nextMacrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

function surfaceOf(options: ScriptedAgentSurfaceOptions): AgentSurface {
  const o = options as Partial<Record<'inApp' | 'webmcp' | 'mcp', unknown>>
  const given = (['inApp', 'webmcp', 'mcp'] as const).filter((key) => o[key] !== undefined)
  if (given.length !== 1) {
    throw new TypeError(
      'createScriptedAgent: pass exactly one surface: { inApp: pageClient }, ' +
        '{ webmcp: modelContext } or { mcp: mcpClient }' +
        (given.length > 1 ? ` (got ${given.join(' and ')})` : ''),
    )
  }
  if ('inApp' in options && options.inApp !== undefined) {
    const { mode, awaitConfirmation, clientId } = options
    return inAppSurface(options.inApp, {
      ...(mode === undefined ? {} : { mode }),
      ...(awaitConfirmation === undefined ? {} : { awaitConfirmation }),
      ...(clientId === undefined ? {} : { clientId }),
    })
  }
  if ('webmcp' in options && options.webmcp !== undefined) return webmcpSurface(options.webmcp)
  return mcpSurface((options as { mcp: McpToolClient }).mcp)
}

const asCalls = (value: unknown): ScriptedCall[] => {
  if (value === undefined || value === null) return []
  const list = Array.isArray(value) ? value : [value]
  return list.map((call, i) => {
    if (call === null || typeof call !== 'object' || typeof call.tool !== 'string') {
      throw new TypeError(
        `createScriptedAgent: call ${i + 1} of a turn is not { tool, input }: ${JSON.stringify(call)}`,
      )
    }
    return call as ScriptedCall
  })
}

/**
 * Plays an agent against a page from what a model would be shown on one surface — the in-app
 * assistant (`pageTools` over a page client, stable or direct), a browser agent (the tools on a
 * WebMCP model context) or a desktop agent (an MCP client's tool list) — and counts what a task
 * costs: rounds, calls, bytes read, `invalid` and `refused` results.
 *
 * It behaves as a competent model: it calls only tools the surface shows (a script that names
 * another tool fails), sends each turn's calls concurrently, and when a tool's input shape is not
 * shown (in-app stable mode, a tool listed without a signature) it describes that tool first, in a
 * round of its own, before sending the turn.
 *
 * @example
 * const agent = createScriptedAgent({ inApp: client })
 * const report = await agent.run([
 *   () => ({ tool: 'tickets.search', input: { query: 'printer' } }),
 *   (seen) => ({ tool: 'tickets.close', input: { id: seen.data('tickets.search').tickets[0].id } }),
 * ])
 * report.rounds // 2
 */
export function createScriptedAgent(options: ScriptedAgentOptions): ScriptedAgent {
  const surface = surfaceOf(options)
  const settle = typeof options.settle === 'function' ? options.settle : nextMacrotask

  async function run(script: readonly ScriptTurn[]): Promise<ScriptedAgentReport> {
    if (!Array.isArray(script) || script.some((turn) => typeof turn !== 'function')) {
      throw new TypeError('createScriptedAgent: run(script) takes an array of turn functions')
    }
    const records: ScriptedCallRecord[] = []
    const described = new Set<string>()
    const bytes = { listings: 0, describes: 0, results: 0 }
    let firstListing: ScriptedAgentReport['firstListing'] | undefined
    let rounds = 0
    let describes = 0

    /** A model request: the model reads the listing as it stands. */
    const read = async (): Promise<SurfaceListing> => {
      await settle()
      const listing = await surface.list()
      return listing
    }
    const charge = (listing: SurfaceListing) => {
      const size = byteLength(listing.text)
      bytes.listings += size
      firstListing ??= { bytes: size, tools: listing.tools.length }
    }

    const latest = (tool: string): ToolResult | undefined => {
      for (let i = records.length - 1; i >= 0; i--) {
        if (records[i].tool === tool) return records[i].result
      }
      return undefined
    }
    const view = (tools: readonly ShownTool[]): AgentView => ({
      tools,
      calls: records,
      shows: (tool) => tools.some((t) => t.name === tool),
      result: latest,
      data(tool) {
        const result = latest(tool)
        if (result?.status !== 'ok') {
          throw new Error(
            `createScriptedAgent: ${tool} has ${result ? `a ${result.status} result` : 'not been called'}, not ok data: ${JSON.stringify(result)}`,
          )
        }
        return result.data as any
      },
    })

    for (let t = 0; t < script.length; t++) {
      let listing = await read()
      const calls = asCalls(await script[t](view(listing.tools)))
      if (calls.length === 0) continue
      const toolsOf = (current: SurfaceListing) =>
        calls.map((call) => {
          const tool = current.tools.find((shown) => shown.name === call.tool)
          if (!tool) {
            throw new Error(
              `createScriptedAgent: turn ${t + 1} calls "${call.tool}", which the ${surface.kind} ` +
                `surface does not show (it shows: ${current.tools.map((s) => s.name).join(', ') || 'nothing'}). ` +
                'A model only calls what it was shown.',
            )
          }
          return tool
        })
      let tools = toolsOf(listing)
      charge(listing)

      // A tool whose input the model cannot see is described first, in a round of its own.
      const hidden = [
        ...new Map(
          tools
            .filter((tool) => !tool.inputShown && !described.has(tool.name))
            .map((tool) => [tool.name, tool]),
        ).values(),
      ]
      if (hidden.length > 0 && surface.describe) {
        rounds++
        const answers = await Promise.all(hidden.map((tool) => surface.describe!(tool)))
        answers.forEach((answer, i) => {
          describes++
          bytes.describes += byteLength(answer.text)
          if (answer.result.status === 'ok') described.add(hidden[i].name)
        })
        listing = await read()
        tools = toolsOf(listing)
        charge(listing)
      }

      rounds++
      const round = rounds
      const answers = await Promise.all(
        calls.map((call, i) => surface.call(tools[i], call.input === undefined ? {} : call.input)),
      )
      answers.forEach((answer, i) => {
        bytes.results += byteLength(answer.text)
        records.push({
          tool: calls[i].tool,
          input: calls[i].input === undefined ? {} : calls[i].input,
          result: answer.result,
          round,
          text: answer.text,
        })
      })
    }

    const count = (status: ToolResult['status']) =>
      records.filter((r) => r.result.status === status).length
    return {
      surface: surface.kind,
      rounds,
      calls: records.length,
      describes,
      bytesRead: bytes.listings + bytes.describes + bytes.results,
      bytes,
      firstListing: firstListing ?? { bytes: 0, tools: 0 },
      invalid: count('invalid'),
      refused: count('refused'),
      errors: count('error'),
      records,
    }
  }

  return {
    surface: surface.kind,
    async listing() {
      await settle()
      return surface.list()
    },
    run,
  }
}
