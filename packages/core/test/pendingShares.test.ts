import { z } from 'zod'
import {
  createToolmark,
  ok,
  questions,
  type ConfirmEvent,
  type Toolmark,
  type ToolResult,
} from '../src/index'

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

/** A consequential tool every agent caller sees; records who ran it. */
const registerClose = (tm: Toolmark) => {
  const runs: Array<{ id: number; caller: string }> = []
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket',
    input: z.object({ id: z.number() }),
    hints: { consequential: true },
    summary: ({ id }) => `Close ticket #${id}`,
    run: ({ id }, ctx) => {
      runs.push({ id, caller: ctx.caller })
      return ok({ closed: id })
    },
  })
  return runs
}

/** Starts `count` inline calls of `caller` one after the other, each filed before the next. */
const flood = async (tm: Toolmark, caller: 'webmcp' | 'mcp', count: number, from = 1000) => {
  const calls: Promise<ToolResult>[] = []
  for (let i = 0; i < count; i++) {
    calls.push(tm.call('tickets.close', { id: from + i }, { caller }))
    await flush()
  }
  return calls
}

const idsOf = (tm: Toolmark, caller: string) =>
  tm.confirmations
    .list()
    .filter((entry) => entry.caller === caller)
    .map((entry) => (entry.input as { id: number }).id)

describe('each caller has its share of the pending list', () => {
  it("keeps the assistant's pending request when a browser agent floods the list", async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const runs = registerClose(tm)
    const ended: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => e.status !== 'pending' && ended.push(e))

    const asked = await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
    expect(asked.status).toBe('needs_confirmation')
    const browser = await flood(tm, 'webmcp', 100)

    // The assistant's request is still there; the flood's last call was turned away.
    expect(idsOf(tm, 'inapp')).toEqual([1])
    expect(tm.confirmations.list()).toHaveLength(100)
    const last = await browser[99]
    expect(last).toMatchObject({ status: 'refused', code: 'busy' })
    expect((last as { message: string }).message).toMatch(
      /caller "webmcp".*limits\.pendingConfirmations \(100\)/,
    )
    expect(ended).toEqual([])
    const confirmId = (asked as { confirmId: string }).confirmId
    expect(await tm.confirmations.approve(confirmId)).toEqual({ status: 'ok', data: { closed: 1 } })
    expect(runs).toEqual([{ id: 1, caller: 'human' }])
    tm.cancelAll()
  })

  it('lets a caller below its share in when another filled the list, up to its share', async () => {
    // Twelve spread over the six callers: a share of two each.
    const tm = createToolmark({ limits: { pendingConfirmations: 12 } })
    tm.confirmations.attachPresenter()
    registerClose(tm)
    const browser = await flood(tm, 'webmcp', 13)
    expect(await browser[12]).toMatchObject({ status: 'refused', code: 'busy' })
    expect(idsOf(tm, 'webmcp')).toHaveLength(12)

    const desktop = await flood(tm, 'mcp', 3, 2000)
    expect(idsOf(tm, 'mcp')).toEqual([2000, 2001])
    expect(await desktop[2]).toMatchObject({ status: 'refused', code: 'busy' })
    // The assistant's share is still free too, and nobody was pushed out for it.
    const asked = await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
    expect(asked.status).toBe('needs_confirmation')
    expect(idsOf(tm, 'webmcp')).toHaveLength(12)
    expect(tm.confirmations.list()).toHaveLength(15)
    tm.cancelAll()
  })

  it('refuses the assistant busy past its share of a full list, filing nothing', async () => {
    // Six over six callers: a share of one each.
    const tm = createToolmark({ limits: { pendingConfirmations: 6 } })
    tm.confirmations.attachPresenter()
    registerClose(tm)
    const requested: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => requested.push(e))
    const first = await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
    expect(first.status).toBe('needs_confirmation')
    await flood(tm, 'webmcp', 5)
    const second = await tm.call('tickets.close', { id: 2 }, { caller: 'inapp' })
    expect(second).toMatchObject({ status: 'refused', code: 'busy' })
    expect(Object.isFrozen(second)).toBe(true)
    expect(idsOf(tm, 'inapp')).toEqual([1])
    expect(requested.map((e) => e.status)).toEqual(Array(6).fill('pending'))
    tm.cancelAll()
  })

  it('answers ctx.confirm past its share { approved: false, reason: "busy" }', async () => {
    const tm = createToolmark({ limits: { pendingConfirmations: 1 } })
    tm.confirmations.attachPresenter()
    registerClose(tm)
    tm.register({
      name: 'refund',
      description: 'Refunds, asking above a limit',
      run: async (_input, ctx) => ok(await ctx.confirm({ summary: 'Refund 900 €' })),
    })
    const waiting = tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })
    await flush()
    expect(await tm.call('refund', {}, { caller: 'mcp' })).toEqual({
      status: 'ok',
      data: { approved: false, reason: 'busy' },
    })
    expect(idsOf(tm, 'mcp')).toEqual([1])
    await tm.confirmations.approve(tm.confirmations.list()[0].id)
    expect(await waiting).toEqual({ status: 'ok', data: { closed: 1 } })
  })

  it('counts questions with confirmations: a caller past its share hears busy, the other asks', async () => {
    const tm = createToolmark({
      confirm: { questions: questions() },
      limits: { pendingConfirmations: 1 },
    })
    tm.confirmations.attachPresenter()
    registerClose(tm)
    tm.register({
      name: 'which',
      description: 'Asks which one',
      run: async (_input, ctx) =>
        ok(await ctx.ask({ prompt: 'Which?', schema: { type: 'string' } })),
    })
    const waiting = tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })
    await flush()
    expect(await tm.call('which', {}, { caller: 'mcp' })).toEqual({
      status: 'ok',
      data: { answered: false, reason: 'busy' },
    })
    // Another caller below its share still gets its question in.
    const asking = tm.call('which', {}, { caller: 'webmcp' })
    await flush()
    const question = tm.confirmations.list().find((entry) => entry.caller === 'webmcp')!
    await tm.confirmations.answer(question.id, 'the laser one')
    expect(await asking).toEqual({ status: 'ok', data: { answered: true, value: 'the laser one' } })
    tm.cancelAll()
    expect((await waiting).status).toBe('cancelled')
  })
})
