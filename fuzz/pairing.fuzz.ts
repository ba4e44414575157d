import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import fc from 'fast-check'
import { it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { createToolmark, ok } from '@toolmark/core'
import { mcpPairing, type McpPairingStatus, type TokenStorage } from '@toolmark/mcp/client'
import { createPageHandshake, type PageSecret } from '../packages/mcp/src/client/pageHandshake'
import { normalizeCode } from '../packages/mcp/src/handshake'
import { createPairing } from '../packages/mcp/src/pairing'
import { startPairingServer, type PairedPage } from '../packages/mcp/src/pairingServer'
import { Tally, describe, seedFor } from './support/row'

const ORIGIN = 'http://localhost:5173'
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

const b64 = (bytes: number) => randomBytes(bytes).toString('base64url')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `ws` with the Origin header a page at ORIGIN sends. */
class PageSocket extends WebSocket {
  constructor(url: string) {
    super(url, { origin: ORIGIN })
  }
}

/** Opens an upgrade with exactly these headers; the HTTP status when it is refused. */
function upgrade(
  port: number,
  headers: { origin?: string; host: string },
): Promise<{ accepted: boolean; status?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, {
      headers: { host: headers.host },
      ...(headers.origin === undefined ? {} : { origin: headers.origin }),
    })
    socket.once('open', () => {
      socket.terminate()
      resolve({ accepted: true })
    })
    socket.once('unexpected-response', (_req, res) => {
      res.resume()
      resolve({ accepted: false, status: res.statusCode })
    })
    socket.once('error', () => resolve({ accepted: false }))
  })
}

/** Frames of one socket, in order. */
function frames(socket: WebSocket) {
  const queue: string[] = []
  const waiters: ((text: string | undefined) => void)[] = []
  socket.on('message', (data) => {
    const text = String(data)
    const waiter = waiters.shift()
    if (waiter) waiter(text)
    else queue.push(text)
  })
  socket.once('close', () => waiters.splice(0).forEach((w) => w(undefined)))
  return {
    next: (): Promise<string | undefined> =>
      queue.length > 0
        ? Promise.resolve(queue.shift())
        : socket.readyState === WebSocket.OPEN
          ? new Promise((resolve) => waiters.push(resolve))
          : Promise.resolve(undefined),
  }
}

/** A page's whole handshake with `secret`: `paired` with the token, or how it ended. */
async function handshake(port: number, secret: PageSecret): Promise<string> {
  const socket = new PageSocket(`ws://127.0.0.1:${port}`)
  socket.on('error', () => {})
  try {
    await once(socket, 'open')
    const reader = frames(socket)
    const page = createPageHandshake(secret, port)
    socket.send(await page.hello())
    for (;;) {
      const text = await reader.next()
      if (text === undefined) return 'closed'
      const step = await page.receive(text)
      if (step.kind === 'send') socket.send(step.frame)
      else if (step.kind === 'paired') return `paired:${step.token}`
      else if (step.kind === 'rejected') return step.reason
      else return 'unverified'
    }
  } finally {
    socket.terminate()
  }
}

/** One wrong guess the cheap way: a hello, then a proof that matches no code. */
async function floodGuess(port: number): Promise<string> {
  const socket = new PageSocket(`ws://127.0.0.1:${port}`)
  socket.on('error', () => {})
  try {
    await once(socket, 'open')
    const reader = frames(socket)
    socket.send(JSON.stringify({ type: 'hello', version: 2, mode: 'pair', nonce: b64(32) }))
    if ((await reader.next()) === undefined) return 'closed'
    socket.send(JSON.stringify({ type: 'proof', proof: b64(32) }))
    const reply = await reader.next()
    return reply === undefined ? 'closed' : ((JSON.parse(reply) as { type: string }).type ?? '')
  } finally {
    socket.terminate()
  }
}

function memoryStorage(): TokenStorage {
  const map = new Map<string, string>()
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  }
}

type Squatter =
  'silent' | 'close' | 'garbage' | 'challenge' | 'paired-at-once' | 'replay' | 'relay' | 'reject'

it('pairing refuses bad Origins and Hosts, guessed codes, stale tokens and squatting servers', async (context) => {
  const seed = seedFor('pairing')
  const tally = new Tally(seed)
  const counts = { origins: 0, hosts: 0, flood: 0, guesses: 0, tokens: 0, squatters: 0 }
  const codes: string[] = []
  const pairing = createPairing({ onCode: (c) => codes.push(c.code) })
  const paired: PairedPage[] = []
  // Wrong answers come back at once here (the CLI waits 1 s), so the flood runs at full speed.
  const server = await startPairingServer({
    port: 0,
    allowOrigins: [ORIGIN],
    pairing,
    log: () => {},
    onPaired: (page) => paired.push(page),
    failureDelayMs: 0,
  })
  const { port } = server
  const cleanups: (() => unknown)[] = [() => server.close()]

  try {
    // The controls: the right Origin and Host are let in, so a refusal below means something.
    tally.check(
      (await upgrade(port, { origin: ORIGIN, host: `127.0.0.1:${port}` })).accepted,
      () => 'the allowed Origin was refused',
    )
    tally.check(
      (await upgrade(port, { origin: ORIGIN, host: `localhost:${port}` })).accepted,
      () => 'localhost was refused',
    )

    // 1. Origins: anything but the allowed origin, a missing one included, is refused.
    const origin = fc
      .oneof(
        fc.constantFrom(
          undefined,
          '',
          'null',
          'http://evil.test',
          'http://localhost:5174',
          'https://localhost:5173',
          'http://localhost:5173/',
          'http://localhost',
          'http://127.0.0.1:5173',
          'http://localhost:5173.evil.test',
          'http://evil.test/http://localhost:5173',
          'chrome-extension://abcdef',
          'file://',
        ),
        fc.webUrl().map((url) => new URL(url).origin),
        fc.string({ maxLength: 30 }).filter((s) => /^[\x21-\x7e]*$/.test(s)),
      )
      .filter((o) => o !== ORIGIN)
    await fc.assert(
      fc.asyncProperty(origin, async (o) => {
        tally.runs++
        counts.origins++
        const got = await upgrade(port, { origin: o, host: `127.0.0.1:${port}` })
        tally.check(got.status === 403, () => `Origin ${describe(o)}: ${describe(got)}`)
      }),
      { numRuns: 300, seed },
    )

    // 2. Hosts (DNS rebinding): only this port on 127.0.0.1 or localhost.
    const host = fc.oneof(
      fc.constantFrom(
        `evil.test:${port}`,
        `127.0.0.1.nip.io:${port}`,
        `localhost.evil.test:${port}`,
        `[::1]:${port}`,
        '127.0.0.1',
        'localhost',
        `127.0.0.2:${port}`,
        `0.0.0.0:${port}`,
        `localhost:${port}x`,
      ),
      fc.domain().map((d) => `${d}:${port}`),
      fc
        .integer({ min: 1, max: 65_535 })
        .filter((p) => p !== port)
        .map((p) => `localhost:${p}`),
    )
    await fc.assert(
      fc.asyncProperty(host, async (h) => {
        tally.runs++
        counts.hosts++
        const got = await upgrade(port, { origin: ORIGIN, host: h })
        tally.check(got.status === 421, () => `Host ${describe(h)}: ${describe(got)}`)
      }),
      { numRuns: 300, seed },
    )

    // 3. Guessed codes: a flood of cheap wrong proofs, then guesses made the page's way (a PBKDF2
    // each) with random codes and with near misses of the real one. None pairs, the code the
    // person reads is never replaced, and the person still pairs with it afterwards.
    const code = pairing.currentCode().code
    const shown = codes.length
    let sent = 0
    const flooders = Array.from({ length: 16 }, async () => {
      while (sent < 2_000) {
        sent++
        tally.runs++
        counts.flood++
        const reply = await floodGuess(port)
        tally.check(reply === 'rejected', () => `a flooded guess got ${reply}`)
      }
    })
    await Promise.all(flooders)
    const guess = fc
      .oneof(
        fc
          .array(fc.constantFrom(...ALPHABET), { minLength: 10, maxLength: 10 })
          .map((c) => c.join('')),
        fc.tuple(fc.nat(9), fc.constantFrom(...ALPHABET)).map(([i, c]) => {
          const raw = normalizeCode(code)
          return raw.slice(0, i) + c + raw.slice(i + 1)
        }),
      )
      .filter((g) => normalizeCode(g) !== normalizeCode(code))
    await fc.assert(
      fc.asyncProperty(guess, async (g) => {
        tally.runs++
        counts.guesses++
        const outcome = await handshake(port, { mode: 'pair', code: g })
        tally.check(outcome === 'bad_code', () => `guess ${g} ended ${outcome}`)
      }),
      { numRuns: 60, seed },
    )
    tally.check(
      codes.length === shown && pairing.currentCode().code === code,
      () => 'the guesses replaced the code',
    )
    tally.check(paired.length === 0, () => `${paired.length} guessers paired`)
    const person = await handshake(port, { mode: 'pair', code })
    tally.check(
      person.startsWith('paired:'),
      () => `the person could not pair after the flood: ${person}`,
    )

    // 4. Stale and forged tokens: only the newest session resumes.
    let live = person.slice('paired:'.length)
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('resume', 'pair', 'forged', 'stale'), {
          minLength: 1,
          maxLength: 4,
        }),
        async (steps) => {
          const old: string[] = []
          for (const step of steps) {
            if (step === 'resume' || step === 'pair') {
              const outcome =
                step === 'resume'
                  ? await handshake(port, { mode: 'resume', token: live })
                  : await handshake(port, { mode: 'pair', code: pairing.currentCode().code })
              if (
                !tally.check(
                  outcome.startsWith('paired:'),
                  () => `the live session could not ${step}: ${outcome}`,
                )
              )
                return
              old.push(live)
              live = outcome.slice('paired:'.length)
              continue
            }
            tally.runs++
            counts.tokens++
            const token = step === 'forged' || old.length === 0 ? b64(32) : old[old.length - 1]
            const outcome = await handshake(port, { mode: 'resume', token })
            tally.check(outcome === 'bad_token', () => `a ${step} token ended ${outcome}`)
          }
        },
      ),
      { numRuns: 100, seed },
    )

    // 5. A process on the page's port that is not the paired toolmark-mcp: the page never pairs,
    // never sends the code or token, and never attaches its bridge.
    const recorded: string[] = []
    {
      const socket = new PageSocket(`ws://127.0.0.1:${port}`)
      socket.on('error', () => {})
      await once(socket, 'open')
      const reader = frames(socket)
      const page = createPageHandshake({ mode: 'resume', token: live }, port)
      socket.send(await page.hello())
      const challenge = await reader.next()
      if (challenge) recorded.push(challenge)
      socket.terminate()
    }
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Squatter>(
          'silent',
          'close',
          'garbage',
          'challenge',
          'paired-at-once',
          'replay',
          'relay',
          'reject',
        ),
        fc.boolean(),
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 40 }),
            fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        async (behaviour, resume, junk) => {
          tally.runs++
          counts.squatters++
          const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
          await once(wss, 'listening')
          const fakePort = (wss.address() as { port: number }).port
          const received: string[] = []
          wss.on('connection', (socket) => {
            if (behaviour === 'close') return socket.terminate()
            let upstream: WebSocket | undefined
            if (behaviour === 'relay') {
              upstream = new PageSocket(`ws://127.0.0.1:${port}`)
              const queue: string[] = []
              upstream.on('open', () => queue.splice(0).forEach((t) => upstream!.send(t)))
              upstream.on('message', (data) => socket.send(String(data)))
              upstream.on('close', () => socket.close())
              upstream.on('error', () => {})
              socket.on('close', () => upstream!.close())
              socket.on('message', (data) =>
                upstream!.readyState === WebSocket.OPEN
                  ? upstream!.send(String(data))
                  : queue.push(String(data)),
              )
            }
            socket.on('message', (data) => {
              const text = String(data)
              received.push(text)
              let type: unknown
              try {
                type = (JSON.parse(text) as { type?: unknown }).type
              } catch {}
              if (behaviour === 'garbage') junk.forEach((j) => socket.send(j))
              else if (behaviour === 'paired-at-once')
                socket.send(
                  JSON.stringify(resume ? { type: 'paired' } : { type: 'paired', proof: b64(32) }),
                )
              else if (behaviour === 'reject')
                socket.send(JSON.stringify({ type: 'rejected', reason: 'bad_token' }))
              else if (behaviour === 'replay' && type === 'hello')
                recorded.forEach((r) => socket.send(r))
              else if (behaviour === 'challenge' && type === 'hello')
                socket.send(
                  JSON.stringify({
                    type: 'challenge',
                    nonce: b64(32),
                    ...(resume ? { proof: b64(32) } : { salt: b64(16) }),
                  }),
                )
              else if (behaviour === 'challenge' && type === 'proof')
                // Well formed for the page's mode, but proving nothing.
                socket.send(
                  JSON.stringify(resume ? { type: 'paired' } : { type: 'paired', proof: b64(32) }),
                )
            })
          })
          const secretCode = pairing.currentCode().code
          const storage = memoryStorage()
          if (resume) storage.setItem(`toolmark:mcp:${fakePort}`, live)
          const tm = createToolmark({ dev: false })
          tm.register({
            name: 'echo',
            description: 'Echo',
            hints: { readOnly: true },
            run: () => ok(1),
          })
          const statuses: McpPairingStatus[] = []
          const before = paired.length
          const dispose = tm.use(
            mcpPairing({
              port: fakePort,
              ...(resume ? {} : { code: secretCode }),
              storage,
              WebSocket: PageSocket,
              handshakeTimeoutMs: behaviour === 'relay' ? 5_000 : 150,
              reconnect: { initialMs: 10, maxMs: 20, maxAttempts: 2 },
              onStatus: (status) => statuses.push(status),
            }),
          )
          const end = Date.now() + 10_000
          while (
            !['unverified', 'rejected', 'unreachable', 'paired'].includes(statuses.at(-1) ?? '') &&
            Date.now() < end
          )
            await sleep(10)
          dispose()
          await new Promise<void>((resolve) => {
            for (const client of wss.clients) client.terminate()
            wss.close(() => resolve())
          })
          const what = () =>
            `${behaviour} squatter, page ${resume ? 'resuming' : 'pairing'}: ${statuses.join(' → ')}`
          tally.check(!statuses.includes('paired'), () => `${what()} — the page paired`)
          tally.check(
            ['unverified', 'rejected', 'unreachable'].includes(statuses.at(-1) ?? ''),
            () => `${what()} — no final status`,
          )
          tally.check(
            paired.length === before,
            () => `${what()} — the real server paired through it`,
          )
          const secrets = [live, normalizeCode(secretCode), secretCode, secretCode.toLowerCase()]
          for (const text of received) {
            tally.check(
              !secrets.some((s) => text.includes(s)),
              () => `${what()} — received a secret: ${text}`,
            )
            tally.check(
              !text.includes('"protocol":1'),
              () => `${what()} — received bridge traffic: ${text}`,
            )
          }
        },
      ),
      { numRuns: 120, seed },
    )
    // Still the one live session: the squatters and relays changed nothing.
    const still = await handshake(port, { mode: 'resume', token: live })
    tally.check(still.startsWith('paired:'), () => `the live session stopped working: ${still}`)
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup()
  }

  const row = tally.report(context, {
    property: 'pairing attacks on the real `toolmark-mcp` pairing server',
    unit: 'attempts',
    holds: `all refused: ${counts.origins} bad Origins (403), ${counts.hosts} bad Hosts (421), ${counts.flood.toLocaleString('en-US')} flooded and ${counts.guesses} real code guesses (code never replaced, the person still pairs), ${counts.tokens} stale or forged tokens, ${counts.squatters} squatting, replaying or relaying servers (never paired, never sent a secret)`,
  })
  if (row.throws + row.violations > 0) throw new Error(row.examples.join('\n'))
})
