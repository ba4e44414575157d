import { afterEach, describe, expect, it } from 'vitest'
import { createToolmark } from '@toolmark/core'
import {
  createMcpPairingObserver,
  hasMcpSession,
  type McpPairingSnapshot,
} from '@toolmark/mcp/client'
import { createPairing } from '../src/pairing'
import { startPairingServer } from '../src/pairingServer'
import { ORIGIN, OriginWebSocket, testStorage, until } from './harness'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function server() {
  const pairing = createPairing()
  const running = await startPairingServer({
    port: 0,
    allowOrigins: [ORIGIN],
    pairing,
    log: () => {},
    onPaired: () => {},
  })
  cleanups.push(() => running.close())
  return { running, pairing }
}

/** An observer on a fresh registry, with every snapshot it notified. */
function observe(port: number, storage = testStorage()) {
  const pairing = createMcpPairingObserver(createToolmark(), {
    port,
    storage,
    WebSocket: OriginWebSocket,
    reconnect: { initialMs: 20, maxMs: 40 },
  })
  const seen: McpPairingSnapshot[] = []
  pairing.subscribe(() => seen.push(pairing.getSnapshot()))
  cleanups.push(() => pairing.stop())
  return { pairing, seen, storage, statuses: () => seen.map((s) => s.status) }
}

describe('createMcpPairingObserver', () => {
  it('starts idle, pairs with a code and goes idle on stop, keeping the session', async () => {
    const { running, pairing: server_ } = await server()
    const { pairing, storage, statuses } = observe(running.port)
    expect(pairing.getSnapshot()).toEqual({ status: 'idle' })
    pairing.connect(server_.currentCode().code)
    await until(() => pairing.getSnapshot().status === 'paired', 'paired')
    expect(statuses()).toEqual(['connecting', 'paired'])
    const paired = pairing.getSnapshot()
    expect(Object.isFrozen(paired)).toBe(true)
    pairing.stop()
    expect(pairing.getSnapshot()).toEqual({ status: 'idle' })
    expect(hasMcpSession(running.port, storage)).toBe(true)
    await until(() => running.current() === undefined, 'the server to see the socket close')
    // resume picks the stored session up again, with no code.
    expect(pairing.resume()).toBe(true)
    await until(() => pairing.getSnapshot().status === 'paired', 'resumed')
    expect(statuses()).toEqual(['connecting', 'paired', 'idle', 'connecting', 'paired'])
  })

  it('says rejected with the reason for a wrong code, and a new code starts again', async () => {
    const { running, pairing: server_ } = await server()
    const { pairing } = observe(running.port)
    pairing.connect('WRNG-C0DE')
    await until(() => pairing.getSnapshot().status === 'rejected', 'rejected')
    expect(pairing.getSnapshot()).toEqual({ status: 'rejected', reason: 'bad_code' })
    pairing.connect(server_.currentCode().code)
    await until(() => pairing.getSnapshot().status === 'paired', 'paired with the right code')
  })

  it('resume answers false, and starts nothing, without a stored session', async () => {
    const { running } = await server()
    const { pairing, seen } = observe(running.port)
    expect(pairing.resume()).toBe(false)
    expect(seen).toEqual([])
    // connect without a code and without a session: rejected no_code at once.
    pairing.connect()
    expect(pairing.getSnapshot()).toEqual({ status: 'rejected', reason: 'no_code' })
  })

  it('disconnect forgets the session; a second connect replaces the first without its late statuses', async () => {
    const { running, pairing: server_ } = await server()
    const { pairing, storage, statuses } = observe(running.port)
    pairing.connect(server_.currentCode().code)
    // Replaced before it got anywhere: only the second attempt's statuses count.
    pairing.connect('WRNG-C0DE')
    await until(() => pairing.getSnapshot().status === 'rejected', 'rejected')
    expect(statuses()).toEqual(['connecting', 'rejected'])
    pairing.connect(server_.currentCode().code)
    await until(() => pairing.getSnapshot().status === 'paired', 'paired')
    pairing.disconnect()
    expect(pairing.getSnapshot()).toEqual({ status: 'idle' })
    expect(hasMcpSession(running.port, storage)).toBe(false)
    expect(pairing.resume()).toBe(false)
  })

  it('keeps the same snapshot while nothing changes, and isolates a listener that throws', async () => {
    const tm = createToolmark()
    const errors: string[] = []
    tm.events.on('error', (event) => errors.push(event.code))
    const pairing = createMcpPairingObserver(tm, { storage: testStorage() })
    const before = pairing.getSnapshot()
    pairing.stop()
    expect(pairing.getSnapshot()).toBe(before)
    const other: string[] = []
    pairing.subscribe(() => {
      throw new Error('listener')
    })
    pairing.subscribe(() => other.push(pairing.getSnapshot().status))
    pairing.connect()
    expect(errors).toEqual(['listener_threw'])
    expect(other).toEqual(['rejected'])
  })
})
