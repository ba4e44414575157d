import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { ErrorEvent, Toolmark } from '@toolmark/core'
import { bridge, createInPageChannel } from '@toolmark/core/bridge'
import type { Transport } from '@toolmark/core/bridge'

/** Lets microtasks and one macrotask run, so channel deliveries and tool runs settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** The raw agent end of a channel: sends JSON text, records every message the page sends. */
function rawAgent(transport: Transport) {
  const received: any[] = []
  transport.onMessage((text) => received.push(JSON.parse(text as string)))
  return {
    received,
    send: (message: unknown) => transport.send(JSON.stringify(message)),
    sendText: (text: string) => transport.send(text),
    ofType: (type: string) => received.filter((m) => m.type === type),
    results: () => received.filter((m) => m.type === 'result'),
  }
}

const stops: (() => void)[] = []
afterEach(() => {
  while (stops.length) stops.pop()!()
})

function setup(options: { caller?: 'inapp' | 'webmcp'; maxMessageBytes?: number } = {}) {
  const tm = createToolmark({ dev: true })
  const errors: ErrorEvent[] = []
  tm.events.on('error', (event) => errors.push(event))
  const channel = createInPageChannel()
  const agent = rawAgent(channel.agent)
  const attach = () => {
    const stop = tm.use(bridge({ transport: channel.page, ...options }))
    stops.push(stop)
    return stop
  }
  const call = (id: string, tool: string, input: unknown = {}, extra: object = {}) =>
    agent.send({ protocol: 1, type: 'call', clientId: tm.clientId, id, tool, input, ...extra })
  const invalidMessages = () => errors.filter((e) => e.code === 'invalid_message')
  return { tm, errors, channel, agent, attach, call, invalidMessages }
}

function registerBasics(tm: Toolmark) {
  tm.register({
    name: 'echo',
    description: 'Echoes its input',
    hints: { readOnly: true },
    input: z.object({ text: z.string() }),
    run: (input) => ok(input.text),
  })
  tm.register({
    name: 'wipe',
    description: 'Deletes everything',
    hints: { destructive: true },
    run: () => ok(true),
  })
}

describe('bridge', () => {
  it('sends the manifest its caller can see on attach', async () => {
    const inapp = setup()
    registerBasics(inapp.tm)
    inapp.attach()
    const webmcp = setup({ caller: 'webmcp' })
    registerBasics(webmcp.tm)
    webmcp.attach()
    await settle()
    const [manifest] = inapp.agent.ofType('manifest')
    expect(manifest).toMatchObject({ protocol: 1, type: 'manifest', clientId: inapp.tm.clientId })
    expect(manifest.tools.map((t: any) => t.name)).toEqual(['echo', 'wipe'])
    expect(manifest.tools[0]).toMatchObject({ llmName: 'echo', hints: { readOnly: true } })
    // Destructive tools are hidden from browser agents by default.
    expect(webmcp.agent.ofType('manifest')[0].tools.map((t: any) => t.name)).toEqual(['echo'])
  })

  it('answers hello addressed to it or to "*", and not hello for another page', async () => {
    const { tm, agent, attach } = setup()
    attach()
    await settle()
    agent.send({ protocol: 1, type: 'hello', clientId: tm.clientId })
    agent.send({ protocol: 1, type: 'hello', clientId: '*' })
    agent.send({ protocol: 1, type: 'hello', clientId: 'page_someoneelse' })
    await settle()
    expect(agent.ofType('manifest')).toHaveLength(3)
  })

  it('sends a new manifest on every revision', async () => {
    const { tm, agent, attach } = setup()
    attach()
    await settle()
    const handle = tm.register({ name: 'late', description: 'Arrives later', run: () => ok(1) })
    await settle()
    handle.dispose()
    await settle()
    const manifests = agent.ofType('manifest')
    expect(manifests.map((m) => m.tools.length)).toEqual([0, 1, 0])
    expect(manifests[1].rev).toBeGreaterThan(manifests[0].rev)
    expect(manifests[2].rev).toBeGreaterThan(manifests[1].rev)
  })

  it('answers a call with its result, exactly once', async () => {
    const { tm, agent, attach, call } = setup()
    registerBasics(tm)
    attach()
    call('c-1', 'echo', { text: 'hi' })
    call('c-2', 'echo', { text: 42 })
    await settle()
    const results = agent.results().sort((a, b) => (a.id < b.id ? -1 : 1))
    expect(results).toEqual([
      {
        protocol: 1,
        type: 'result',
        clientId: tm.clientId,
        id: 'c-1',
        result: { status: 'ok', data: 'hi' },
      },
      {
        protocol: 1,
        type: 'result',
        clientId: tm.clientId,
        id: 'c-2',
        result: { status: 'invalid', issues: [expect.objectContaining({ path: 'text' })] },
      },
    ])
  })

  it('runs calls as its caller, with the revision the agent acted on', async () => {
    const { tm, agent, attach, call } = setup()
    const seen = vi.fn()
    tm.events.on('call', (event) => seen(event.caller))
    const handle = tm.register({ name: 'gone', description: 'Soon gone', run: () => ok(1) })
    attach()
    await settle()
    const rev = tm.rev
    handle.dispose()
    await settle()
    call('c-1', 'gone', {}, { rev })
    call('c-2', 'gone', {})
    await settle()
    expect(seen).toHaveBeenCalledWith('inapp')
    const [stale, unknown] = agent.results()
    expect(stale.result).toMatchObject({ status: 'refused', code: 'stale' })
    expect(unknown.result).toMatchObject({ status: 'refused', code: 'unknown_tool' })
  })

  it('answers describe with the full entry, or refused unknown_tool', async () => {
    const { tm, agent, attach } = setup()
    registerBasics(tm)
    attach()
    agent.send({ protocol: 1, type: 'describe', clientId: tm.clientId, id: 'd-1', tool: 'echo' })
    agent.send({ protocol: 1, type: 'describe', clientId: tm.clientId, id: 'd-2', tool: 'nope' })
    await settle()
    const [found, missing] = agent.results()
    expect(found.id).toBe('d-1')
    expect(found.result.status).toBe('ok')
    expect(found.result.data).toMatchObject({ name: 'echo', description: 'Echoes its input' })
    expect(found.result.data.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    })
    expect(missing).toMatchObject({
      id: 'd-2',
      result: { status: 'refused', code: 'unknown_tool', rev: tm.rev },
    })
  })

  it('drops a second message reusing an id, in flight or already answered', async () => {
    const { tm, agent, attach, call, invalidMessages } = setup()
    let release!: () => void
    const runs = vi.fn()
    tm.register({
      name: 'slow',
      description: 'Waits',
      run: async () => {
        runs()
        await new Promise<void>((resolve) => (release = resolve))
        return ok('done')
      },
    })
    registerBasics(tm)
    attach()
    call('c-1', 'slow')
    await settle()
    call('c-1', 'echo', { text: 'sneaky' })
    agent.send({ protocol: 1, type: 'describe', clientId: tm.clientId, id: 'c-1', tool: 'echo' })
    await settle()
    release()
    await settle()
    call('c-1', 'echo', { text: 'replay' })
    await settle()
    expect(runs).toHaveBeenCalledTimes(1)
    expect(agent.results()).toEqual([expect.objectContaining({ id: 'c-1', result: ok('done') })])
    expect(invalidMessages()).toHaveLength(3)
  })

  it("turns cancel into the call's own cancelled signal result", async () => {
    const { tm, agent, attach, call } = setup()
    const aborted = vi.fn()
    tm.register({
      name: 'wait',
      description: 'Waits for its signal',
      run: (_input, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            aborted()
            reject(ctx.signal.reason)
          })
        }),
    })
    attach()
    call('c-1', 'wait')
    await settle()
    agent.send({ protocol: 1, type: 'cancel', clientId: tm.clientId, id: 'c-1' })
    agent.send({ protocol: 1, type: 'cancel', clientId: tm.clientId, id: 'unknown' })
    await settle()
    expect(aborted).toHaveBeenCalledTimes(1)
    expect(agent.results()).toEqual([
      expect.objectContaining({ id: 'c-1', result: { status: 'cancelled', by: 'signal' } }),
    ])
  })

  it('forwards progress of its own calls only', async () => {
    const { tm, agent, attach, call } = setup()
    tm.register({
      name: 'upload',
      description: 'Uploads',
      run: (_input, ctx) => {
        ctx.progress({ done: 1, total: 3, message: 'first' })
        ctx.progress({ done: 3 })
        return ok('uploaded')
      },
    })
    attach()
    call('c-1', 'upload')
    await settle()
    await tm.call('upload', {}, { caller: 'test' })
    await settle()
    const progress = agent.ofType('progress')
    expect(progress).toEqual([
      {
        protocol: 1,
        type: 'progress',
        clientId: tm.clientId,
        id: 'c-1',
        done: 1,
        total: 3,
        message: 'first',
      },
      { protocol: 1, type: 'progress', clientId: tm.clientId, id: 'c-1', done: 3 },
    ])
    // Progress precedes the result.
    const types = agent.received.map((m) => m.type).filter((t) => t !== 'manifest')
    expect(types).toEqual(['progress', 'progress', 'result'])
  })

  it('sends confirmed after the result that asked, when a person approves', async () => {
    const { tm, agent, attach, call } = setup()
    const closeTicket = vi.fn(() => ok({ closed: true }))
    tm.register({
      name: 'close',
      description: 'Closes the ticket',
      hints: { consequential: true },
      summary: () => 'Close ticket T-1',
      run: closeTicket,
    })
    attach()
    call('c-1', 'close')
    await settle()
    const [asked] = agent.results()
    expect(asked.result).toMatchObject({
      status: 'needs_confirmation',
      summary: 'Close ticket T-1',
    })
    expect(closeTicket).not.toHaveBeenCalled()
    await tm.confirmations.approve(asked.result.confirmId)
    await settle()
    expect(agent.ofType('confirmed')).toEqual([
      {
        protocol: 1,
        type: 'confirmed',
        clientId: tm.clientId,
        confirmId: asked.result.confirmId,
        result: { status: 'ok', data: { closed: true } },
      },
    ])
  })

  it('holds confirmed back until its result is sent, even when the answer comes first', async () => {
    const { tm, agent, attach, call } = setup()
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      run: () => ok('closed'),
    })
    // A person (or a test script) rejecting in the same tick the confirmation appears.
    tm.events.on('confirm', (event) => {
      if (event.status === 'pending') void tm.confirmations.reject(event.entry.id)
    })
    attach()
    call('c-1', 'close')
    await settle()
    await settle()
    const types = agent.received.map((m) => m.type).filter((t) => t !== 'manifest')
    expect(types).toEqual(['result', 'confirmed'])
    const [result, confirmed] = agent.received.filter((m) => m.type !== 'manifest')
    expect(confirmed.confirmId).toBe(result.result.confirmId)
    expect(confirmed.result).toEqual({ status: 'cancelled', by: 'operator' })
  })

  it('does not send confirmed for confirmations other callers created', async () => {
    const { tm, agent, attach } = setup()
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      run: () => ok('closed'),
    })
    attach()
    const asked = await tm.call('close', {}, { caller: 'test' })
    expect(asked.status).toBe('needs_confirmation')
    if (asked.status === 'needs_confirmation') await tm.confirmations.approve(asked.confirmId)
    await settle()
    expect(agent.ofType('confirmed')).toEqual([])
  })

  it('ignores valid messages addressed to another page', async () => {
    const { tm, agent, attach, errors } = setup()
    const run = vi.fn(() => ok(1))
    tm.register({ name: 'count', description: 'Counts', run })
    attach()
    const other = 'page_0123456789abcdef'
    agent.send({ protocol: 1, type: 'call', clientId: other, id: 'c-1', tool: 'count', input: {} })
    agent.send({ protocol: 1, type: 'describe', clientId: other, id: 'd-1', tool: 'count' })
    await settle()
    expect(run).not.toHaveBeenCalled()
    expect(agent.results()).toEqual([])
    expect(errors).toEqual([])
  })

  it('drops invalid messages with an invalid_message event and never answers them', async () => {
    const { tm, agent, attach, invalidMessages } = setup({ maxMessageBytes: 2_000 })
    const run = vi.fn(() => ok(1))
    tm.register({ name: 'count', description: 'Counts', run })
    attach()
    const valid = {
      protocol: 1,
      type: 'call',
      clientId: tm.clientId,
      id: 'c-1',
      tool: 'count',
      input: {},
    }
    const bad: string[] = [
      JSON.stringify({ ...valid, extra: true }),
      JSON.stringify({ ...valid, protocol: 2 }),
      JSON.stringify({ ...valid, rev: 1.5 }),
      JSON.stringify({ ...valid, type: 'manifest' }),
      JSON.stringify({ ...valid, input: 'x'.repeat(3_000) }),
      JSON.stringify({ ...valid, input: JSON.parse('['.repeat(70) + ']'.repeat(70)) }),
      '{"protocol":1,"type":"call"',
      'null',
      '',
    ]
    for (const text of bad) agent.sendText(text)
    await settle()
    expect(run).not.toHaveBeenCalled()
    expect(agent.results()).toEqual([])
    expect(invalidMessages()).toHaveLength(bad.length)
    expect(invalidMessages()[4].message).toContain('too large')
    expect(invalidMessages()[5].message).toContain('too deep')
  })

  it('checks values that a custom transport delivers as objects just as strictly', async () => {
    const tm = createToolmark({ dev: true })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    let deliver!: (message: unknown) => void
    const sent: string[] = []
    const transport: Transport = {
      send: (text) => sent.push(text),
      onMessage: (listener) => {
        deliver = listener
        return () => {}
      },
    }
    tm.register({ name: 'echo', description: 'Echo', run: (input) => ok(input) })
    stops.push(tm.use(bridge({ transport })))
    const call = {
      protocol: 1,
      type: 'call',
      clientId: tm.clientId,
      id: 'c-1',
      tool: 'echo',
      input: {},
    }
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    deliver({ ...call, input: cycle })
    deliver({ ...call, input: new Date() })
    deliver({ ...call, input: () => 1 })
    deliver(42)
    deliver(call)
    await settle()
    expect(errors.map((e) => e.code)).toEqual(Array(4).fill('invalid_message'))
    const results = sent.map((text) => JSON.parse(text)).filter((m) => m.type === 'result')
    expect(results).toEqual([expect.objectContaining({ id: 'c-1', result: { status: 'ok' } })])
  })

  it('serializes results with JSON semantics', async () => {
    const { tm, agent, attach, call, errors } = setup()
    const when = new Date(Date.UTC(2025, 4, 6, 7, 8, 9))
    tm.register({ name: 'when', description: 'A date', run: () => ok({ when, list: [when] }) })
    tm.register({ name: 'big', description: 'A bigint', run: () => ok({ n: 10n }) })
    tm.register({ name: 'nan', description: 'NaN', run: () => ok(Number.NaN) })
    tm.register({ name: 'inf', description: 'Infinity', run: () => ok([Infinity]) })
    tm.register({
      name: 'cycle',
      description: 'A cycle',
      run: () => {
        const node: Record<string, unknown> = { name: 'a' }
        node.self = node
        return ok(node)
      },
    })
    attach()
    for (const tool of ['when', 'big', 'nan', 'inf', 'cycle']) call(`c-${tool}`, tool)
    await settle()
    const byId = Object.fromEntries(agent.results().map((m) => [m.id, m.result]))
    expect(byId['c-when']).toEqual({
      status: 'ok',
      data: { when: '2025-05-06T07:08:09.000Z', list: ['2025-05-06T07:08:09.000Z'] },
    })
    for (const id of ['c-big', 'c-nan', 'c-inf', 'c-cycle']) {
      expect(byId[id]).toEqual({ status: 'error', message: 'Result not serializable' })
    }
    expect(errors.filter((e) => e.code === 'result_not_serializable')).toHaveLength(4)
  })

  it('aborts in-flight calls and goes quiet when disposed', async () => {
    const { tm, agent, attach, call } = setup()
    const aborted = vi.fn()
    tm.register({
      name: 'wait',
      description: 'Waits',
      run: (_input, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            aborted()
            reject(ctx.signal.reason)
          })
        }),
    })
    const stop = attach()
    call('c-1', 'wait')
    await settle()
    const before = agent.received.length
    stop()
    await settle()
    expect(aborted).toHaveBeenCalledTimes(1)
    tm.register({ name: 'more', description: 'More', run: () => ok(1) })
    call('c-2', 'more')
    agent.send({ protocol: 1, type: 'hello', clientId: '*' })
    await settle()
    expect(agent.received.length).toBe(before)
  })

  it('reports a transport that throws instead of throwing itself', async () => {
    const tm = createToolmark({ dev: true })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    const transport: Transport = {
      send: () => {
        throw new Error('socket gone')
      },
      onMessage: () => () => {},
    }
    expect(() => stops.push(tm.use(bridge({ transport })))).not.toThrow()
    expect(errors.map((e) => e.code)).toEqual(['transport_failed'])
  })
})
