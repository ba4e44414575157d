import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { ErrorEvent } from '@toolmark/core'
import { bridge, websocketTransport } from '@toolmark/core/bridge'
import { createPageClient } from '@toolmark/core/agent'
import type { PageClient, PageConfirmedEvent } from '@toolmark/core/agent'

const cleanups: (() => void | Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

function until<T>(read: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const tick = () => {
      const value = read()
      if (value !== undefined) return resolve(value)
      if (Date.now() - started > timeoutMs) return reject(new Error('timed out'))
      setTimeout(tick, 5)
    }
    tick()
  })
}

/** An agent server: one page client per accepted connection, as docs/bridge.md describes. */
async function agentServer() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 16 * 1024 * 1024 })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  const clients: PageClient[] = []
  const sockets: WebSocket[] = []
  wss.on('connection', (socket) => {
    sockets.push(socket)
    const client = createPageClient({
      transport: websocketTransport({ socket }),
      deadlineMs: 5_000,
    })
    socket.on('close', () => client.close())
    clients.push(client)
  })
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of wss.clients) socket.terminate()
        wss.close(() => resolve())
      }),
  )
  const { port } = wss.address() as AddressInfo
  return { url: `ws://127.0.0.1:${port}`, clients, sockets }
}

function page(url: string, options: { maxMessageBytes?: number } = {}) {
  const tm = createToolmark({ dev: true })
  const errors: ErrorEvent[] = []
  tm.events.on('error', (event) => errors.push(event))
  tm.register({
    name: 'tickets.get',
    description: 'Reads a ticket',
    hints: { readOnly: true },
    input: z.object({ id: z.string() }),
    run: async (input, ctx) => {
      ctx.progress({ done: 1, total: 1 })
      return ok({ id: input.id, openedAt: new Date(Date.UTC(2024, 1, 29)) })
    },
  })
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket',
    hints: { consequential: true },
    input: z.object({ id: z.string() }),
    run: (input) => ok({ closed: input.id }),
  })
  const transport = websocketTransport({
    url,
    WebSocket,
    backoff: { initialMs: 20, maxMs: 100 },
    ...options,
  })
  const stop = tm.use(bridge({ transport }))
  cleanups.push(() => {
    stop()
    transport.close?.()
  })
  return { tm, errors, transport }
}

describe('WebSocket between a Node agent server and the bridge', () => {
  it('lets the server read the manifest, call, describe and get progress', async () => {
    const server = await agentServer()
    const { tm } = page(server.url)
    const client = await until(() => server.clients[0])
    const manifest = await client.ready
    expect(client.clientId).toBe(tm.clientId)
    expect(manifest.tools.map((t) => t.name)).toEqual(['tickets.close', 'tickets.get'])
    const progress: number[] = []
    client.onProgress((event) => progress.push(event.done))
    expect(await client.call('tickets.get', { id: 'T-1' })).toEqual({
      status: 'ok',
      data: { id: 'T-1', openedAt: '2024-02-29T00:00:00.000Z' },
    })
    expect(progress).toEqual([1])
    expect(await client.describe('tickets.get')).toMatchObject({
      status: 'ok',
      data: { name: 'tickets.get', inputSchema: { type: 'object' } },
    })
  })

  it('delivers a deferred confirmation as confirmed over the socket', async () => {
    const server = await agentServer()
    const { tm } = page(server.url)
    const client = await until(() => server.clients[0])
    await client.ready
    const confirmed = new Promise<PageConfirmedEvent>((resolve) => client.onConfirmed(resolve))
    const asked = await client.call('tickets.close', { id: 'T-2' })
    expect(asked.status).toBe('needs_confirmation')
    await tm.confirmations.approve(tm.confirmations.list()[0].id)
    expect((await confirmed).result).toEqual({ status: 'ok', data: { closed: 'T-2' } })
  })

  it('reconnects after the connection drops and serves the new session', async () => {
    const server = await agentServer()
    const { tm } = page(server.url)
    const first = await until(() => server.clients[0])
    await first.ready
    server.sockets[0].terminate()
    // While the page is away, its tools change: the revision waits in the outbox or is
    // re-announced when the new session says hello.
    tm.register({ name: 'tickets.reopen', description: 'Reopens', run: () => ok('reopened') })
    const second = await until(() => server.clients[1])
    const manifest = await until(() =>
      second.manifest?.tools.some((t) => t.name === 'tickets.reopen') ? second.manifest : undefined,
    )
    expect(manifest.tools).toHaveLength(3)
    expect(await second.call('tickets.reopen')).toEqual({ status: 'ok', data: 'reopened' })
  })

  it('drops oversized frames before the bridge sees them', async () => {
    const server = await agentServer()
    const { tm, errors } = page(server.url, { maxMessageBytes: 512 })
    const client = await until(() => server.clients[0])
    await client.ready
    const big = JSON.stringify({
      protocol: 1,
      type: 'call',
      clientId: tm.clientId,
      id: 'big',
      tool: 'tickets.get',
      input: { id: 'x'.repeat(1_000) },
    })
    server.sockets[0].send(big)
    // A small call afterwards still works, and the big one got no answer.
    expect(await client.call('tickets.get', { id: 'T-3' })).toMatchObject({ status: 'ok' })
    expect(errors).toEqual([])
  })
})
