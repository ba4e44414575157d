import { request as httpRequest } from 'node:http'
import { createConnection } from 'node:net'
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { CloseCode, transcriptText } from '../src/handshake'
import { codeKey, mac } from '../src/handshakeCrypto'
import { createPairing, type Pairing } from '../src/pairing'
import {
  checkUpgrade,
  isLoopbackAddress,
  startPairingServer,
  type PairedPage,
  type PairingServer,
} from '../src/pairingServer'
import type { PageSecret } from '../src/client/pageHandshake'
import { handshakeOn, readFrames, type FrameReader } from './harness'

const ORIGIN = 'http://localhost:5173'
let server: PairingServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

const b64 = (bytes: number) => randomBytes(bytes).toString('base64url')

async function start(
  options: {
    pairing?: Pairing
    maxFrameBytes?: number
    handshakeTimeoutMs?: number
    maxPendingHandshakes?: number
    failureDelayMs?: number
  } = {},
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
    maxPendingHandshakes: options.maxPendingHandshakes,
    failureDelayMs: options.failureDelayMs ?? 0,
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

async function connect(port: number): Promise<{ socket: WebSocket; reader: FrameReader }> {
  const { socket } = await open(port)
  if (!socket) throw new Error('upgrade refused')
  return { socket, reader: readFrames(socket) }
}

/** Runs a page's handshake with `secret`; returns the outcome and the socket. */
async function handshakeWith(port: number, secret: PageSecret) {
  const { socket, reader } = await connect(port)
  const step = await handshakeOn(socket, reader, secret, port)
  return { socket, reader, step }
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

  it('pairs with a proof of the code, proves itself, and the derived token resumes', async () => {
    const { server, pairing, paired } = await start()
    const code = pairing.currentCode().code
    const { step, socket, reader } = await handshakeWith(server.port, { mode: 'pair', code })
    expect(step).toEqual({ kind: 'paired', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) })
    // Neither the code nor the token ever crossed the socket.
    for (const frame of reader.frames) {
      expect(JSON.stringify(frame)).not.toContain(code.replace('-', ''))
      if (step.kind === 'paired') expect(JSON.stringify(frame)).not.toContain(step.token)
    }
    expect(paired).toHaveLength(1)
    expect(paired[0].origin).toBe(ORIGIN)
    expect(server.current()).toBe(paired[0])

    socket.close()
    await vi.waitFor(() => expect(server.current()).toBeUndefined())
    if (step.kind !== 'paired') return
    const resumed = await handshakeWith(server.port, { mode: 'resume', token: step.token })
    expect(resumed.step).toEqual({ kind: 'paired', token: expect.any(String) })
    expect(resumed.step).not.toEqual(step)
    expect(paired).toHaveLength(2)
  })

  it('answers wrong codes late, closes with 4003, and keeps the code the person reads', async () => {
    const onCode = vi.fn()
    const { server, pairing, log } = await start({
      pairing: createPairing({ onCode }),
      failureDelayMs: 300,
    })
    const { code } = pairing.currentCode()
    const wrong = code.startsWith('A') ? 'BBBBB-BBBBB' : 'AAAAA-AAAAA'
    const results = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const { reader, step } = await handshakeWith(server.port, { mode: 'pair', code: wrong })
        return { step, closed: await reader.closed }
      }),
    )
    for (const { step, closed } of results) {
      expect(step).toEqual({ kind: 'rejected', reason: 'bad_code' })
      expect(closed.code).toBe(CloseCode.rejected)
    }
    expect(onCode).toHaveBeenCalledTimes(1)
    expect(log).toHaveBeenCalledWith(expect.stringContaining('refused (bad_code)'))
    const started = Date.now()
    const late = await handshakeWith(server.port, { mode: 'pair', code: wrong })
    expect(late.step).toMatchObject({ kind: 'rejected' })
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)

    const right = await handshakeWith(server.port, { mode: 'pair', code })
    expect(right.step).toMatchObject({ kind: 'paired' })
  })

  it('lets exactly one of two pages pair with the same code at the same time', async () => {
    const { server, pairing, paired } = await start()
    const code = pairing.currentCode().code
    const [a, b] = await Promise.all([
      handshakeWith(server.port, { mode: 'pair', code }),
      handshakeWith(server.port, { mode: 'pair', code }),
    ])
    const kinds = [a.step.kind, b.step.kind].sort()
    expect(kinds).toEqual(['paired', 'rejected'])
    expect([a.step, b.step]).toContainEqual({ kind: 'rejected', reason: 'bad_code' })
    expect(paired).toHaveLength(1)
  })

  it('refuses a proof replayed on another connection', async () => {
    const { server, pairing, paired } = await start()
    const { code } = pairing.currentCode()
    const nonce = b64(32)
    const hello = JSON.stringify({ type: 'hello', version: 2, mode: 'pair', nonce })

    // A recorded exchange: the answer to one challenge...
    const first = await connect(server.port)
    first.socket.send(hello)
    const challenge = JSON.parse(await first.reader.next())
    const transcript = {
      mode: 'pair' as const,
      port: server.port,
      pageNonce: nonce,
      serverNonce: challenge.nonce,
    }
    const answer = await mac(
      await codeKey(code, challenge.salt),
      transcriptText('page', transcript),
    )
    first.socket.close()

    // ...is no answer to the next one, even with the same page nonce.
    const second = await connect(server.port)
    second.socket.send(hello)
    const next = JSON.parse(await second.reader.next())
    expect(next.nonce).not.toBe(challenge.nonce)
    second.socket.send(JSON.stringify({ type: 'proof', proof: answer }))
    expect(JSON.parse(await second.reader.next())).toEqual({ type: 'rejected', reason: 'bad_code' })
    expect(paired).toHaveLength(0)
    expect((await handshakeWith(server.port, { mode: 'pair', code })).step).toMatchObject({
      kind: 'paired',
    })
  })

  it('supersedes the older page with a terminal close and refuses its stale token', async () => {
    const { server, pairing } = await start()
    const first = await handshakeWith(server.port, {
      mode: 'pair',
      code: pairing.currentCode().code,
    })
    const second = await handshakeWith(server.port, {
      mode: 'pair',
      code: pairing.currentCode().code,
    })
    expect(second.step).toMatchObject({ kind: 'paired' })
    expect(JSON.parse(await first.reader.next())).toEqual({ type: 'superseded' })
    expect(await first.reader.closed).toMatchObject({ code: CloseCode.superseded })

    if (first.step.kind !== 'paired') throw new Error('first pairing failed')
    const stale = await handshakeWith(server.port, { mode: 'resume', token: first.step.token })
    expect(stale.step).toEqual({ kind: 'rejected', reason: 'bad_token' })
    const forged = await handshakeWith(server.port, { mode: 'resume', token: b64(32) })
    expect(forged.step).toEqual({ kind: 'rejected', reason: 'bad_token' })
    expect(second.socket.readyState).toBe(WebSocket.OPEN)
  })

  it('rejects a malformed handshake, the old clear-text one, and one that never comes', async () => {
    const { server, pairing } = await start({ handshakeTimeoutMs: 100 })
    const { code } = pairing.currentCode()
    for (const frame of [
      { type: 'hello', version: 2, mode: 'pair', nonce: b64(32), extra: 1 },
      { type: 'hello', version: 1, mode: 'pair', nonce: b64(32) },
      { type: 'hello', version: 2, mode: 'resume', nonce: b64(32) },
      { type: 'pair', code },
      { type: 'resume', token: b64(32) },
    ]) {
      const { socket, reader } = await connect(server.port)
      socket.send(JSON.stringify(frame))
      expect(JSON.parse(await reader.next())).toEqual({
        type: 'rejected',
        reason: 'invalid_handshake',
      })
      expect(await reader.closed).toMatchObject({ code: CloseCode.rejected })
    }

    const { reader } = await connect(server.port)
    expect(JSON.parse(await reader.next())).toEqual({
      type: 'rejected',
      reason: 'handshake_timeout',
    })
    expect(await reader.closed).toMatchObject({ code: CloseCode.rejected })
    // The clear-text code above used nothing up.
    expect(pairing.currentCode().code).toBe(code)
  })

  it('ends a handshake whose page sends out of turn', async () => {
    const { server } = await start()
    const { socket, reader } = await connect(server.port)
    socket.send(JSON.stringify({ type: 'hello', version: 2, mode: 'pair', nonce: b64(32) }))
    socket.send(JSON.stringify({ type: 'hello', version: 2, mode: 'pair', nonce: b64(32) }))
    expect(JSON.parse(await reader.next())).toMatchObject({ type: 'challenge' })
    expect(JSON.parse(await reader.next())).toEqual({
      type: 'rejected',
      reason: 'invalid_handshake',
    })
  })

  it('pushes out the stalest pending sockets instead of refusing new ones', async () => {
    const { server, pairing } = await start({ maxPendingHandshakes: 4 })
    const idle = await Promise.all(Array.from({ length: 4 }, () => connect(server.port)))
    const pushed = await connect(server.port)
    expect((await idle[0].reader.closed).code).toBe(1006)
    expect(pushed.socket.readyState).toBe(WebSocket.OPEN)
    const page = await handshakeWith(server.port, {
      mode: 'pair',
      code: pairing.currentCode().code,
    })
    expect(page.step).toMatchObject({ kind: 'paired' })
  })

  it('cuts a request that never finishes its headers, but never a paired page', async () => {
    const { server, pairing } = await start({ handshakeTimeoutMs: 300 })
    const slow = createConnection({ host: '127.0.0.1', port: server.port })
    slow.on('error', () => {})
    slow.resume()
    slow.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`)
    const paired = await handshakeWith(server.port, {
      mode: 'pair',
      code: pairing.currentCode().code,
    })
    expect(paired.step).toMatchObject({ kind: 'paired' })
    await new Promise<void>((resolve) => slow.once('close', () => resolve()))
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(paired.socket.readyState).toBe(WebSocket.OPEN)
  })

  it('closes a paired socket that sends a frame larger than the bound', async () => {
    const { server, pairing, paired } = await start({ maxFrameBytes: 2048 })
    const { socket, reader } = await handshakeWith(server.port, {
      mode: 'pair',
      code: pairing.currentCode().code,
    })
    const received = vi.fn()
    paired[0].onMessage(received)
    socket.send(JSON.stringify({ small: true }))
    await vi.waitFor(() => expect(received).toHaveBeenCalledWith('{"small":true}'))
    socket.send('x'.repeat(4096))
    expect(await reader.closed).toMatchObject({ code: 1009 })
    expect(received).toHaveBeenCalledTimes(1)
    await vi.waitFor(() => expect(server.current()).toBeUndefined())
  })
})
