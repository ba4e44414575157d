import { afterEach, describe, expect, it, vi } from 'vitest'
import { createToolmark } from '@toolmark/core'
import {
  DEFAULT_MCP_PORT,
  forgetMcpSession,
  hasMcpSession,
  mcpPairing,
  type McpPairingStatus,
} from '@toolmark/mcp/client'
import { createPairing, type Pairing } from '../src/pairing'
import { startPairingServer, type PairingServer } from '../src/pairingServer'
import { ORIGIN, OriginWebSocket, testStorage, until } from './harness'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function server(port = 0, pairing: Pairing = createPairing()) {
  const running: PairingServer = await startPairingServer({
    port,
    allowOrigins: [ORIGIN],
    pairing,
    log: () => {},
    onPaired: () => {},
  })
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await running.close()
  }
  cleanups.push(close)
  return { running, pairing, close }
}

function page(options: { port: number; code?: string; storage: ReturnType<typeof testStorage> }) {
  const statuses: { status: McpPairingStatus; reason?: string }[] = []
  const sockets: OriginWebSocket[] = []
  class Tracked extends OriginWebSocket {
    constructor(url: string) {
      super(url)
      sockets.push(this)
    }
  }
  const dispose = createToolmark().use(
    mcpPairing({
      ...options,
      WebSocket: Tracked,
      reconnect: { initialMs: 20, maxMs: 40 },
      onStatus: (status, detail) => statuses.push({ status, ...detail }),
    }),
  )
  cleanups.push(dispose)
  return { statuses, sockets, dispose, last: () => statuses.at(-1) }
}

describe('mcpPairing', () => {
  it('reports rejected no_code and opens nothing when it has neither code nor token', () => {
    const socket = vi.fn()
    const statuses: unknown[] = []
    createToolmark().use(
      mcpPairing({
        storage: testStorage(),
        WebSocket: socket as never,
        onStatus: (status, detail) => statuses.push([status, detail]),
      }),
    )
    expect(statuses).toEqual([['rejected', { reason: 'no_code' }]])
    expect(socket).not.toHaveBeenCalled()
  })

  it('pairs, stores the token per port and resumes with it after the server went away', async () => {
    const first = await server()
    const port = first.running.port
    const storage = testStorage()
    const paired = page({ port, code: first.pairing.currentCode().code, storage })
    await until(() => paired.last()?.status === 'paired', 'paired')
    expect(hasMcpSession(port, storage)).toBe(true)
    expect(hasMcpSession(DEFAULT_MCP_PORT, storage)).toBe(false)
    const token = storage.getItem(`toolmark:mcp:${port}`)

    // The server restarts on the same port: the page reconnects, resumes, and a fresh process
    // does not know the token, so the page ends rejected and forgets it.
    await first.close()
    await until(() => paired.last()?.status === 'disconnected', 'disconnected')
    const second = await server(port)
    const resume = vi.spyOn(second.pairing, 'resume')
    await until(() => paired.last()?.status === 'rejected', 'rejected after the restart')
    // It named its session by id: the token itself never crossed the socket.
    expect(resume).toHaveBeenCalledWith(
      expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      expect.anything(),
    )
    expect(resume.mock.calls[0][0]).not.toBe(token)
    expect(paired.last()).toEqual({ status: 'rejected', reason: 'bad_token' })
    expect(hasMcpSession(port, storage)).toBe(false)
    const attempts = paired.sockets.length
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(paired.sockets.length).toBe(attempts)
  })

  it('resumes after a drop while the server still holds the session', async () => {
    const { running, pairing } = await server()
    const storage = testStorage()
    const paired = page({ port: running.port, code: pairing.currentCode().code, storage })
    await until(() => paired.last()?.status === 'paired', 'paired')
    running.current()!.close(1011, 'server hiccup')
    await until(() => paired.statuses.filter((s) => s.status === 'paired').length === 2, 'resumed')
    expect(paired.statuses.map((s) => s.status)).toEqual([
      'connecting',
      'paired',
      'disconnected',
      'connecting',
      'paired',
    ])
    expect(paired.sockets).toHaveLength(2)
  })

  it("lets one of two tabs sharing a stored session resume, and keeps the winner's token", async () => {
    const { running, pairing } = await server()
    const storage = testStorage()
    const first = page({ port: running.port, code: pairing.currentCode().code, storage })
    await until(() => first.last()?.status === 'paired', 'paired')
    first.dispose()
    await until(() => running.current() === undefined, 'the first tab to leave')

    // Two tabs of the app open at once and both resume from the same localStorage.
    const tabA = page({ port: running.port, storage })
    const tabB = page({ port: running.port, storage })
    await until(
      () => [tabA, tabB].every((tab) => ['paired', 'rejected'].includes(tab.last()?.status ?? '')),
      'both tabs to settle',
    )
    const outcomes = [tabA.last(), tabB.last()]
    expect(outcomes).toContainEqual({ status: 'paired' })
    expect(outcomes).toContainEqual({ status: 'rejected', reason: 'bad_token' })
    // The loser did not wipe the winner's fresh token: a reload resumes with it.
    const winner = tabA.last()?.status === 'paired' ? tabA : tabB
    winner.dispose()
    await until(() => running.current() === undefined, 'the winning tab to leave')
    const reloaded = page({ port: running.port, storage })
    await until(() => reloaded.last()?.status === 'paired', 'the reload to resume')
  })

  it('stops for good on a wrong code, with the reason', async () => {
    const { running } = await server()
    const paired = page({ port: running.port, code: 'WRNG-C0DE', storage: testStorage() })
    await until(() => paired.last()?.status === 'rejected', 'rejected')
    expect(paired.last()).toEqual({ status: 'rejected', reason: 'bad_code' })
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(paired.sockets).toHaveLength(1)
  })

  it('keeps retrying with backoff while nothing listens, then pairs', async () => {
    const probe = await server()
    const port = probe.running.port
    const code = probe.pairing.currentCode().code
    await probe.close()
    const paired = page({ port, code, storage: testStorage() })
    await until(() => paired.sockets.length >= 3, 'three attempts')
    expect(
      paired.statuses.filter((s) => s.status === 'disconnected').length,
    ).toBeGreaterThanOrEqual(2)
    expect(paired.statuses.some((s) => s.status === 'rejected')).toBe(false)
    await server(port, probe.pairing)
    await until(() => paired.last()?.status === 'paired', 'paired once the server is up')
  })

  it('closes its socket and reports disconnected when disposed', async () => {
    const { running, pairing } = await server()
    const paired = page({
      port: running.port,
      code: pairing.currentCode().code,
      storage: testStorage(),
    })
    await until(() => paired.last()?.status === 'paired', 'paired')
    paired.dispose()
    expect(paired.last()?.status).toBe('disconnected')
    await until(() => running.current() === undefined, 'the server to see the socket close')
  })

  it('gives up after the allowed attempts while nothing listens, with growing delays', async () => {
    const probe = await server()
    const port = probe.running.port
    await probe.close()
    const statuses: { status: McpPairingStatus; attempts?: number; retryInMs?: number }[] = []
    createToolmark().use(
      mcpPairing({
        port,
        code: 'K7QF2-M9DXA',
        storage: testStorage(),
        WebSocket: OriginWebSocket,
        reconnect: { initialMs: 10, maxMs: 40, maxAttempts: 4 },
        onStatus: (status, detail) => statuses.push({ status, ...detail }),
      }),
    )
    await until(() => statuses.at(-1)?.status === 'unreachable', 'the page to give up')
    expect(statuses.filter((s) => s.status === 'disconnected')).toEqual([
      { status: 'disconnected', attempts: 1, retryInMs: 10 },
      { status: 'disconnected', attempts: 2, retryInMs: 20 },
      { status: 'disconnected', attempts: 3, retryInMs: 40 },
    ])
    expect(statuses.at(-1)).toEqual({ status: 'unreachable', attempts: 4 })
    const count = statuses.length
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(statuses).toHaveLength(count)
  })

  it('reports rejected unsupported without WebCrypto, and opens nothing', () => {
    vi.stubGlobal('crypto', undefined)
    try {
      const socket = vi.fn()
      const statuses: unknown[] = []
      createToolmark().use(
        mcpPairing({
          code: 'K7QF2-M9DXA',
          storage: testStorage(),
          WebSocket: socket as never,
          onStatus: (status, detail) => statuses.push([status, detail]),
        }),
      )
      expect(statuses).toEqual([['rejected', { reason: 'unsupported' }]])
      expect(socket).not.toHaveBeenCalled()
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('exports exactly its public API', async () => {
    const entry = await import('@toolmark/mcp/client')
    expect(Object.keys(entry).sort()).toEqual([
      'DEFAULT_MCP_PORT',
      'createMcpPairingObserver',
      'forgetMcpSession',
      'hasMcpSession',
      'mcpPairing',
    ])
  })

  it('forgets a session on request', () => {
    const storage = testStorage()
    storage.setItem('toolmark:mcp:4000', 'token')
    expect(hasMcpSession(4000, storage)).toBe(true)
    forgetMcpSession(4000, storage)
    expect(hasMcpSession(4000, storage)).toBe(false)
  })
})
