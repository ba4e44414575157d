import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { createToolmark, ok } from '@toolmark/core'
import { mcpPairing, type McpPairingStatus } from '@toolmark/mcp/client'
import { createPairing, type Pairing } from '../src/pairing'
import { startPairingServer, type PairedPage } from '../src/pairingServer'
import type { PageSecret } from '../src/client/pageHandshake'
import { sessionId, tokenKey } from '../src/handshakeCrypto'
import { ORIGIN, OriginWebSocket, handshakeOn, readFrames, testStorage, until } from './harness'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const b64 = (bytes: number) => randomBytes(bytes).toString('base64url')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A process squatting the port: a plain `ws` server that records every frame it receives and
 * answers like a squatter that knows the handshake but not the secret (or says nothing).
 */
async function squatter(mode: 'silent' | 'answers') {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await once(wss, 'listening')
  const frames: string[] = []
  let connections = 0
  wss.on('connection', (socket) => {
    connections++
    socket.on('message', (data) => {
      const text = String(data)
      frames.push(text)
      if (mode === 'silent') return
      let type: unknown
      try {
        type = (JSON.parse(text) as { type?: unknown }).type
      } catch {}
      if (type === 'hello') {
        socket.send(JSON.stringify({ type: 'challenge', nonce: b64(32), salt: b64(16) }))
      } else if (type === 'proof') {
        socket.send(JSON.stringify({ type: 'paired', proof: b64(32) }))
      } else {
        socket.send(JSON.stringify({ type: 'paired', token: 'forged-token' }))
      }
    })
  })
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate()
        wss.close(() => resolve())
      }),
  )
  return {
    port: (wss.address() as { port: number }).port,
    frames,
    connections: () => connections,
  }
}

/**
 * A page with a registry and one tool. Attempts are few and, unless `handshakeTimeoutMs` says
 * otherwise, short, so a silent squatter is given up on quickly.
 */
function page(options: {
  port: number
  code?: string
  storage: ReturnType<typeof testStorage>
  handshakeTimeoutMs?: number
}) {
  const statuses: { status: McpPairingStatus; detail: object }[] = []
  const tm = createToolmark()
  tm.register({ name: 'echo', description: 'Echo', hints: { readOnly: true }, run: () => ok(1) })
  const dispose = tm.use(
    mcpPairing({
      handshakeTimeoutMs: 300,
      ...options,
      WebSocket: OriginWebSocket,
      reconnect: { initialMs: 20, maxMs: 40, maxAttempts: 3 },
      onStatus: (status, detail) => statuses.push({ status, detail }),
    }),
  )
  cleanups.push(dispose)
  return { statuses, last: () => statuses.at(-1)?.status }
}

const TOKEN = 'kq3B7mG1v0zJ8yXwP4sT2nR6hL9cF5dA1eU3iO7pQ0w'

describe('a process squatting the MCP port', () => {
  it('never receives the stored token and never gets the bridge (silent squatter)', async () => {
    const fake = await squatter('silent')
    const storage = testStorage()
    storage.setItem(`toolmark:mcp:${fake.port}`, TOKEN)
    const paired = page({ port: fake.port, storage })
    await until(() => paired.last() === 'unverified', 'the page to give up on the squatter')
    expect(fake.connections()).toBe(3)
    for (const frame of fake.frames) expect(frame).not.toContain(TOKEN)
    expect(fake.frames.some((frame) => frame.includes('"protocol":1'))).toBe(false)
    expect(paired.statuses.some((s) => s.status === 'paired')).toBe(false)
    // Bounded: no more attempts after giving up.
    await sleep(200)
    expect(fake.connections()).toBe(3)
  })

  it('never receives the stored token from a page resuming against an answering squatter', async () => {
    const fake = await squatter('answers')
    const storage = testStorage()
    storage.setItem(`toolmark:mcp:${fake.port}`, TOKEN)
    const paired = page({ port: fake.port, storage })
    await until(() => paired.last() === 'unverified', 'the page to refuse the squatter')
    for (const frame of fake.frames) expect(frame).not.toContain(TOKEN)
    expect(fake.frames.some((frame) => frame.includes('"protocol":1'))).toBe(false)
    expect(paired.statuses.some((s) => s.status === 'paired')).toBe(false)
    // A squatter that answers wrongly is refused at once: no reconnection.
    await sleep(200)
    expect(fake.connections()).toBe(1)
  })

  it('never receives the typed code and never gets the bridge (pairing squatter)', async () => {
    const fake = await squatter('answers')
    const code = 'K7QF2-M9DXA'
    const paired = page({ port: fake.port, code, storage: testStorage() })
    await until(() => paired.last() === 'unverified', 'the page to refuse the squatter')
    for (const frame of fake.frames) {
      expect(frame).not.toContain('K7QF2')
      expect(frame).not.toContain('M9DXA')
      expect(frame.toUpperCase()).not.toContain('K7QF2M9DXA')
    }
    expect(fake.frames.some((frame) => frame.includes('"protocol":1'))).toBe(false)
    expect(paired.statuses.some((s) => s.status === 'paired')).toBe(false)
    await sleep(200)
    expect(fake.connections()).toBe(1)
  })
})

describe('a process that replays or relays a real server', () => {
  it('cannot replay a challenge the real server answered before', async () => {
    // A real session, and a challenge the real server made for an earlier page nonce.
    const pairing = createPairing()
    const real = await pairingServer(pairing)
    const first = await handshakeWith(real.server.port, {
      mode: 'pair',
      code: pairing.currentCode().code,
    })
    if (first.step.kind !== 'paired') throw new Error('pairing failed')
    const token = first.step.token
    const id = await sessionId(await tokenKey(token))

    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await once(wss, 'listening')
    const port = (wss.address() as { port: number }).port
    const recorded = await pairing.resume(id, {
      mode: 'resume',
      port,
      pageNonce: b64(32),
      serverNonce: b64(32),
    })
    const frames: string[] = []
    wss.on('connection', (socket) => {
      socket.on('message', (data) => {
        frames.push(String(data))
        const hello = JSON.parse(String(data)) as { type: string }
        if (hello.type === 'hello') {
          socket.send(
            JSON.stringify({ type: 'challenge', nonce: b64(32), proof: recorded!.serverProof }),
          )
        }
      })
    })
    cleanups.push(() => new Promise((resolve) => wss.close(resolve)))

    const storage = testStorage()
    storage.setItem(`toolmark:mcp:${port}`, token)
    const paired = page({ port, storage })
    await until(() => paired.last() === 'unverified', 'the page to refuse the replay')
    expect(frames).toHaveLength(1)
    expect(JSON.parse(frames[0])).toMatchObject({ type: 'hello', mode: 'resume' })
    expect(frames[0]).not.toContain(token)
  })

  it('cannot pass proofs through a relay on another port', async () => {
    const pairing = createPairing()
    const real = await pairingServer(pairing)
    const relayed: string[] = []
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await once(wss, 'listening')
    const port = (wss.address() as { port: number }).port
    wss.on('connection', (client) => {
      const upstream = new WebSocket(`ws://127.0.0.1:${real.server.port}`, { origin: ORIGIN })
      const queue: string[] = []
      upstream.on('open', () => queue.splice(0).forEach((text) => upstream.send(text)))
      upstream.on('message', (data) => client.send(String(data)))
      upstream.on('close', () => client.close())
      upstream.on('error', () => {})
      client.on('message', (data) => {
        relayed.push(String(data))
        if (upstream.readyState === WebSocket.OPEN) upstream.send(String(data))
        else queue.push(String(data))
      })
      client.on('close', () => upstream.close())
    })
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const client of wss.clients) client.terminate()
          wss.close(() => resolve())
        }),
    )

    // Pair: the page's proof names the port it dialled, so the real server refuses it.
    const code = pairing.currentCode().code
    const pairingPage = page({ port, code, storage: testStorage(), handshakeTimeoutMs: 10_000 })
    await until(
      () => pairingPage.last() === 'rejected',
      'the real server to refuse the relayed proof',
    )
    expect(pairingPage.statuses.at(-1)?.detail).toEqual({ reason: 'bad_code' })
    expect(real.paired).toHaveLength(0)
    for (const frame of relayed) expect(frame).not.toContain(code.replace('-', ''))

    // Resume: the real server's proof names its own port, so the page refuses it.
    const direct = await handshakeWith(real.server.port, { mode: 'pair', code })
    if (direct.step.kind !== 'paired') throw new Error('pairing failed')
    const before = real.paired.length
    const storage = testStorage()
    storage.setItem(`toolmark:mcp:${port}`, direct.step.token)
    const resuming = page({ port, storage, handshakeTimeoutMs: 10_000 })
    await until(() => resuming.last() === 'unverified', 'the page to refuse the relayed proof')
    expect(real.paired).toHaveLength(before)
    expect(
      relayed.some((frame) =>
        frame.includes(direct.step.kind === 'paired' ? direct.step.token : ''),
      ),
    ).toBe(false)
  })
})

async function handshakeWith(port: number, secret: PageSecret) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, { origin: ORIGIN })
  cleanups.push(() => socket.terminate())
  await once(socket, 'open')
  const step = await handshakeOn(socket, readFrames(socket), secret, port)
  return { socket, step }
}

async function pairingServer(pairing: Pairing, log: (line: string) => void = () => {}) {
  const paired: PairedPage[] = []
  const server = await startPairingServer({
    port: 0,
    allowOrigins: [ORIGIN],
    pairing,
    log,
    onPaired: (page) => paired.push(page),
  })
  cleanups.push(() => server.close())
  return { server, paired }
}

/** Opens a socket that completes the upgrade and then says nothing. */
async function idleSocket(port: number): Promise<{ socket?: WebSocket; closed: () => boolean }> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, { origin: ORIGIN })
  let closed = false
  socket.on('close', () => (closed = true))
  socket.on('error', () => {})
  cleanups.push(() => socket.terminate())
  await new Promise<void>((resolve) => {
    socket.once('open', () => resolve())
    socket.once('close', () => resolve())
  })
  return { socket, closed: () => closed }
}

/**
 * One wrong guess, as fast as a flooder can make one: hello, then a proof that matches no code
 * (a real guesser would spend a PBKDF2 per guess; a flooder need not), then hang up.
 */
async function guess(port: number): Promise<void> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, { origin: ORIGIN })
  socket.on('error', () => {})
  await new Promise<void>((resolve) => {
    socket.once('open', () => {
      socket.send(JSON.stringify({ type: 'hello', version: 2, mode: 'pair', nonce: b64(32) }))
      socket.once('message', () => {
        socket.send(JSON.stringify({ type: 'proof', proof: b64(32) }))
        setTimeout(resolve, 5)
      })
    })
    socket.once('close', () => resolve())
  })
  socket.terminate()
}

describe('local processes trying to block pairing', () => {
  it('idle sockets do not stop a page from pairing, and are closed within seconds', async () => {
    const pairing = createPairing()
    const { server, paired } = await pairingServer(pairing)
    // More than the 256 sockets that may be mid-handshake at once.
    const idle = await Promise.all(Array.from({ length: 300 }, () => idleSocket(server.port)))
    const opened = Date.now()

    const status = page({
      port: server.port,
      code: pairing.currentCode().code,
      storage: testStorage(),
      handshakeTimeoutMs: 10_000,
    })
    await until(() => status.last() === 'paired', 'the page to pair past the idle sockets', 3_000)
    expect(paired).toHaveLength(1)
    expect(status.statuses.map((s) => s.status)).toEqual(['connecting', 'paired'])

    await until(
      () => idle.every((socket) => socket.closed()),
      'the idle sockets to be closed',
      9_000,
    )
    expect(Date.now() - opened).toBeLessThan(9_000)
  }, 20_000)

  it('a flood of wrong codes does not replace the code, and the page still pairs with it', async () => {
    const onCode = vi.fn()
    const log = vi.fn()
    const pairing = createPairing({ onCode })
    const { server, paired } = await pairingServer(pairing, log)
    const code = pairing.currentCode().code
    expect(onCode).toHaveBeenCalledTimes(1)

    // Sixteen guessers, each guessing again as soon as its last guess is sent, all along.
    let sent = 0
    let flooding = true
    const workers = Array.from({ length: 16 }, async () => {
      while (flooding && sent < 20_000) {
        sent++
        await guess(server.port)
      }
    })
    await until(() => sent >= 200, 'two hundred guesses')

    const status = page({
      port: server.port,
      code,
      storage: testStorage(),
      handshakeTimeoutMs: 10_000,
    })
    await until(
      () => status.last() === 'paired' || status.last() === 'rejected',
      'an answer',
      15_000,
    )
    const during = sent
    flooding = false
    await Promise.all(workers)
    expect(status.statuses.at(-1)).toMatchObject({ status: 'paired' })
    expect(status.statuses.some((s) => s.status === 'disconnected')).toBe(false)
    expect(paired).toHaveLength(1)
    expect(during).toBeGreaterThan(200)
    // One code shown, never replaced by the guesses (the next one comes after the pairing used it).
    expect(onCode).toHaveBeenCalledTimes(1)
    // The flood does not flood stderr either: a few lines, then counts.
    const refusals = log.mock.calls.filter(([line]) => String(line).includes('refused (bad_code)'))
    expect(refusals.length).toBeLessThanOrEqual(5)
  }, 30_000)
})
