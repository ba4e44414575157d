import { createPageClient } from '@toolmark/core/agent'
import type { ManifestEntry, ToolResult } from '@toolmark/core'
import type { PageLink } from './mcpServer'
import type { PairedPage } from './pairingServer'

/** How long a `describe` (for `tools/list`) may take. */
const DESCRIBE_DEADLINE_MS = 10_000

const DISCONNECTED: ToolResult = Object.freeze({
  status: 'error',
  message: 'The page disconnected before the call finished',
})

/** Options of `createPageLink`. */
export interface PageLinkOptions {
  /** Deadline of one call in ms; then the page gets `cancel` and the call ends `cancelled policy`. */
  deadlineMs: number
}

type ProgressListener = NonNullable<Parameters<PageLink['call']>[2]['onProgress']>

/**
 * Speaks protocol v1 to a paired page (as the agent, through `createPageClient`) and gives the
 * MCP server what it needs. Calls still running when the page disconnects end with an error.
 */
export function createPageLink(page: PairedPage, options: PageLinkOptions): PageLink {
  const client = createPageClient({ transport: page, deadlineMs: options.deadlineMs })
  const disconnectors = new Set<(result: ToolResult) => void>()
  page.onClose(() => {
    // Settle our callers first, so they hear "disconnected" rather than the client's own
    // `cancelled signal` from `close()`.
    for (const disconnect of [...disconnectors]) disconnect(DISCONNECTED)
    client.close()
  })

  return {
    origin: page.origin,
    manifest: () => client.manifest,
    onManifest: (listener) => client.onManifest((manifest) => listener(manifest)),
    async describe(name): Promise<ManifestEntry | undefined> {
      if (page.closed) return undefined
      const result = await client.describe(name, { deadlineMs: DESCRIBE_DEADLINE_MS })
      return result.status === 'ok' ? result.data : undefined
    },
    async call(name, input, callOptions) {
      if (page.closed) return DISCONNECTED
      let disconnect!: (result: ToolResult) => void
      const disconnected = new Promise<ToolResult>((resolve) => (disconnect = resolve))
      disconnectors.add(disconnect)
      try {
        const running = client.call(name, input, {
          signal: callOptions.signal,
          onProgress: (event) => {
            const progress: Parameters<ProgressListener>[0] = { done: event.done }
            if (event.total !== undefined) progress.total = event.total
            if (event.message !== undefined) progress.message = event.message
            callOptions.onProgress?.(progress)
          },
          ...(callOptions.rev === undefined ? {} : { rev: callOptions.rev }),
        })
        return await Promise.race([disconnected, running])
      } finally {
        disconnectors.delete(disconnect)
      }
    },
  }
}
