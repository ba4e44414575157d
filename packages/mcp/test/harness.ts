import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { WebSocket } from 'ws'
import type { Toolmark } from '@toolmark/core'
import {
  createPageHandshake,
  type HandshakeStep,
  type PageSecret,
} from '../src/client/pageHandshake'
import {
  mcpPairing,
  type McpPairingStatus,
  type McpPairingStatusDetail,
  type TokenStorage,
} from '@toolmark/mcp/client'

const dir = path.dirname(fileURLToPath(import.meta.url))

/** The CLI built by `globalSetup.ts`. */
export const CLI = path.join(dir, '../dist/cli.js')
/** The origin every test page claims. */
export const ORIGIN = 'http://localhost:5173'

/** `ws` with the Origin header a browser page at `ORIGIN` would send. */
export class OriginWebSocket extends WebSocket {
  constructor(url: string) {
    super(url, { origin: ORIGIN })
  }
}

/** A storage that lives as long as one test's page (so "reloads" can share it). */
export function testStorage(): TokenStorage & { map: Map<string, string> } {
  const map = new Map<string, string>()
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  }
}

/** Resolves once `predicate` holds, polling; rejects with `what` after `ms`. */
export async function until(predicate: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Lists the server's tools until `predicate` holds for their names; returns the last names. */
export async function toolNamesUntil(
  client: Client,
  predicate: (names: string[]) => boolean,
  what: string,
  ms = 5_000,
): Promise<string[]> {
  const end = Date.now() + ms
  for (;;) {
    const names = (await client.listTools()).tools.map((tool) => tool.name)
    if (predicate(names)) return names
    if (Date.now() > end)
      throw new Error(`Timed out waiting for ${what}; tools: ${names.join(', ')}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The built CLI, spawned by the SDK's stdio client transport, with the SDK's real `Client`. */
export interface RunningServer {
  client: Client
  port: number
  stderr: () => string
  /** How many `notifications/tools/list_changed` arrived so far. */
  listChanged: () => number
  /** Errors the client saw (a stray stdout line would land here). */
  clientErrors: Error[]
  /** Every message the client received from the server, in order. */
  received: { method?: string; params?: Record<string, unknown> }[]
  /** Reads the code the way an agent does: from the pairing tool's result. */
  pairingCode(): Promise<string>
  close(): Promise<void>
}

export async function startServer(extraArgs: string[] = []): Promise<RunningServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--allow-origin', ORIGIN, '--port', '0', ...extraArgs],
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const client = new Client({ name: 'toolmark-test', version: '0.0.0' })
  const clientErrors: Error[] = []
  client.onerror = (error) => clientErrors.push(error)
  let changes = 0
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++
  })
  await client.connect(transport)
  const received: RunningServer['received'] = []
  // Records what arrives before the client's own handler sees it.
  const tap = transport as { onmessage?: (message: unknown, extra?: unknown) => void }
  const deliver = tap.onmessage
  tap.onmessage = (message, extra) => {
    received.push(message as RunningServer['received'][number])
    deliver?.(message, extra)
  }
  await until(() => /ws:\/\/127\.0\.0\.1:(\d+)/.test(stderr), 'the server to print its port')
  const port = Number(/ws:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)![1])
  return {
    client,
    port,
    stderr: () => stderr,
    listChanged: () => changes,
    clientErrors,
    received,
    async pairingCode() {
      const result = await client.callTool({ name: 'toolmark_pairing', arguments: {} })
      return (result.structuredContent as { code: string }).code
    },
    close: () => client.close(),
  }
}

/** A Node-side page: `tm.use(mcpPairing(...))` over `ws`, recording every status. */
export interface TestPage {
  statuses: { status: McpPairingStatus; detail: McpPairingStatusDetail }[]
  last(): McpPairingStatus | undefined
  dispose(): void
}

export function connectPage(
  tm: Toolmark,
  options: { port: number; code?: string; storage: TokenStorage },
): TestPage {
  const statuses: TestPage['statuses'] = []
  const dispose = tm.use(
    mcpPairing({
      code: options.code,
      port: options.port,
      storage: options.storage,
      WebSocket: OriginWebSocket,
      reconnect: { initialMs: 50, maxMs: 200 },
      onStatus: (status, detail) => statuses.push({ status, detail }),
    }),
  )
  return { statuses, last: () => statuses.at(-1)?.status, dispose }
}

/** Connects a page with the server's current code and waits until it is paired. */
export async function pairPage(
  tm: Toolmark,
  server: RunningServer,
  storage: TokenStorage = testStorage(),
): Promise<TestPage> {
  const page = connectPage(tm, { port: server.port, code: await server.pairingCode(), storage })
  await until(() => page.last() === 'paired', 'the page to pair')
  return page
}

/** A `ws` socket's text frames, read one at a time in order. */
export interface FrameReader {
  /** Every frame received so far, parsed. */
  frames: Record<string, any>[]
  /** The next frame not read yet (raw text). */
  next(): Promise<string>
  closed: Promise<{ code: number; reason: string }>
}

export function readFrames(socket: WebSocket): FrameReader {
  const queue: string[] = []
  const waiters: ((text: string) => void)[] = []
  const frames: Record<string, any>[] = []
  socket.on('message', (data) => {
    const text = String(data)
    try {
      frames.push(JSON.parse(text))
    } catch {}
    const waiter = waiters.shift()
    if (waiter) waiter(text)
    else queue.push(text)
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  )
  return {
    frames,
    closed,
    next: () =>
      queue.length > 0
        ? Promise.resolve(queue.shift()!)
        : new Promise((resolve) => waiters.push(resolve)),
  }
}

/**
 * Plays the page's half of the handshake by hand on an open `ws` socket, with the page's own
 * code (`createPageHandshake`), and returns how it ended.
 */
export async function handshakeOn(
  socket: WebSocket,
  reader: FrameReader,
  secret: PageSecret,
  port: number,
): Promise<HandshakeStep> {
  const page = createPageHandshake(secret, port)
  socket.send(await page.hello())
  for (;;) {
    const step = await page.receive(await reader.next())
    if (step.kind !== 'send') return step
    socket.send(step.frame)
  }
}
