import type { IncomingMessage } from 'node:http'
import { WebSocketServer, type WebSocket } from 'ws'
import { createPageClient } from '@toolmark/core/agent'
import { websocketTransport, type WebSocketLike } from '@toolmark/core/bridge'
import type { LintEntry, LintManifest } from '@toolmark/core/lint'

/** Options of `readPage`. */
export interface ReadPageOptions {
  port: number
  /** Origins whose pages may connect; empty: any (the linter only reads). */
  allowOrigins: readonly string[]
  timeoutMs: number
  /** Told the address once the server listens (the CLI prints it). */
  onListening?: (url: string) => void
}

/** Why reading a live page failed: the CLI exits 2 with this message. */
export class PageReadError extends Error {
  override name = 'PageReadError'
}

/**
 * Waits on a loopback WebSocket for one page whose bridge dials it
 * (`bridge({ transport: websocketTransport({ url }) })`), reads its manifest and describes every
 * tool, then closes. What a page does not send — summaries and sensitive paths — stays unknown.
 */
export async function readPage(options: ReadPageOptions): Promise<LintManifest> {
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: options.port,
    verifyClient: ({ req }: { req: IncomingMessage }) =>
      options.allowOrigins.length === 0 ||
      options.allowOrigins.includes(String(req.headers.origin ?? '')),
  })
  let socket: WebSocket | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve)
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new PageReadError(
            error.code === 'EADDRINUSE'
              ? `port ${options.port} on 127.0.0.1 is in use: pick another with --listen`
              : `cannot listen on port ${options.port}: ${error.message}`,
          ),
        ),
      )
    })
    const { port } = server.address() as { port: number }
    options.onListening?.(`ws://127.0.0.1:${port}`)
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new PageReadError(
              `no page sent its tools within ${options.timeoutMs} ms: attach bridge({ transport: websocketTransport({ url: 'ws://127.0.0.1:${port}' }) }) in the page, or raise --timeout`,
            ),
          ),
        options.timeoutMs,
      )
    })
    socket = await Promise.race([
      new Promise<WebSocket>((resolve) => server.once('connection', resolve)),
      deadline,
    ])
    const client = createPageClient({
      transport: websocketTransport({ socket: socket as unknown as WebSocketLike }),
      deadlineMs: options.timeoutMs,
    })
    const manifest = await Promise.race([client.ready, deadline])
    const tools: LintEntry[] = []
    for (const entry of manifest.tools) {
      const described = await Promise.race([client.describe(entry.name), deadline])
      if (described.status !== 'ok') {
        throw new PageReadError(
          `the page did not describe "${entry.name}" (${described.status}${described.status === 'refused' ? ` ${described.code}` : ''}): it may have gone while the linter read it; run again`,
        )
      }
      tools.push({ ...described.data })
    }
    return { rev: manifest.rev, tools }
  } finally {
    clearTimeout(timer)
    socket?.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
