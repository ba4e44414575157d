import type { PageClient } from '../agent/pageClientTypes'
import { pageTools } from '../agent/pageTools'
import type { AwaitConfirmationOption, OpenAIChatPageTool } from '../agent/pageToolTypes'
import type { Manifest, ManifestEntry } from '../types'
import type { AgentSurface, ShownTool, SurfaceAnswer } from './agentSurface'
import { asToolResult, errorAnswer } from './agentSurface'

/** Options of the in-app surface. */
export interface InAppSurfaceOptions {
  /** `'stable'` (default): `page_call` + `page_describe`; `'direct'`: one LLM tool per page tool. */
  mode?: 'stable' | 'direct'
  /** Passed to `pageTools`. Default `true`: a call that needs a person returns its final outcome. */
  awaitConfirmation?: AwaitConfirmationOption
  /** The page to play against. Default: the client's default page. */
  clientId?: string
}

const answerOf = (value: unknown): SurfaceAnswer => {
  const text = JSON.stringify(value)
  const result = asToolResult(value)
  return result ? { text, result } : errorAnswer(text)
}

/**
 * The in-app assistant's view: `pageTools` over a page client, in OpenAI's chat shape. In stable
 * mode the model reads `page_call`'s description (the summary manifest) and sees a tool's input
 * only through its signature; direct mode shows every tool's own schema.
 */
export function inAppSurface(client: PageClient, options: InAppSurfaceOptions = {}): AgentSurface {
  const { clientId } = options
  const shared = {
    format: 'openai' as const,
    awaitConfirmation: options.awaitConfirmation ?? true,
    ...(clientId === undefined ? {} : { clientId }),
  }
  const manifest = async (): Promise<Manifest> => {
    await client.ready
    return (
      (clientId === undefined ? client.manifest : client.manifests.get(clientId)) ?? {
        rev: 0,
        tools: [],
      }
    )
  }

  if (options.mode === 'direct') {
    const direct = pageTools(client, { ...shared, mode: 'direct' })
    let current: OpenAIChatPageTool[] = []
    return {
      kind: 'inapp',
      async list() {
        const entries = (await manifest()).tools
        current = await direct.current()
        const tools: ShownTool[] = current.map((tool) => {
          const entry = entries.find((e) => e.llmName === tool.function.name)
          return {
            name: entry?.name ?? tool.function.name,
            shownAs: tool.function.name,
            description: tool.function.description,
            inputShown: true,
          }
        })
        return { text: JSON.stringify(current), tools }
      },
      async call(tool, input) {
        const llmTool = current.find((t) => t.function.name === tool.shownAs)
        if (!llmTool) return errorAnswer(`Unknown tool ${tool.shownAs}`)
        return answerOf(await llmTool.execute(input))
      },
    }
  }

  const [pageCall, pageDescribe] = pageTools(client, shared)
  const shown = (entry: ManifestEntry): ShownTool => ({
    name: entry.name,
    shownAs: entry.name,
    description: entry.description,
    inputShown: entry.signature !== undefined,
  })
  return {
    kind: 'inapp',
    async list() {
      const { tools } = await manifest()
      // JSON drops `execute` and reads the live description, as the model's API request does.
      return { text: JSON.stringify([pageCall, pageDescribe]), tools: tools.map(shown) }
    },
    async describe(tool) {
      return answerOf(await pageDescribe.execute({ tool: tool.shownAs }))
    },
    async call(tool, input) {
      return answerOf(await pageCall.execute({ tool: tool.shownAs, input }))
    },
  }
}
