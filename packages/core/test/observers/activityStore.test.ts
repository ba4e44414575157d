import { z } from 'zod'
import {
  createToolmark,
  questions,
  ok,
  type ErrorEvent,
  type ToolResult,
  type Toolmark,
} from '../../src/index'
import { createActivityStore, type AgentActivity } from '../../src/observers'

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

const registerClose = (tm: Toolmark, run = vi.fn(() => ok({ closed: true }))) => {
  tm.register({
    name: 'close',
    description: 'Closes a ticket',
    input: z.object({ id: z.number() }),
    hints: { consequential: true },
    run,
  })
  return run
}

/** The store subscribed, with a view of what a component would render. */
function watch(tm: Toolmark, limit = 50) {
  const store = createActivityStore(tm, limit)
  const off = store.subscribe(() => {})
  const rows = () =>
    store.getSnapshot().map((a: AgentActivity) => ({
      tool: a.tool,
      caller: a.caller,
      status: a.status,
      confirmation: a.confirmation,
    }))
  return { store, off, rows }
}

describe('createActivityStore', () => {
  it('listens only while subscribed', async () => {
    const tm = createToolmark()
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    const store = createActivityStore(tm, 10)
    await tm.call('ping')
    expect(store.getSnapshot()).toEqual([])

    const off = store.subscribe(() => {})
    await tm.call('ping')
    expect(store.getSnapshot()).toHaveLength(1)

    off()
    await tm.call('ping')
    expect(store.getSnapshot()).toHaveLength(1)
  })

  it('keeps the newest calls up to the limit, frozen, the same array until a change', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'echo',
      description: 'Echoes',
      input: z.object({ n: z.number() }),
      run: ({ n }) => ok(n),
    })
    const { store } = watch(tm, 2)
    for (const n of [1, 2, 3]) await tm.call('echo', { n })

    const snapshot = store.getSnapshot()
    expect(snapshot.map((a) => a.result)).toEqual([ok(3), ok(2)])
    expect(Object.isFrozen(snapshot)).toBe(true)
    expect(Object.isFrozen(snapshot[0])).toBe(true)
    expect(store.getSnapshot()).toBe(snapshot)
  })

  it('shows a deferred call approved by a person with the approved run’s outcome', async () => {
    const tm = createToolmark()
    registerClose(tm)
    const { store, rows } = watch(tm)

    const filed = await tm.call('close', { id: 1 }, { caller: 'inapp' })
    expect(filed.status).toBe('needs_confirmation')
    expect(rows()).toEqual([
      { tool: 'close', caller: 'inapp', status: 'needs_confirmation', confirmation: 'requested' },
    ])
    const filedIn = store.getSnapshot()[0].durationMs

    await tm.confirmations.approve(tm.confirmations.list()[0].id)

    expect(rows()).toEqual([
      { tool: 'close', caller: 'inapp', status: 'ok', confirmation: 'approved' },
    ])
    expect(store.getSnapshot()[0].result).toEqual(ok({ closed: true }))
    expect(store.getSnapshot()[0].durationMs).toBe(filedIn)
    expect(store.getSnapshot()[0].approvedBy).toBe('api')
  })

  it('shows a denied deferred call as cancelled by the operator', async () => {
    const tm = createToolmark()
    const run = registerClose(tm)
    const { store, rows } = watch(tm)
    await tm.call('close', { id: 1 }, { caller: 'inapp' })

    await tm.confirmations.reject(tm.confirmations.list()[0].id, 'not now')

    expect(rows()).toEqual([
      { tool: 'close', caller: 'inapp', status: 'cancelled', confirmation: 'rejected' },
    ])
    expect(store.getSnapshot()[0].result).toEqual({ status: 'cancelled', by: 'operator' })
    expect(run).not.toHaveBeenCalled()
  })

  it('shows an expired deferred call as refused confirmation_expired', async () => {
    vi.useFakeTimers()
    try {
      const tm = createToolmark({ limits: { confirmationExpiryMs: 1_000 } })
      registerClose(tm)
      const { store, rows } = watch(tm)
      await tm.call('close', { id: 1 }, { caller: 'inapp' })

      await vi.advanceTimersByTimeAsync(1_001)

      expect(rows()).toEqual([
        { tool: 'close', caller: 'inapp', status: 'refused', confirmation: 'expired' },
      ])
      expect(store.getSnapshot()[0].result).toMatchObject({ code: 'confirmation_expired' })
    } finally {
      vi.useRealTimers()
    }
  })

  it('shows a deferred call withdrawn with its tool as cancelled by policy', async () => {
    const tm = createToolmark()
    const handle = tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      run: () => ok(true),
    })
    const { store, rows } = watch(tm)
    await tm.call('close', {}, { caller: 'inapp' })

    handle.dispose()
    await flush()

    expect(rows()[0]).toMatchObject({ status: 'cancelled', confirmation: 'rejected' })
    expect(store.getSnapshot()[0].result).toEqual({ status: 'cancelled', by: 'policy' })
  })

  it('keeps the first outcome when a late second answer comes', async () => {
    const tm = createToolmark()
    const run = registerClose(tm)
    const { rows } = watch(tm)
    await tm.call('close', { id: 1 }, { caller: 'inapp' })
    const id = tm.confirmations.list()[0].id

    const [approved, late] = await Promise.all([
      tm.confirmations.approve(id),
      tm.confirmations.reject(id),
    ])

    expect(approved.status).toBe('ok')
    expect(late).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
    expect(run).toHaveBeenCalledTimes(1)
    expect(rows()).toEqual([
      { tool: 'close', caller: 'inapp', status: 'ok', confirmation: 'approved' },
    ])
  })

  it('follows each of two overlapping deferred calls to its own outcome', async () => {
    const tm = createToolmark()
    registerClose(tm)
    const { store } = watch(tm)
    const first = await tm.call('close', { id: 1 }, { caller: 'inapp' })
    const second = await tm.call('close', { id: 2 }, { caller: 'test' })
    const [a, b] = tm.confirmations.list()

    await Promise.all([tm.confirmations.reject(b.id), tm.confirmations.approve(a.id)])

    const byCaller = Object.fromEntries(store.getSnapshot().map((r) => [r.caller, r.status]))
    expect(first.status).toBe('needs_confirmation')
    expect(second.status).toBe('needs_confirmation')
    expect(byCaller).toEqual({ inapp: 'ok', test: 'cancelled' })
  })

  it('keeps an inline call running while a person decides, then shows its result', async () => {
    const tm = createToolmark({ confirm: { inapp: 'inline' } })
    registerClose(tm)
    tm.confirmations.attachPresenter()
    const { rows } = watch(tm)

    const call = tm.call('close', { id: 1 }, { caller: 'inapp' })
    await flush()
    expect(rows()).toEqual([
      { tool: 'close', caller: 'inapp', status: 'running', confirmation: 'requested' },
    ])

    await tm.confirmations.reject(tm.confirmations.list()[0].id)
    await call

    expect(rows()).toEqual([
      { tool: 'close', caller: 'inapp', status: 'cancelled', confirmation: 'rejected' },
    ])
  })

  it('does not take a question for an approval: the call runs on and ends with its own result', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    tm.register({
      name: 'file',
      description: 'Files a ticket, asking its priority',
      run: async (_input, ctx) => {
        const answer = await ctx.ask({
          prompt: 'Which priority?',
          schema: { enum: ['low', 'high'] },
        })
        return ok(answer.answered ? answer.value : 'none')
      },
    })
    const { store, rows } = watch(tm)

    // Asked by a tool that needs no approval: neither approved nor denied.
    const asked = tm.call('file', {}, { caller: 'webmcp' })
    await flush()
    expect(rows()).toEqual([
      { tool: 'file', caller: 'webmcp', status: 'running', confirmation: undefined },
    ])
    await tm.confirmations.answer(tm.confirmations.list()[0].id, 'high')
    expect(await asked).toEqual({ status: 'ok', data: 'high' })
    expect(store.getSnapshot()[0]).toMatchObject({ status: 'ok', result: { data: 'high' } })
    expect(store.getSnapshot()[0].confirmation).toBeUndefined()
    expect(store.getSnapshot()[0].approvedBy).toBeUndefined()

    // Declined: the run still ends ok with what it made of it.
    const again = tm.call('file', {}, { caller: 'webmcp' })
    await flush()
    await tm.confirmations.reject(tm.confirmations.list()[0].id)
    expect(await again).toEqual({ status: 'ok', data: 'none' })
    expect(rows()[0]).toEqual({
      tool: 'file',
      caller: 'webmcp',
      status: 'ok',
      confirmation: undefined,
    })
  })

  it('offers undo while the journal can run it, and not after', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'write',
      description: 'Writes',
      run: (_input, ctx) => {
        ctx.registerUndo(() => ok('undone'))
        return ok('written')
      },
    })
    const { store } = watch(tm)
    await tm.call('write')
    const undo = store.getSnapshot()[0].undo
    expect(undo).toBeTypeOf('function')

    expect(await undo!()).toEqual(ok('undone'))

    expect(store.getSnapshot()[0].undo).toBeUndefined()
  })

  it('reports a throwing listener as listener_threw and still notifies the others', async () => {
    const tm = createToolmark()
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const store = createActivityStore(tm, 5)
    store.subscribe(() => {
      throw new Error('bad row')
    })
    const other = vi.fn()
    store.subscribe(other)

    const result: ToolResult = await tm.call('ping')

    expect(result).toEqual(ok('pong'))
    expect(other).toHaveBeenCalled()
    expect(errors.map((e) => e.code)).toEqual(['listener_threw', 'listener_threw'])
    expect(errors[0].message).toBe('A activity listener threw')
  })
})
