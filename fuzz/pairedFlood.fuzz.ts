import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import fc from 'fast-check'
import { it } from 'vitest'
import { WebSocket } from 'ws'
import { createPageHandshake } from '../packages/mcp/src/client/pageHandshake'
import { createPairing } from '../packages/mcp/src/pairing'
import { startPairingServer, type PairedPage } from '../packages/mcp/src/pairingServer'
import { Tally, describe, seedFor } from './support/row'

const ORIGIN = 'http://localhost:5173'
const RUNS = 25

const b64 = (bytes: number) => randomBytes(bytes).toString('base64url')

/** Frames of one socket, in order. */
function frames(socket: WebSocket) {
  const all: string[] = []
  const waiters: (() => void)[] = []
  socket.on('message', (data) => {
    all.push(String(data))
    waiters.splice(0).forEach((w) => w())
  })
  socket.once('close', () => waiters.splice(0).forEach((w) => w()))
  return {
    all,
    /** The frame at `index`, once it arrived; `undefined` if the socket closed first. */
    async at(index: number): Promise<string | undefined> {
      while (all.length <= index && socket.readyState === WebSocket.OPEN) {
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
      return all[index]
    },
  }
}

/** A page paired through the real handshake, as a raw socket. */
async function pairedSocket(port: number, code: string) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, { origin: ORIGIN })
  socket.on('error', () => {})
  await once(socket, 'open')
  const reader = frames(socket)
  const page = createPageHandshake({ mode: 'pair', code }, port)
  socket.send(await page.hello())
  for (let i = 0; ; i++) {
    const text = await reader.at(i)
    if (text === undefined) throw new Error('closed during the handshake')
    const step = await page.receive(text)
    if (step.kind === 'send') socket.send(step.frame)
    else if (step.kind === 'paired') return { socket, reader, after: i + 1, token: step.token }
    else throw new Error(`handshake ended ${step.kind}`)
  }
}

type Intruder = 'silent' | 'garbage' | 'bad-proof' | 'forged-resume' | 'stolen-resume-no-proof'

/** One hostile socket while the page is paired; how it ended. */
async function intrude(port: number, kind: Intruder, token: string): Promise<string> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, { origin: ORIGIN })
  socket.on('error', () => {})
  try {
    await once(socket, 'open')
    const reader = frames(socket)
    switch (kind) {
      case 'silent':
        return 'silent'
      case 'garbage':
        socket.send(b64(64))
        break
      case 'bad-proof':
        socket.send(JSON.stringify({ type: 'hello', version: 2, mode: 'pair', nonce: b64(32) }))
        if ((await reader.at(0)) === undefined) return 'closed'
        socket.send(JSON.stringify({ type: 'proof', proof: b64(32) }))
        break
      case 'forged-resume':
      case 'stolen-resume-no-proof': {
        // A forged token, or the page's real session id without the secret behind it.
        const session = kind === 'forged-resume' ? b64(16) : token.slice(0, 22)
        socket.send(
          JSON.stringify({ type: 'hello', version: 2, mode: 'resume', session, nonce: b64(32) }),
        )
        if ((await reader.at(0)) === undefined) return 'closed'
        socket.send(JSON.stringify({ type: 'proof', proof: b64(32) }))
      }
    }
    const reply = await Promise.race([
      reader.at(kind === 'garbage' ? 0 : 1),
      new Promise<undefined>((resolve) => setTimeout(resolve, 300)),
    ])
    return reply === undefined ? 'closed' : ((JSON.parse(reply) as { type?: string }).type ?? '?')
  } catch {
    return 'closed'
  } finally {
    socket.terminate()
  }
}

it('floods after pairing: the paired page keeps its link, every frame once and in order', async (context) => {
  const seed = seedFor('paired flood')
  const tally = new Tally(seed)
  const counts = { frames: 0, replies: 0, intruders: 0, refused: 0 }

  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.string({ maxLength: 2_000 }), { minLength: 50, maxLength: 400 }),
      fc.array(
        fc.constantFrom<Intruder>(
          'silent',
          'garbage',
          'bad-proof',
          'forged-resume',
          'stolen-resume-no-proof',
        ),
        { minLength: 10, maxLength: 60 },
      ),
      fc.nat(200),
      async (texts, intruders, replies) => {
        const pairing = createPairing()
        const paired: PairedPage[] = []
        const server = await startPairingServer({
          port: 0,
          allowOrigins: [ORIGIN],
          pairing,
          log: () => {},
          onPaired: (page) => paired.push(page),
          failureDelayMs: 0,
        })
        let page: Awaited<ReturnType<typeof pairedSocket>> | undefined
        try {
          page = await pairedSocket(server.port, pairing.currentCode().code)
          const link = paired[0]
          const received: string[] = []
          link.onMessage((text) => received.push(text))
          // The page floods the server while hostile sockets try the port, and the server
          // answers the page all along.
          const sent = texts.map((text, i) => `${i}:${text}`)
          const flood = (async () => {
            for (const text of sent) page!.socket.send(text)
          })()
          const attacks = Promise.all(
            intruders.map((kind) => intrude(server.port, kind, page!.token)),
          )
          for (let i = 0; i < replies; i++) link.send(`reply:${i}`)
          const [, outcomes] = await Promise.all([flood, attacks])
          const last = await page.reader.at(page.after + replies - 1)
          const deadline = Date.now() + 5_000
          while (received.length < sent.length && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 5))
          }
          tally.runs++
          counts.frames += sent.length
          counts.replies += replies
          counts.intruders += intruders.length
          counts.refused += outcomes.filter((o) => o !== 'paired').length
          const what = () =>
            `${sent.length} frames, ${replies} replies, intruders ${describe(intruders)}`
          tally.check(paired.length === 1, () => `${what()}: ${paired.length} pairings`)
          tally.check(server.current() === link && !link.closed, () => `${what()}: link lost`)
          tally.check(
            received.length === sent.length && received.every((text, i) => text === sent[i]),
            () => `${what()}: the server got ${received.length} of ${sent.length} frames in order`,
          )
          const got = page.reader.all.slice(page.after)
          tally.check(
            (replies === 0 || last !== undefined) &&
              got.length === replies &&
              got.every((text, i) => text === `reply:${i}`),
            () => `${what()}: the page got ${describe(got.slice(0, 5))}…`,
          )
          tally.check(
            !outcomes.includes('paired'),
            () => `${what()}: an intruder paired: ${describe(outcomes)}`,
          )
        } catch (error) {
          tally.threw('a paired flood', error)
        } finally {
          page?.socket.terminate()
          await server.close()
        }
      },
    ),
    { numRuns: RUNS, seed },
  )
  const row = tally.report(context, {
    property: 'floods after pairing (page frames, server replies, hostile sockets)',
    unit: 'paired sessions',
    holds: `the page kept its link in every session: ${counts.frames.toLocaleString('en-US')} page frames and ${counts.replies.toLocaleString('en-US')} replies each delivered once, in order; ${counts.intruders} hostile sockets (silent, garbage, wrong proofs, forged or stolen sessions), ${counts.refused} refused, none paired or superseded the page`,
  })
  if (row.throws + row.violations > 0) throw new Error(row.examples.join('\n'))
})
