import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createToolmark, ok } from '@toolmark/core'
import { mcpPairing, type McpPairingStatus } from '@toolmark/mcp/client'
import { createPairing } from '../src/pairing'
import {
  BUSY_CLOSE_CODE,
  DEFAULT_MAX_PENDING_HANDSHAKES,
  startPairingServer,
  type PairedPage,
} from '../src/pairingServer'
import { ORIGIN, OriginWebSocket, testStorage, until } from './harness'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const b64 = (bytes: number) => randomBytes(bytes).toString('base64url')

/**
 * One local process flooding the port: `workers` loops, each opening a socket that sends a valid
 * `pair` hello at once and then holds it, until `total` sockets were opened. Counts the sockets
 * the server closed (turned away, or pushed out before their hello) and those it challenged.
 */
function flood(port: number, total: number, workers: number) {
  const sockets: WebSocket[] = []
  let opened = 0
  let closed = 0
  let challenged = 0
  cleanups.push(() => sockets.forEach((socket) => socket.terminate()))
  const one = () =>
    new Promise<void>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}`, { origin: ORIGIN })
      sockets.push(socket)
      socket.on('error', () => {})
      socket.once('open', () =>
        socket.send(JSON.stringify({ type: 'hello', version: 2, mode: 'pair', nonce: b64(32) })),
      )
      // The next socket opens once this one is challenged: no socket of the flood is silent
      // when another arrives, so every one pushes out a challenged socket, or is turned away.
      socket.once('message', () => {
        challenged++
        resolve()
      })
      socket.once('close', (code) => {
        // Turned away (1013), or pushed out while still silent (cut: 1006).
        if (code === BUSY_CLOSE_CODE || code === 1006) closed++
        resolve()
      })
    })
  const done = Promise.all(
    Array.from({ length: workers }, async () => {
      while (opened < total) {
        opened++
        await one()
      }
    }),
  )
  return {
    done,
    stats: () => ({ opened, closed, challenged }),
  }
}

describe('a handshake flood from one local process', () => {
  it('never pushes out a page still deriving its proof; the flood is turned away instead', async () => {
    const pairing = createPairing()
    const paired: PairedPage[] = []
    // The default 256 pending handshakes. The times are widened so that a loaded machine opens
    // the whole flood while the page still holds its proof (the order is what is tested).
    const server = await startPairingServer({
      port: 0,
      allowOrigins: [ORIGIN],
      pairing,
      log: () => {},
      onPaired: (page) => paired.push(page),
      handshakeTimeoutMs: 30_000,
      proofWindowMs: 20_000,
    })
    cleanups.push(() => server.close())
    // Half the slots are taken before the page comes, the rest of the flood arrives after it.
    const before = flood(server.port, DEFAULT_MAX_PENDING_HANDSHAKES / 2, 8)
    await before.done

    // A slow device: its proof leaves only once the flood has overflowed every slot.
    let challenge: () => void = () => {}
    const challenged = new Promise<void>((resolve) => (challenge = resolve))
    let release: () => void = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    class SlowPage extends OriginWebSocket {
      constructor(url: string) {
        super(url)
        this.on('message', (data) => {
          if (String(data).includes('"challenge"')) challenge()
        })
      }
      override send(data: string): void {
        if (!data.includes('"proof"')) return super.send(data)
        void released.then(() => super.send(data))
      }
    }
    const statuses: McpPairingStatus[] = []
    const tm = createToolmark()
    tm.register({ name: 'echo', description: 'Echo', hints: { readOnly: true }, run: () => ok(1) })
    cleanups.push(
      tm.use(
        mcpPairing({
          port: server.port,
          code: pairing.currentCode().code,
          storage: testStorage(),
          WebSocket: SlowPage,
          handshakeTimeoutMs: 10_000,
          reconnect: { initialMs: 20, maxMs: 40, maxAttempts: 3 },
          onStatus: (status) => statuses.push(status),
        }),
      ),
    )
    await challenged

    const attack = flood(server.port, DEFAULT_MAX_PENDING_HANDSHAKES + 64, 1)
    // The proof leaves once the flood overflowed the slots, well inside the 3 s proof window.
    // The proof leaves once the whole flood came: more arrivals than there are slots.
    await attack.done
    release()
    await until(() => statuses.at(-1) === 'paired', 'the page to pair', 5_000)

    expect(statuses).toEqual(['connecting', 'paired'])
    expect(paired).toHaveLength(1)
    // The flood overflowed the slots: the page's was the one kept.
    // Every slot was taken; the arrivals past them were turned away, none pushed out.
    const { opened, closed, challenged: floodChallenged } = attack.stats()
    expect(opened).toBe(DEFAULT_MAX_PENDING_HANDSHAKES + 64)
    expect(before.stats().closed).toBe(0)
    expect(closed).toBe(opened - floodChallenged)
    expect(closed).toBeGreaterThan(64)
  }, 40_000)

  it('lets a page in once flood sockets outstay their proof window', async () => {
    const pairing = createPairing()
    const paired: PairedPage[] = []
    const server = await startPairingServer({
      port: 0,
      allowOrigins: [ORIGIN],
      pairing,
      log: () => {},
      onPaired: (page) => paired.push(page),
      proofWindowMs: 300,
    })
    cleanups.push(() => server.close())
    // Every slot taken by a socket that was challenged and never answers.
    const attack = flood(server.port, DEFAULT_MAX_PENDING_HANDSHAKES + 20, 8)
    await attack.done
    await until(
      () => attack.stats().challenged + attack.stats().closed >= 200,
      'the flood to take the slots',
    )

    const statuses: McpPairingStatus[] = []
    const tm = createToolmark()
    tm.register({ name: 'echo', description: 'Echo', hints: { readOnly: true }, run: () => ok(1) })
    cleanups.push(
      tm.use(
        mcpPairing({
          port: server.port,
          code: pairing.currentCode().code,
          storage: testStorage(),
          WebSocket: OriginWebSocket,
          handshakeTimeoutMs: 10_000,
          reconnect: { initialMs: 100, maxMs: 400, maxAttempts: 10 },
          onStatus: (status) => statuses.push(status),
        }),
      ),
    )
    await until(() => statuses.at(-1) === 'paired', 'the page to pair', 8_000)
    expect(paired).toHaveLength(1)
  }, 20_000)
})
