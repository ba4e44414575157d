import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import type { AddressInfo } from 'node:net'
import { WebSocket, WebSocketServer } from 'ws'
import { bridge, createInPageChannel, websocketTransport } from '@toolmark/core/bridge'
import type { Transport } from '@toolmark/core/bridge'
import { createPageClient } from '@toolmark/core/agent'
import type { PageClient } from '@toolmark/core/agent'
import type { PageConfirmedEvent, PageProgressEvent } from '@toolmark/core/agent'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
  vi.useRealTimers()
})

/** A page with a few tools, bridged to an agent over the in-page channel. */
function connect(options: { deadlineMs?: number; register?: (tm: Toolmark) => void } = {}) {
  const tm = createToolmark({ dev: true })
  tm.register({
    name: 'tickets.get',
    description: 'Reads a ticket',
    hints: { readOnly: true, untrustedContent: true },
    input: z.object({ id: z.string() }),
    run: (input) => ok({ id: input.id, title: 'Printer on fire' }),
  })
  tm.register({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Closes a ticket',
    hints: { consequential: true },
    input: z.object({ id: z.string() }),
    summary: (input) => `Close ticket ${input.id}`,
    run: (input) => ok({ id: input.id, closed: true }),
  })
  options.register?.(tm)
  const channel = createInPageChannel()
  const stop = tm.use(bridge({ transport: channel.page }))
  const client = createPageClient({ transport: channel.agent, deadlineMs: options.deadlineMs })
  cleanups.push(() => {
    client.close()
    stop()
    channel.close()
  })
  return { tm, client, channel }
}

/** A fake page on a wire the test controls: it records what the client sends. */
function fakePage() {
  const sent: any[] = []
  let deliver: (message: unknown) => void = () => {}
  const transport: Transport = {
    send: (text) => sent.push(JSON.parse(text)),
    onMessage: (listener) => {
      deliver = listener
      return () => {
        deliver = () => {}
      }
    },
  }
  const clientId = 'page_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
  return {
    transport,
    sent,
    clientId,
    deliver: (message: object) => deliver(JSON.stringify({ protocol: 1, clientId, ...message })),
    manifest: (rev = 1) =>
      deliver(JSON.stringify({ protocol: 1, type: 'manifest', clientId, rev, tools: [] })),
  }
}

describe('createPageClient, end to end over the in-page channel', () => {
  it("reads the page's manifest", async () => {
    const { tm, client } = connect()
    const manifest = await client.ready
    expect(manifest.rev).toBe(tm.rev)
    expect(manifest.tools.map((t) => t.name)).toEqual(['tickets.close', 'tickets.get'])
    expect(client.manifest).toEqual(manifest)
    expect(client.clientId).toBe(tm.clientId)
    expect([...client.manifests.keys()]).toEqual([tm.clientId])
  })

  it('calls a tool and gets its result, frozen', async () => {
    const { client } = connect()
    await client.ready
    const result = await client.call('tickets.get', { id: 'T-1' })
    expect(result).toEqual({ status: 'ok', data: { id: 'T-1', title: 'Printer on fire' } })
    expect(Object.isFrozen(result)).toBe(true)
    expect(await client.call('tickets.get', { id: 7 })).toMatchObject({ status: 'invalid' })
    expect(await client.call('tickets.nope', {})).toMatchObject({
      status: 'refused',
      code: 'unknown_tool',
    })
  })

  it('describes a tool with its input schema', async () => {
    const { client } = connect()
    const described = await client.describe('tickets.get')
    expect(described.status).toBe('ok')
    if (described.status === 'ok') {
      expect(described.data.name).toBe('tickets.get')
      expect(described.data.inputSchema).toMatchObject({ properties: { id: { type: 'string' } } })
    }
    expect(await client.describe('tickets.nope')).toMatchObject({ code: 'unknown_tool' })
  })

  it('cancels a call through its signal: the page run is aborted', async () => {
    const aborted = vi.fn()
    const { client } = connect({
      register: (tm) =>
        tm.register({
          name: 'slow',
          description: 'Takes forever',
          run: (_input, ctx) =>
            new Promise((_resolve, reject) =>
              ctx.signal.addEventListener('abort', () => {
                aborted()
                reject(ctx.signal.reason)
              }),
            ),
        }),
    })
    await client.ready
    const controller = new AbortController()
    const pending = client.call('slow', {}, { signal: controller.signal })
    await settle()
    controller.abort()
    expect(await pending).toEqual({ status: 'cancelled', by: 'signal' })
    await settle()
    expect(aborted).toHaveBeenCalledTimes(1)
  })

  it('cancels a call by its promise, or every pending call', async () => {
    const aborted = vi.fn()
    const { client } = connect({
      register: (tm) =>
        tm.register({
          name: 'slow',
          description: 'Takes forever',
          run: (_input, ctx) =>
            new Promise((_resolve, reject) =>
              ctx.signal.addEventListener('abort', () => {
                aborted()
                reject(ctx.signal.reason)
              }),
            ),
        }),
    })
    await client.ready
    const one = client.call('slow')
    await settle()
    client.cancel(one)
    expect(await one).toEqual({ status: 'cancelled', by: 'signal' })
    const two = client.call('slow')
    const three = client.call('slow')
    await settle()
    client.cancel()
    expect(await Promise.all([two, three])).toEqual([
      { status: 'cancelled', by: 'signal' },
      { status: 'cancelled', by: 'signal' },
    ])
    await settle()
    // One scope runs one call at a time: the third was still queued and never ran.
    expect(aborted).toHaveBeenCalledTimes(2)
  })

  it('enforces its deadline: sends cancel and resolves cancelled policy', async () => {
    const aborted = vi.fn()
    const { client } = connect({
      deadlineMs: 30,
      register: (tm) =>
        tm.register({
          name: 'slow',
          description: 'Takes forever',
          timeoutMs: 60_000,
          run: (_input, ctx) =>
            new Promise((_resolve, reject) =>
              ctx.signal.addEventListener('abort', () => {
                aborted()
                reject(ctx.signal.reason)
              }),
            ),
        }),
    })
    await client.ready
    expect(await client.call('slow')).toEqual({ status: 'cancelled', by: 'policy' })
    await settle()
    expect(aborted).toHaveBeenCalledTimes(1)
  })

  it('delivers a deferred confirmation approved in the page as confirmed', async () => {
    const { tm, client } = connect()
    const confirmed: PageConfirmedEvent[] = []
    client.onConfirmed((event) => confirmed.push(event))
    await client.ready
    const asked = await client.call('tickets.close', { id: 'T-9' })
    expect(asked).toMatchObject({ status: 'needs_confirmation', summary: 'Close ticket T-9' })
    expect(tm.confirmations.list()).toHaveLength(1)
    const [entry] = tm.confirmations.list()
    await tm.confirmations.approve(entry.id)
    await settle()
    expect(confirmed).toEqual([
      {
        clientId: tm.clientId,
        confirmId: entry.id,
        tool: 'tickets.close',
        result: { status: 'ok', data: { id: 'T-9', closed: true } },
      },
    ])
  })

  it('receives a Date as an ISO string and a non-serializable result as an error', async () => {
    const { client } = connect({
      register: (tm) => {
        tm.register({
          name: 'clock',
          description: 'Now',
          run: () => ok({ at: new Date(Date.UTC(2030, 0, 1)) }),
        })
        tm.register({ name: 'huge', description: 'A bigint', run: () => ok(2n ** 70n) })
      },
    })
    expect(await client.call('clock')).toEqual({
      status: 'ok',
      data: { at: '2030-01-01T00:00:00.000Z' },
    })
    expect(await client.call('huge')).toEqual({
      status: 'error',
      message: 'Result not serializable',
    })
  })

  it('reports progress of its calls', async () => {
    const { client } = connect({
      register: (tm) =>
        tm.register({
          name: 'upload',
          description: 'Uploads',
          run: async (_input, ctx) => {
            ctx.progress({ done: 1, total: 2, message: 'half' })
            ctx.progress({ done: 2, total: 2 })
            return ok('done')
          },
        }),
    })
    const progress: PageProgressEvent[] = []
    client.onProgress((event) => progress.push(event))
    await client.call('upload')
    expect(
      progress.map(({ done, total, message, tool }) => ({ done, total, message, tool })),
    ).toEqual([
      { done: 1, total: 2, message: 'half', tool: 'upload' },
      { done: 2, total: 2, message: undefined, tool: 'upload' },
    ])
  })

  it('routes progress to the call that reported it, with calls running side by side', async () => {
    const { client } = connect({
      register: (tm) => {
        const scopeA = tm.scope('a')
        const scopeB = tm.scope('b')
        for (const scope of [scopeA, scopeB]) {
          tm.register(
            {
              name: 'upload',
              description: 'Uploads one file',
              input: z.object({ file: z.string() }),
              run: async ({ file }, ctx) => {
                ctx.progress({ done: 1, total: 1, message: file })
                return ok(file)
              },
            },
            { scope },
          )
        }
      },
    })
    const first: string[] = []
    const second: string[] = []
    await Promise.all([
      client.call('a.upload', { file: 'one' }, { onProgress: (e) => first.push(e.message!) }),
      client.call('b.upload', { file: 'two' }, { onProgress: (e) => second.push(e.message!) }),
    ])
    expect(first).toEqual(['one'])
    expect(second).toEqual(['two'])
  })

  it('follows manifest revisions', async () => {
    const { tm, client } = connect()
    await client.ready
    const seen = vi.fn()
    client.onManifest((manifest) => seen(manifest.tools.length))
    tm.register({ name: 'tickets.new', description: 'New', run: () => ok(1) })
    await settle()
    await settle()
    expect(seen).toHaveBeenLastCalledWith(3)
    expect(client.manifest?.rev).toBe(tm.rev)
  })

  it('waits for a page that attaches after the client was created', async () => {
    const tm = createToolmark({ dev: true })
    tm.register({ name: 'ping', description: 'Ping', run: () => ok('pong') })
    const channel = createInPageChannel()
    const client = createPageClient({ transport: channel.agent })
    const pending = client.call('ping')
    await settle()
    const stop = tm.use(bridge({ transport: channel.page }))
    cleanups.push(() => (client.close(), stop(), channel.close()))
    expect(await pending).toEqual({ status: 'ok', data: 'pong' })
  })
})

describe('createPageClient against a hostile or broken page', () => {
  it('says hello to every page, or to the one it was given', () => {
    const page = fakePage()
    createPageClient({ transport: page.transport })
    createPageClient({ transport: page.transport, clientId: page.clientId })
    expect(page.sent).toEqual([
      { protocol: 1, type: 'hello', clientId: '*' },
      { protocol: 1, type: 'hello', clientId: page.clientId },
    ])
  })

  it('binds each call to an unguessable id and the latest revision', async () => {
    const page = fakePage()
    const client = createPageClient({ transport: page.transport })
    page.manifest(7)
    void client.call('a', { x: 1 })
    void client.call('a')
    await settle()
    const calls = page.sent.filter((m) => m.type === 'call')
    expect(calls).toHaveLength(2)
    expect(calls[0]).toMatchObject({ clientId: page.clientId, tool: 'a', input: { x: 1 }, rev: 7 })
    expect(calls[1].input).toEqual({})
    for (const call of calls) expect(call.id).toMatch(/^call_[0-9a-f]{32}$/)
    expect(calls[0].id).not.toBe(calls[1].id)
    client.close()
  })

  it('ignores results for unknown ids, from another page, or a second time', async () => {
    const page = fakePage()
    const client = createPageClient({ transport: page.transport, deadlineMs: 1_000 })
    page.manifest()
    const pending = client.call('a')
    let settled: unknown
    void pending.then((r) => (settled = r))
    await settle()
    const { id } = page.sent.find((m) => m.type === 'call')
    page.deliver({ type: 'result', id: 'call_guessed', result: { status: 'ok', data: 'forged' } })
    page.deliver({
      type: 'result',
      id,
      clientId: 'page_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
      result: { status: 'ok', data: 'other page' },
    })
    page.deliver({ type: 'result', id, result: { status: 'ok', data: 'malformed' }, extra: 1 })
    await settle()
    expect(settled).toBeUndefined()
    page.deliver({ type: 'result', id, result: { status: 'ok', data: 'real' } })
    page.deliver({ type: 'result', id, result: { status: 'ok', data: 'again' } })
    expect(await pending).toEqual({ status: 'ok', data: 'real' })
    client.close()
  })

  it('accepts confirmed only for confirmations its own calls received, once', async () => {
    const page = fakePage()
    const client = createPageClient({ transport: page.transport })
    const confirmed = vi.fn()
    client.onConfirmed(confirmed)
    page.manifest()
    const pending = client.call('close')
    await settle()
    const { id } = page.sent.find((m) => m.type === 'call')
    page.deliver({ type: 'confirmed', confirmId: 'cf_1', result: { status: 'ok', data: 'early' } })
    page.deliver({
      type: 'result',
      id,
      result: { status: 'needs_confirmation', confirmId: 'cf_1', summary: 'Close?' },
    })
    await pending
    page.deliver({ type: 'confirmed', confirmId: 'cf_2', result: { status: 'ok', data: 'x' } })
    page.deliver({ type: 'confirmed', confirmId: 'cf_1', result: { status: 'ok', data: 'yes' } })
    page.deliver({ type: 'confirmed', confirmId: 'cf_1', result: { status: 'ok', data: 'dup' } })
    expect(confirmed.mock.calls).toEqual([
      [
        {
          clientId: page.clientId,
          confirmId: 'cf_1',
          tool: 'close',
          result: { status: 'ok', data: 'yes' },
        },
      ],
    ])
    client.close()
  })

  it('keeps one manifest per page and never goes back to an older revision', async () => {
    const page = fakePage()
    const client = createPageClient({ transport: page.transport })
    page.manifest(5)
    page.manifest(3)
    const other = 'page_cccccccccccccccccccccccccccccccc'
    page.deliver({ type: 'manifest', clientId: other, rev: 1, tools: [] })
    expect(client.manifest?.rev).toBe(5)
    expect(client.clientId).toBe(page.clientId)
    expect(client.manifests.get(other)?.rev).toBe(1)
    page.deliver({ type: 'result', id: 'x', result: { status: 'ok' } })
    void client.call('a', {}, { clientId: other })
    await settle()
    expect(page.sent.filter((m) => m.type === 'call')[0].clientId).toBe(other)
    client.close()
  })

  it('never throws and always resolves a ToolResult', async () => {
    const page = fakePage()
    const client = createPageClient({ transport: page.transport })
    page.manifest()
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(await client.call('not a name')).toMatchObject({
      status: 'refused',
      code: 'unknown_tool',
    })
    expect(await client.call(42 as never)).toMatchObject({ status: 'refused' })
    expect(await client.call('a', cycle)).toMatchObject({ status: 'invalid' })
    expect(await client.call('a', { f: () => 1 })).toMatchObject({ status: 'invalid' })
    let deep: unknown = {}
    for (let i = 0; i < 70; i++) deep = { deep }
    expect(await client.call('a', deep)).toMatchObject({
      status: 'invalid',
      issues: [{ message: expect.stringContaining('nested too deeply') }],
    })
    expect(await client.call('a', { text: 'x'.repeat(1_100_000) })).toEqual({
      status: 'invalid',
      issues: [{ path: '', message: 'Input is too large for the page' }],
    })
    // Nothing of that reached the page.
    expect(page.sent.filter((m) => m.type === 'call')).toEqual([])
    const aborted = AbortSignal.abort()
    expect(await client.call('a', {}, { signal: aborted })).toEqual({
      status: 'cancelled',
      by: 'signal',
    })
    const broken = createPageClient({
      transport: {
        send: () => {
          throw new Error('down')
        },
        onMessage: () => () => {},
      },
      clientId: page.clientId,
    })
    expect(await broken.call('a')).toEqual({ status: 'error', message: 'Transport failed' })
    expect(() => page.deliver({ nonsense: true })).not.toThrow()
    client.close()
  })

  it('cancels what is pending when closed, and answers nothing afterwards', async () => {
    const page = fakePage()
    const client = createPageClient({ transport: page.transport })
    page.manifest()
    const pending = client.call('a')
    await settle()
    client.close()
    expect(await pending).toEqual({ status: 'cancelled', by: 'signal' })
    expect(page.sent.filter((m) => m.type === 'cancel')).toHaveLength(1)
    expect(await client.call('a')).toEqual({ status: 'cancelled', by: 'signal' })
  })

  it('gives up on a page that never answers when the deadline passes', async () => {
    vi.useFakeTimers()
    const page = fakePage()
    const client = createPageClient({ transport: page.transport, deadlineMs: 5_000 })
    const pending = client.call('a')
    await vi.advanceTimersByTimeAsync(5_000)
    expect(await pending).toEqual({ status: 'cancelled', by: 'policy' })
    // It never knew a page, so it sent no call and no cancel.
    expect(page.sent.map((m) => m.type)).toEqual(['hello'])
    client.close()
  })
})

describe('client.outcome', () => {
  it('resolves with the final result once the person approves', async () => {
    const { tm, client } = connect()
    await client.ready
    const asked = await client.call('tickets.close', { id: 'T-1' })
    if (asked.status !== 'needs_confirmation') throw new Error('expected a confirmation')
    const outcome = client.outcome(asked.confirmId)
    let settled = false
    void outcome.then(() => (settled = true))
    await settle()
    expect(settled).toBe(false)
    await tm.confirmations.approve(asked.confirmId)
    expect(await outcome).toEqual({ status: 'ok', data: { id: 'T-1', closed: true } })
    expect(Object.isFrozen(await outcome)).toBe(true)
  })

  it('resolves with an outcome that arrived before it was asked for', async () => {
    const { tm, client } = connect()
    await client.ready
    const asked = await client.call('tickets.close', { id: 'T-2' })
    if (asked.status !== 'needs_confirmation') throw new Error('expected a confirmation')
    await tm.confirmations.reject(asked.confirmId)
    await settle()
    expect(await client.outcome(asked.confirmId)).toEqual({ status: 'cancelled', by: 'operator' })
    // Asking again gives the same outcome: nothing is consumed.
    expect(await client.outcome(asked.confirmId)).toEqual({ status: 'cancelled', by: 'operator' })
  })

  it('gives every waiter on one confirmation the same outcome', async () => {
    const { tm, client } = connect()
    await client.ready
    const asked = await client.call('tickets.close', { id: 'T-3' })
    if (asked.status !== 'needs_confirmation') throw new Error('expected a confirmation')
    const waits = [client.outcome(asked.confirmId), client.outcome(asked.confirmId)]
    await tm.confirmations.approve(asked.confirmId)
    const [a, b] = await Promise.all(waits)
    expect(a).toEqual({ status: 'ok', data: { id: 'T-3', closed: true } })
    expect(b).toBe(a)
  })

  it('answers confirmation_expired for an id it never received', async () => {
    const { client } = connect()
    await client.ready
    expect(await client.outcome('cf_guessed')).toEqual({
      status: 'refused',
      code: 'confirmation_expired',
      message: expect.stringContaining('not waiting for that confirmation'),
    })
    expect(await client.outcome(42 as never)).toMatchObject({ code: 'confirmation_expired' })
  })

  it('rejects with the reason when its signal aborts, and leaves the confirmation open', async () => {
    const { tm, client } = connect()
    await client.ready
    const asked = await client.call('tickets.close', { id: 'T-4' })
    if (asked.status !== 'needs_confirmation') throw new Error('expected a confirmation')
    const controller = new AbortController()
    const waiting = client.outcome(asked.confirmId, { signal: controller.signal })
    controller.abort(new Error('the user left the chat'))
    await expect(waiting).rejects.toThrow('the user left the chat')
    await expect(
      client.outcome(asked.confirmId, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: 'AbortError' })
    // The page still waits for the person, and the outcome still reaches the client.
    expect(tm.confirmations.list().map((entry) => entry.id)).toEqual([asked.confirmId])
    await tm.confirmations.approve(asked.confirmId)
    expect(await client.outcome(asked.confirmId)).toMatchObject({ status: 'ok' })
  })

  it('rejects with an AbortError when the client closes, or its transport closes for good', async () => {
    const first = connect()
    await first.client.ready
    const asked = await first.client.call('tickets.close', { id: 'T-5' })
    if (asked.status !== 'needs_confirmation') throw new Error('expected a confirmation')
    const waiting = first.client.outcome(asked.confirmId)
    first.client.close()
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' })
    await expect(first.client.outcome(asked.confirmId)).rejects.toMatchObject({
      name: 'AbortError',
    })

    const second = connect({
      register: (tm) =>
        tm.register({
          name: 'slow',
          description: 'Never ends',
          run: () => new Promise(() => {}),
        }),
    })
    await second.client.ready
    const other = await second.client.call('tickets.close', { id: 'T-6' })
    if (other.status !== 'needs_confirmation') throw new Error('expected a confirmation')
    const waitingToo = second.client.outcome(other.confirmId)
    const running = second.client.call('slow')
    await settle()
    second.channel.close()
    await expect(waitingToo).rejects.toMatchObject({ name: 'AbortError' })
    // Calls in flight end at once instead of at their deadline, and do not claim they were
    // cancelled: the page may have run them.
    expect(await running).toEqual({
      status: 'error',
      message: 'The page disconnected before the call finished',
    })
  })

  it('remembers the last 256 outcomes that nobody asked for yet', async () => {
    const page = fakePage()
    const client = createPageClient({ transport: page.transport })
    page.manifest()
    const ids: string[] = []
    for (let i = 0; i < 257; i++) {
      const pending = client.call('close', { i })
      await settle()
      const { id } = page.sent.filter((m) => m.type === 'call').at(-1)
      const confirmId = `cf_${i}`
      page.deliver({
        type: 'result',
        id,
        result: { status: 'needs_confirmation', confirmId, summary: `Close ${i}` },
      })
      await pending
      page.deliver({ type: 'confirmed', confirmId, result: { status: 'ok', data: i } })
      ids.push(confirmId)
    }
    expect(await client.outcome(ids[0])).toMatchObject({ code: 'confirmation_expired' })
    expect(await client.outcome(ids[1])).toEqual({ status: 'ok', data: 1 })
    expect(await client.outcome(ids[256])).toEqual({ status: 'ok', data: 256 })
    client.close()
  })

  it('ignores a confirmed for a confirmation it did not receive, and keeps waiting', async () => {
    const page = fakePage()
    const client = createPageClient({ transport: page.transport })
    page.manifest()
    const pending = client.call('close')
    await settle()
    const { id } = page.sent.find((m) => m.type === 'call')
    page.deliver({
      type: 'result',
      id,
      result: { status: 'needs_confirmation', confirmId: 'cf_real', summary: 'Close?' },
    })
    await pending
    const waiting = client.outcome('cf_real')
    let settled: unknown
    void waiting.then((r) => (settled = r))
    page.deliver({
      type: 'confirmed',
      clientId: 'page_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
      confirmId: 'cf_real',
      result: { status: 'ok', data: 'forged by another page' },
    })
    page.deliver({ type: 'confirmed', confirmId: 'cf_real', result: { status: 'bogus' } })
    await settle()
    expect(settled).toBeUndefined()
    page.deliver({
      type: 'confirmed',
      confirmId: 'cf_real',
      result: { status: 'ok', data: 'real' },
    })
    expect(await waiting).toEqual({ status: 'ok', data: 'real' })
    client.close()
  })
})

describe('client.outcome over a WebSocket', () => {
  it("ends its wait when the server's accepted socket drops", async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
    const clients: PageClient[] = []
    // The client is not closed by hand on 'close': the transport reports the drop itself.
    wss.on('connection', (socket) =>
      clients.push(createPageClient({ transport: websocketTransport({ socket }) })),
    )
    const { port } = wss.address() as AddressInfo
    const tm = createToolmark({ dev: true })
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket',
      hints: { consequential: true },
      input: z.object({ id: z.string() }),
      run: (input) => ok(input.id),
    })
    const transport = websocketTransport({ url: `ws://127.0.0.1:${port}`, WebSocket })
    const stop = tm.use(bridge({ transport }))
    cleanups.push(() => {
      stop()
      transport.close?.()
      for (const socket of wss.clients) socket.terminate()
      wss.close()
    })
    const start = Date.now()
    while (clients.length === 0 && Date.now() - start < 5_000) await settle()
    const [client] = clients
    await client.ready
    const asked = await client.call('tickets.close', { id: 'T-7' })
    if (asked.status !== 'needs_confirmation') throw new Error('expected a confirmation')
    const waiting = client.outcome(asked.confirmId)
    transport.close?.()
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' })
  })
})
