import { request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { CloseCode } from '../src/handshake'
import { createPairing, type Pairing } from '../src/pairing'
import {
  checkUpgrade,
  isLoopbackAddress,
  startPairingServer,
  type PairedPage,
  type PairingServer,
} from '../src/pairingServer'

const ORIGIN = 'http://localhost:5173'
let server: PairingServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function start(
  options: { pairing?: Pairing; maxFrameBytes?: number; handshakeTimeoutMs?: number } = {},
) {
  const pairing = options.pairing ?? createPairing()
  const paired: PairedPage[] = []
  const log = vi.fn()
  server = await startPairingServer({
    port: 0,
    allowOrigins: [ORIGIN],
    pairing,
    log,
    onPaired: (page) => paired.push(page),
    maxFrameBytes: options.maxFrameBytes,
    handshakeTimeoutMs: options.handshakeTimeoutMs,
  })
  return { server, pairing, paired, log }
}

/** Opens a socket; resolves with the HTTP status when the upgrade is refused. */
function open(
  port: number,
  headers: Record<string, string | undefined> = { origin: ORIGIN },
  host = `127.0.0.1:${port}`,
): Promise<{ socket?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, {
      headers: { ...(headers as Record<string, string>), host },
      ...(headers.origin ? { origin: headers.origin } : {}),
    })
    socket.once('open', () => resolve({ socket }))
    socket.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }))
    socket.once('error', () => resolve({}))
  })
}

interface Conversation {
  replies: unknown[]
  closed: Promise<{ code: number; reason: string }>
  next(): Promise<unknown>
}

function converse(socket: WebSocket): Conversation {
  const replies: unknown[] = []
  const waiters: ((value: unknown) => void)[] = []
  socket.on('message', (data) => {
    const value = JSON.parse(String(data))
    const waiter = waiters.shift()
    if (waiter) waiter(value)
    else replies.push(value)
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  )
  return {
    replies,
    closed,
    next: () =>
      replies.length > 0
        ? Promise.resolve(replies.shift())
        : new Promise((resolve) => waiters.push(resolve)),
  }
}

async function pairWith(port: number, message: object) {
  const { socket } = await open(port)
  if (!socket) throw new Error('upgrade refused')
  const talk = converse(socket)
  socket.send(JSON.stringify(message))
  return { socket, talk, reply: await talk.next() }
}

describe('checkUpgrade', () => {
  const server = { port: 17840, allowOrigins: [ORIGIN] }
  it('accepts loopback, a loopback Host for this port and an allowed Origin', () => {
    expect(
      checkUpgrade({ host: 'localhost:17840', origin: ORIGIN, remoteAddress: '127.0.0.1' }, server),
    ).toEqual({ ok: true, origin: ORIGIN })
    expect(
      checkUpgrade(
        { host: '127.0.0.1:17840', origin: ORIGIN, remoteAddress: '::ffff:127.0.0.1' },
        server,
      ).ok,
    ).toBe(true)
  })

  it.each([
    [{ host: 'localhost:17840', origin: ORIGIN, remoteAddress: '10.0.0.2' }, 403, 'loopback'],
    [{ host: 'evil.test:17840', origin: ORIGIN, remoteAddress: '127.0.0.1' }, 421, 'Host'],
    [{ host: 'localhost:80', origin: ORIGIN, remoteAddress: '127.0.0.1' }, 421, 'Host'],
    [{ origin: ORIGIN, remoteAddress: '127.0.0.1' }, 421, 'Host'],
    [{ host: 'localhost:17840', remoteAddress: '127.0.0.1' }, 403, 'missing Origin'],
    [
      { host: 'localhost:17840', origin: 'http://evil.test', remoteAddress: '127.0.0.1' },
      403,
      'not allowed',
    ],
    [{ host: 'localhost:17840', origin: 'null', remoteAddress: '127.0.0.1' }, 403, 'not allowed'],
  ])('refuses %j', (request, status, reason) => {
    const check = checkUpgrade(request, server)
    expect(check).toMatchObject({ ok: false, status })
    expect(!check.ok && check.reason).toContain(reason)
  })

  it('knows loopback addresses', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true)
    expect(isLoopbackAddress('127.1.2.3')).toBe(true)
    expect(isLoopbackAddress('::1')).toBe(true)
    expect(isLoopbackAddress('192.168.1.2')).toBe(false)
    expect(isLoopbackAddress(undefined)).toBe(false)
  })
})

describe('startPairingServer', () => {
  it('binds 127.0.0.1 only', async () => {
    const { server } = await start()
    const reach = (host: string) =>
      new Promise<number | string>((resolve) => {
        const req = httpRequest({ host, port: server.port, path: '/' }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
        req.end()
      })
    expect(await reach('127.0.0.1')).toBe(426)
    expect(await reach('::1')).not.toBe(426)
  })

  it('refuses upgrades with a wrong Origin, no Origin or a wrong Host', async () => {
    const { server, log } = await start()
    expect(await open(server.port, { origin: 'http://evil.test' })).toEqual({ status: 403 })
    expect(await open(server.port, {})).toEqual({ status: 403 })
    expect(await open(server.port, { origin: ORIGIN }, `attacker.test:${server.port}`)).toEqual({
      status: 421,
    })
    expect(
      (await open(server.port, { origin: ORIGIN }, `localhost:${server.port}`)).socket,
    ).toBeDefined()
    expect(log).toHaveBeenCalledWith(expect.stringContaining('missing Origin'))
  })

  it('pairs with the current code and hands out a token that resumes', async () => {
    const { server, pairing, paired } = await start()
    const { reply, socket } = await pairWith(server.port, {
      type: 'pair',
      code: pairing.currentCode().code,
    })
    expect(reply).toEqual({ type: 'paired', token: expect.any(String) })
    expect(paired).toHaveLength(1)
    expect(paired[0].origin).toBe(ORIGIN)
    expect(server.current()).toBe(paired[0])

    socket.close()
    await vi.waitFor(() => expect(server.current()).toBeUndefined())
    const resumed = await pairWith(server.port, {
      type: 'resume',
      token: (reply as { token: string }).token,
    })
    expect(resumed.reply).toEqual({ type: 'paired', token: expect.any(String) })
    expect(paired).toHaveLength(2)
  })

  it('rejects wrong codes and rotates the code after five of them', async () => {
    const { server, pairing } = await start()
    const { code } = pairing.currentCode()
    const wrong = code.startsWith('A') ? 'BBBB-BBBB' : 'AAAA-AAAA'
    for (let i = 0; i < 5; i++) {
      const { reply, talk } = await pairWith(server.port, { type: 'pair', code: wrong })
      expect(reply).toEqual({ type: 'rejected', reason: 'bad_code' })
      expect(await talk.closed).toMatchObject({ code: CloseCode.rejected })
    }
    const stale = await pairWith(server.port, { type: 'pair', code })
    expect(stale.reply).toEqual({ type: 'rejected', reason: 'bad_code' })
    const fresh = await pairWith(server.port, { type: 'pair', code: pairing.currentCode().code })
    expect(fresh.reply).toMatchObject({ type: 'paired' })
  })

  it('supersedes the older page with a terminal close and refuses its token', async () => {
    const { server, pairing } = await start()
    const first = await pairWith(server.port, { type: 'pair', code: pairing.currentCode().code })
    const oldToken = (first.reply as { token: string }).token
    const second = await pairWith(server.port, { type: 'pair', code: pairing.currentCode().code })
    expect(second.reply).toMatchObject({ type: 'paired' })
    expect(await first.talk.next()).toEqual({ type: 'superseded' })
    expect(await first.talk.closed).toMatchObject({ code: CloseCode.superseded })

    const replay = await pairWith(server.port, { type: 'resume', token: oldToken })
    expect(replay.reply).toEqual({ type: 'rejected', reason: 'bad_token' })
    expect(second.socket.readyState).toBe(WebSocket.OPEN)
  })

  it('rejects a malformed handshake and one that never comes', async () => {
    const { server } = await start({ handshakeTimeoutMs: 100 })
    const bad = await pairWith(server.port, { type: 'pair', code: 'ABCD-EFGH', extra: 1 })
    expect(bad.reply).toEqual({ type: 'rejected', reason: 'invalid_handshake' })

    const { socket } = await open(server.port)
    const talk = converse(socket!)
    expect(await talk.next()).toEqual({ type: 'rejected', reason: 'handshake_timeout' })
    expect(await talk.closed).toMatchObject({ code: CloseCode.rejected })
  })

  it('closes a paired socket that sends a frame larger than the bound', async () => {
    const { server, pairing, paired } = await start({ maxFrameBytes: 2048 })
    const { socket, talk } = await pairWith(server.port, {
      type: 'pair',
      code: pairing.currentCode().code,
    })
    const received = vi.fn()
    paired[0].onMessage(received)
    socket.send(JSON.stringify({ small: true }))
    await vi.waitFor(() => expect(received).toHaveBeenCalledWith('{"small":true}'))
    socket.send('x'.repeat(4096))
    expect(await talk.closed).toMatchObject({ code: 1009 })
    expect(received).toHaveBeenCalledTimes(1)
    await vi.waitFor(() => expect(server.current()).toBeUndefined())
  })
})
