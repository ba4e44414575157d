import { z } from 'zod'
import {
  createToolmark,
  grants,
  ok,
  type ConfirmEvent,
  type ErrorEvent,
  type ResultEvent,
  type ToolContext,
  type Toolmark,
  type ToolResult,
} from '../src/index'

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

/** A consequential tool that records who ran it with what. */
const registerClose = (tm: Toolmark, extra: Record<string, unknown> = {}) => {
  const runs: Array<{ input: unknown; caller: string }> = []
  tm.register({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Closes a ticket',
    input: z.object({ id: z.number(), reason: z.string().optional() }),
    hints: { consequential: true },
    summary: (input) => `Close ticket #${input.id}`,
    run: (input, ctx) => {
      runs.push({ input, caller: ctx.caller })
      return ok({ closed: input.id })
    },
    ...extra,
  })
  return runs
}

const confirmIdOf = (result: ToolResult) => {
  expect(result.status).toBe('needs_confirmation')
  return (result as { confirmId: string }).confirmId
}

describe('deferred confirmations', () => {
  it('answers an inapp call with needs_confirmation at once, and runs nothing yet', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const result = await tm.call('tickets.close', { id: 7 }, { caller: 'inapp' })
    expect(result).toEqual({
      status: 'needs_confirmation',
      confirmId: expect.stringMatching(/^cf_[0-9a-f]{32}$/),
      summary: 'Close ticket #7',
    })
    expect(runs).toEqual([])
  })

  it('shows what confirmation() says is the input, redacted, instead of the call input', async () => {
    const tm = createToolmark()
    registerClose(tm, {
      sensitive: ['pin'],
      confirmation: () => ({ input: { id: 7, pin: '1234', note: 'whole submission' } }),
    })
    await tm.call('tickets.close', { id: 7 }, { caller: 'inapp' })
    const [entry] = tm.confirmations.list()
    expect(entry.input).toEqual({ id: 7, pin: '[redacted]', note: 'whole submission' })
  })

  it('labels the input with the titles its schema gives, so people read names, not paths', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'pay',
      description: 'Pays someone',
      input: z.object({
        amount: z.number().meta({ title: 'Amount (EUR)' }),
        to: z.object({ iban: z.string().meta({ title: 'Beneficiary IBAN' }), name: z.string() }),
      }),
      hints: { consequential: true },
      summary: ({ amount }) => `Pay ${amount} EUR`,
      run: () => ok(null),
    })
    await tm.call('pay', { amount: 1_000_000, to: { iban: 'XX00 0000', name: 'M' } })
    const [entry] = tm.confirmations.list()
    expect(entry.labels).toEqual({ amount: 'Amount (EUR)', 'to.iban': 'Beneficiary IBAN' })
    expect(entry.input).toEqual({ amount: 1_000_000, to: { iban: 'XX00 0000', name: 'M' } })
  })

  it('warns once in development when a consequential or destructive tool has no summary', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const tm = createToolmark({ dev: true })
      const def = { description: 'Moves money', hints: { consequential: true }, run: () => ok(1) }
      tm.register({ name: 'transfer', ...def }).dispose()
      tm.register({ name: 'transfer', ...def })
      tm.register({
        name: 'wipe',
        description: 'Wipes',
        hints: { destructive: true },
        run: () => ok(1),
      })
      tm.register({
        name: 'fine',
        description: 'Has one',
        hints: { consequential: true },
        summary: () => 'Fine',
        run: () => ok(1),
      })
      createToolmark({ dev: false }).register({ name: 'quiet', ...def })
      expect(warn.mock.calls.map(([m]) => String(m))).toEqual([
        expect.stringMatching(/^\[toolmark\] Tool "transfer" is consequential but has no summary/),
        expect.stringMatching(/^\[toolmark\] Tool "wipe" is destructive but has no summary/),
      ])
    } finally {
      warn.mockRestore()
    }
  })

  it('files an entry in the shared store with everything a dialog shows', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    registerClose(tm)
    const before = Date.now()
    const result = await tm.call('tickets.close', { id: 7 }, { caller: 'inapp' })
    const [entry] = tm.confirmations.list()
    expect(entry).toEqual({
      id: confirmIdOf(result),
      callId: expect.stringMatching(/^call_/),
      tool: 'tickets.close',
      title: 'Close ticket',
      caller: 'inapp',
      mode: 'deferred',
      summary: 'Close ticket #7',
      input: { id: 7 },
      hints: { consequential: true },
      grantable: true,
      createdAt: expect.any(Number),
      expiresAt: expect.any(Number),
      status: 'pending',
    })
    expect(entry.createdAt).toBeGreaterThanOrEqual(before)
    expect(entry.expiresAt - entry.createdAt).toBe(600_000)
    expect(Object.isFrozen(entry)).toBe(true)
    expect(tm.confirmations.get(entry.id)).toBe(entry)
  })

  it('runs the tool as human on approval and resolves approve with its result', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const results: ResultEvent[] = []
    const confirms: ConfirmEvent[] = []
    tm.events.on('result', (e) => results.push(e))
    tm.events.on('confirm', (e) => confirms.push(e))
    const id = confirmIdOf(await tm.call('tickets.close', { id: 7 }))
    const outcome = await tm.confirmations.approve(id)
    expect(outcome).toEqual({ status: 'ok', data: { closed: 7 } })
    expect(Object.isFrozen(outcome)).toBe(true)
    expect(runs).toEqual([{ input: { id: 7 }, caller: 'human' }])
    expect(tm.confirmations.list()).toEqual([])
    // One result per call id: the call's is its needs_confirmation; the run's outcome is told by
    // the confirmation's approved event, under the same call id.
    expect(results.map((e) => [e.caller, e.result.status])).toEqual([
      ['inapp', 'needs_confirmation'],
    ])
    expect(confirms.map((e) => [e.status, e.entry.callId, e.result])).toEqual([
      ['pending', results[0].callId, undefined],
      ['approved', results[0].callId, { status: 'ok', data: { closed: 7 } }],
    ])
  })

  it('emits result once per call id, however its confirmation ends and whoever answers twice', async () => {
    const tm = createToolmark({ limits: { confirmationExpiryMs: 50 } })
    registerClose(tm)
    const seen = new Map<string, number>()
    tm.events.on('result', (e) => seen.set(e.callId, (seen.get(e.callId) ?? 0) + 1))
    const ask = async (n: number) => confirmIdOf(await tm.call('tickets.close', { id: n }))
    const ids = await Promise.all([1, 2, 3, 4].map(ask))
    // Approved twice at once, rejected, approved and rejected at once, stopped, then one left to
    // expire and approved late.
    await Promise.all([tm.confirmations.approve(ids[0]), tm.confirmations.approve(ids[0])])
    await tm.confirmations.reject(ids[1])
    await Promise.all([tm.confirmations.approve(ids[2]), tm.confirmations.reject(ids[2])])
    tm.cancelAll()
    const late = await ask(5)
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect((await tm.confirmations.approve(late)).status).toBe('refused')
    expect(seen.size).toBe(5)
    expect([...seen.values()]).toEqual([1, 1, 1, 1, 1])
  })

  it('is the default for test too, and can be switched to inline for inapp and test', async () => {
    const deferred = createToolmark()
    registerClose(deferred)
    expect((await deferred.call('tickets.close', { id: 1 }, { caller: 'test' })).status).toBe(
      'needs_confirmation',
    )
    const inline = createToolmark({ confirm: { inapp: 'inline', test: 'inline' } })
    inline.confirmations.attachPresenter()
    registerClose(inline)
    for (const caller of ['inapp', 'test'] as const) {
      const pending = inline.call('tickets.close', { id: 1 }, { caller })
      await flush()
      const [entry] = inline.confirmations.list()
      expect(entry.mode).toBe('inline')
      await inline.confirmations.approve(entry.id)
      expect(await pending).toEqual({ status: 'ok', data: { closed: 1 } })
    }
  })

  it('rejects with cancelled operator and runs nothing', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 7 }))
    expect(await tm.confirmations.reject(id, 'Not now')).toEqual({
      status: 'cancelled',
      by: 'operator',
    })
    expect(runs).toEqual([])
    expect(await tm.confirmations.approve(id)).toMatchObject({ code: 'confirmation_expired' })
  })

  it('never asks a human caller', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    expect(await tm.call('tickets.close', { id: 1 }, { caller: 'human' })).toEqual({
      status: 'ok',
      data: { closed: 1 },
    })
    expect(runs).toHaveLength(1)
    expect(tm.confirmations.list()).toEqual([])
  })

  it('uses the title, then the name, when the tool has no summary', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'a',
      title: 'Archive',
      description: 'A',
      hints: { consequential: true },
      run: () => ok(1),
    })
    tm.register({ name: 'b', description: 'B', hints: { destructive: true }, run: () => ok(1) })
    expect(await tm.call('a')).toMatchObject({ summary: 'Archive' })
    expect(await tm.call('b')).toMatchObject({ summary: 'b' })
  })

  it('turns a throwing summary into error "Tool failed" with a tool_threw event', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({
      name: 'a',
      description: 'A',
      hints: { consequential: true },
      summary: () => {
        throw new Error('no summary')
      },
      run: () => ok(1),
    })
    expect(await tm.call('a')).toEqual({ status: 'error', message: 'Tool failed' })
    expect(errors.map((e) => e.code)).toEqual(['tool_threw'])
    expect(tm.confirmations.list()).toEqual([])
  })
})

describe('inline confirmations', () => {
  it('makes webmcp and mcp wait in the page and deliver the final result', async () => {
    const tm = createToolmark({ confirm: { inapp: 'deferred' } })
    tm.confirmations.attachPresenter()
    const runs = registerClose(tm)
    for (const caller of ['webmcp', 'mcp'] as const) {
      let settled: ToolResult | undefined
      const pending = tm.call('tickets.close', { id: 3 }, { caller })
      void pending.then((r) => (settled = r))
      await tick()
      expect(settled).toBeUndefined()
      const [entry] = tm.confirmations.list()
      expect(entry).toMatchObject({ caller, mode: 'inline', summary: 'Close ticket #3' })
      const outcome = await tm.confirmations.approve(entry.id)
      expect(outcome).toEqual({ status: 'ok', data: { closed: 3 } })
      expect(await pending).toBe(outcome)
    }
    expect(runs.map((r) => r.caller)).toEqual(['webmcp', 'mcp'])
  })

  it('runs once when a listener approves from inside the requested event, and rejects the same way', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const runs = registerClose(tm)
    const answers: Array<Promise<ToolResult>> = []
    let answer: 'approve' | 'reject' = 'approve'
    tm.events.on('confirm', (event) => {
      if (event.status !== 'pending') return
      answers.push(
        answer === 'approve'
          ? tm.confirmations.approve(event.entry.id)
          : tm.confirmations.reject(event.entry.id),
      )
    })
    const first = tm.call('tickets.close', { id: 3 }, { caller: 'mcp' })
    const second = tm.call('tickets.close', { id: 5 }, { caller: 'webmcp' })
    expect(await first).toEqual({ status: 'ok', data: { closed: 3 } })
    expect(await second).toEqual({ status: 'ok', data: { closed: 5 } })
    answer = 'reject'
    expect(await tm.call('tickets.close', { id: 7 }, { caller: 'mcp' })).toEqual({
      status: 'cancelled',
      by: 'operator',
    })
    expect(await Promise.all(answers)).toEqual([
      { status: 'ok', data: { closed: 3 } },
      { status: 'ok', data: { closed: 5 } },
      { status: 'cancelled', by: 'operator' },
    ])
    expect(runs.map((r) => r.input)).toEqual([{ id: 3 }, { id: 5 }])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('runs once when a store subscriber approves as soon as the entry is listed, and rejects the same way', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const runs = registerClose(tm)
    const answers: Array<Promise<ToolResult>> = []
    const seen = new Set<string>()
    let answer: 'approve' | 'reject' = 'approve'
    // A presenter that answers from the store's own notification, before any event is out.
    tm.confirmations.subscribe(() => {
      for (const entry of tm.confirmations.list()) {
        if (seen.has(entry.id)) continue
        seen.add(entry.id)
        answers.push(
          answer === 'approve'
            ? tm.confirmations.approve(entry.id)
            : tm.confirmations.reject(entry.id),
        )
      }
    })
    const requested: string[] = []
    tm.events.on('confirm', (event) => requested.push(`${event.status} ${event.entry.id}`))
    const first = tm.call('tickets.close', { id: 3 }, { caller: 'mcp' })
    const second = tm.call('tickets.close', { id: 5 }, { caller: 'webmcp' })
    expect(await first).toEqual({ status: 'ok', data: { closed: 3 } })
    expect(await second).toEqual({ status: 'ok', data: { closed: 5 } })
    answer = 'reject'
    expect(await tm.call('tickets.close', { id: 7 }, { caller: 'mcp' })).toEqual({
      status: 'cancelled',
      by: 'operator',
    })
    expect(await Promise.all(answers)).toEqual([
      { status: 'ok', data: { closed: 3 } },
      { status: 'ok', data: { closed: 5 } },
      { status: 'cancelled', by: 'operator' },
    ])
    expect(runs.map((r) => r.input)).toEqual([{ id: 3 }, { id: 5 }])
    // Every entry is announced before it is answered.
    const order = (id: string) => requested.filter((line) => line.endsWith(id))
    expect([...seen].map(order)).toEqual([
      [`pending ${[...seen][0]}`, `approved ${[...seen][0]}`],
      [`pending ${[...seen][1]}`, `approved ${[...seen][1]}`],
      [`pending ${[...seen][2]}`, `rejected ${[...seen][2]}`],
    ])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('ends the call cancelled operator on reject', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const runs = registerClose(tm)
    const pending = tm.call('tickets.close', { id: 3 }, { caller: 'mcp' })
    await flush()
    const rejected = await tm.confirmations.reject(tm.confirmations.list()[0].id)
    expect(rejected).toEqual({ status: 'cancelled', by: 'operator' })
    expect(await pending).toEqual({ status: 'cancelled', by: 'operator' })
    expect(runs).toEqual([])
  })

  it('ends cancelled signal and removes the entry when the caller’s signal aborts while waiting', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    registerClose(tm)
    const controller = new AbortController()
    const pending = tm.call(
      'tickets.close',
      { id: 3 },
      { caller: 'webmcp', signal: controller.signal },
    )
    await flush()
    expect(tm.confirmations.list()).toHaveLength(1)
    controller.abort()
    expect(await pending).toEqual({ status: 'cancelled', by: 'signal' })
    expect(tm.confirmations.list()).toEqual([])
  })

  it('ends cancelled operator on Stop (cancelAll) while waiting', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    registerClose(tm)
    const pending = tm.call('tickets.close', { id: 3 }, { caller: 'mcp' })
    await flush()
    tm.cancelAll()
    expect(await pending).toEqual({ status: 'cancelled', by: 'operator' })
    expect(tm.confirmations.list()).toEqual([])
  })

  it('does not count the wait against the call deadline', async () => {
    vi.useFakeTimers()
    try {
      const tm = createToolmark({ limits: { callTimeoutMs: 1_000 } })
      tm.confirmations.attachPresenter()
      registerClose(tm)
      const pending = tm.call('tickets.close', { id: 3 }, { caller: 'mcp' })
      await vi.advanceTimersByTimeAsync(300_000)
      await tm.confirmations.approve(tm.confirmations.list()[0].id)
      expect(await pending).toEqual({ status: 'ok', data: { closed: 3 } })
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('single-use, unguessable ids', () => {
  it('mints a fresh 128-bit id per confirmation', async () => {
    const tm = createToolmark()
    registerClose(tm)
    const ids = new Set<string>()
    for (let i = 0; i < 20; i++) ids.add(confirmIdOf(await tm.call('tickets.close', { id: i })))
    expect(ids.size).toBe(20)
    for (const id of ids) expect(id).toMatch(/^cf_[0-9a-f]{32}$/)
  })

  it('answers a second approval, an unknown id or a non-string id with confirmation_expired', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    await tm.confirmations.approve(id)
    const expired = { status: 'refused', code: 'confirmation_expired', message: expect.any(String) }
    expect(await tm.confirmations.approve(id)).toEqual(expired)
    expect(await tm.confirmations.reject(id)).toEqual(expired)
    expect(await tm.confirmations.approve('cf_00000000000000000000000000000000')).toEqual(expired)
    expect(await tm.confirmations.approve(42 as never)).toEqual(expired)
    expect(await tm.confirmations.approve(id, 'garbage' as never)).toEqual(expired)
    expect(runs).toHaveLength(1)
  })

  it('runs exactly once for two concurrent approvals (deferred); the other gets confirmation_expired', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    const [a, b] = await Promise.all([tm.confirmations.approve(id), tm.confirmations.approve(id)])
    expect([a.status, b.status].sort()).toEqual(['ok', 'refused'])
    expect([a, b].find((r) => r.status === 'refused')).toMatchObject({
      code: 'confirmation_expired',
    })
    expect(runs).toHaveLength(1)
  })

  it('runs exactly once for two concurrent approvals (inline)', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const runs = registerClose(tm)
    const pending = tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })
    await flush()
    const id = tm.confirmations.list()[0].id
    const [a, b] = await Promise.all([tm.confirmations.approve(id), tm.confirmations.approve(id)])
    expect([a.status, b.status].sort()).toEqual(['ok', 'refused'])
    expect(runs).toHaveLength(1)
    expect((await pending).status).toBe('ok')
  })

  it('lets only one of a concurrent approve and reject win', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    const [approved, rejected] = await Promise.all([
      tm.confirmations.approve(id),
      tm.confirmations.reject(id),
    ])
    expect(approved.status).toBe('ok')
    expect(rejected).toMatchObject({ code: 'confirmation_expired' })
    expect(runs).toHaveLength(1)
  })

  it('runs exactly once for two concurrent approvals with an edited input', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    const results = await Promise.all([
      tm.confirmations.approve(id, { input: { id: 2 } }),
      tm.confirmations.approve(id, { input: { id: 3 } }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual(['ok', 'refused'])
    expect(runs).toHaveLength(1)
  })
})

describe('expiry', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('refuses approval after the clock jumps past expiry, even before any timer fires (deferred)', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const confirms: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => confirms.push(e))
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    vi.setSystemTime(Date.now() + 600_001)
    expect(await tm.confirmations.approve(id)).toMatchObject({
      status: 'refused',
      code: 'confirmation_expired',
    })
    expect(runs).toEqual([])
    expect(tm.confirmations.list()).toEqual([])
    expect(confirms.map((e) => e.status)).toEqual(['pending', 'expired'])
    expect(confirms[1].result).toMatchObject({ code: 'confirmation_expired' })
  })

  it('ends an inline call confirmation_expired when approval comes after a clock jump', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const runs = registerClose(tm)
    const pending = tm.call('tickets.close', { id: 1 }, { caller: 'webmcp' })
    await vi.advanceTimersByTimeAsync(0)
    const id = tm.confirmations.list()[0].id
    vi.setSystemTime(Date.now() + 600_001)
    expect(await tm.confirmations.approve(id)).toMatchObject({ code: 'confirmation_expired' })
    expect(await pending).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
    expect(runs).toEqual([])
  })

  it('expires inline confirmations by timer too, ending the call confirmation_expired', async () => {
    const tm = createToolmark({ limits: { confirmationExpiryMs: 1_000 } })
    tm.confirmations.attachPresenter()
    registerClose(tm)
    const pending = tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })
    await vi.advanceTimersByTimeAsync(999)
    expect(tm.confirmations.list()).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(tm.confirmations.list()).toEqual([])
    expect(await pending).toMatchObject({ code: 'confirmation_expired' })
  })

  it('expires deferred entries by timer and emits an expired confirm event', async () => {
    const tm = createToolmark({ limits: { confirmationExpiryMs: 1_000 } })
    registerClose(tm)
    const confirms: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => confirms.push(e))
    await tm.call('tickets.close', { id: 1 })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(tm.confirmations.list()).toEqual([])
    expect(confirms.map((e) => e.status)).toEqual(['pending', 'expired'])
  })

  it('accepts an approval just before expiry', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    vi.setSystemTime(Date.now() + 599_999)
    expect((await tm.confirmations.approve(id)).status).toBe('ok')
    expect(runs).toHaveLength(1)
  })

  it('expires an entry whose edited input was still being checked, without spinning timers', async () => {
    const tm = createToolmark({ limits: { confirmationExpiryMs: 1_000 } })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const runs: unknown[] = []
    tm.register({
      name: 'slowcheck',
      description: 'Validates slowly',
      hints: { consequential: true },
      input: {
        '~standard': {
          version: 1,
          vendor: 'slow',
          validate: async (value: unknown) => {
            if ((value as { wait?: boolean })?.wait) await gate
            return { value }
          },
        },
      },
      inputSchema: { type: 'object' },
      run: (input) => (runs.push(input), ok(null)),
    })
    const id = confirmIdOf(await tm.call('slowcheck', {}))
    const approving = tm.confirmations.approve(id, { input: { wait: true } })
    const timers = vi.spyOn(globalThis, 'setTimeout')
    await vi.advanceTimersByTimeAsync(5_000)
    expect(timers.mock.calls.length).toBeLessThan(5)
    timers.mockRestore()
    release()
    expect(await approving).toMatchObject({ code: 'confirmation_expired' })
    expect(runs).toEqual([])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('leaves no timer once the store is empty again', async () => {
    const tm = createToolmark()
    registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    expect(vi.getTimerCount()).toBe(1)
    await tm.confirmations.reject(id)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('the pending limit', () => {
  it('keeps at most 100 pending from one caller: the next is refused busy and nothing is evicted', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const runs = registerClose(tm)
    const confirms: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => confirms.push(e))
    const waiting: Promise<ToolResult>[] = []
    for (let i = 0; i < 100; i++) {
      waiting.push(tm.call('tickets.close', { id: i }, { caller: 'mcp' }))
      await flush()
    }
    expect(tm.confirmations.list()).toHaveLength(100)
    const over = await tm.call('tickets.close', { id: 100 }, { caller: 'mcp' })
    expect(over).toMatchObject({ status: 'refused', code: 'busy' })
    expect((over as { message: string }).message).toContain('limits.pendingConfirmations (100)')
    expect(tm.confirmations.list()).toHaveLength(100)
    expect(confirms.filter((e) => e.status !== 'pending')).toEqual([])
    const oldest = tm.confirmations.list()[0]
    expect(oldest.input).toEqual({ id: 0 })
    expect((await tm.confirmations.approve(oldest.id)).status).toBe('ok')
    expect(await waiting[0]).toEqual({ status: 'ok', data: { closed: 0 } })
    expect(runs).toEqual([{ input: { id: 0 }, caller: 'mcp' }])
    tm.cancelAll()
  })

  it('never ends another caller’s inline call to make room: the caller past its share is busy', async () => {
    const tm = createToolmark({ limits: { pendingConfirmations: 2 } })
    tm.confirmations.attachPresenter()
    registerClose(tm)
    const first = tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })
    await flush()
    const second = tm.call('tickets.close', { id: 2 }, { caller: 'webmcp' })
    await flush()
    expect(await tm.call('tickets.close', { id: 3 }, { caller: 'webmcp' })).toMatchObject({
      status: 'refused',
      code: 'busy',
    })
    expect(tm.confirmations.list().map((e) => (e.input as { id: number }).id)).toEqual([1, 2])
    await tm.confirmations.approve(tm.confirmations.list()[0].id)
    expect(await first).toEqual({ status: 'ok', data: { closed: 1 } })
    tm.cancelAll()
    expect((await second).status).toBe('cancelled')
  })
})

describe('edited input', () => {
  it('returns invalid for an edited input that fails validation and keeps the entry pending', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    const bad = await tm.confirmations.approve(id, { input: { id: 'one' } })
    expect(bad).toMatchObject({ status: 'invalid', issues: [{ path: 'id' }] })
    expect(Object.isFrozen(bad)).toBe(true)
    expect(tm.confirmations.list().map((e) => e.id)).toEqual([id])
    expect(runs).toEqual([])
    const good = await tm.confirmations.approve(id, { input: { id: 2, reason: 'dup' } })
    expect(good).toEqual({ status: 'ok', data: { closed: 2 } })
    expect(runs).toEqual([{ input: { id: 2, reason: 'dup' }, caller: 'human' }])
  })

  it('does the same for an inline call, whose caller gets the edited run’s result', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const runs = registerClose(tm)
    const pending = tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })
    await flush()
    const id = tm.confirmations.list()[0].id
    expect((await tm.confirmations.approve(id, { input: {} })).status).toBe('invalid')
    expect(tm.confirmations.list()).toHaveLength(1)
    expect(await tm.confirmations.approve(id, { input: { id: 9 } })).toEqual({
      status: 'ok',
      data: { closed: 9 },
    })
    expect(await pending).toEqual({ status: 'ok', data: { closed: 9 } })
    expect(runs.map((r) => r.input)).toEqual([{ id: 9 }])
  })
})

describe('redaction in confirmations', () => {
  it('masks sensitive input and changes in entries, results and confirm events', async () => {
    const tm = createToolmark()
    const confirms: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => confirms.push(e))
    tm.register({
      name: 'account.update',
      description: 'Updates the account',
      input: z.object({
        email: z.string(),
        password: z.string(),
        cards: z.array(z.object({ cvc: z.string(), last4: z.string() })),
      }),
      hints: { consequential: true },
      sensitive: ['password', 'cards[].cvc'],
      confirmation: (input) => ({
        changes: [
          { path: 'email', before: 'a@x.io', after: input.email },
          { path: 'password', before: 'old-secret', after: input.password },
          { path: 'cards.0.cvc', after: input.cards[0].cvc },
        ],
      }),
      run: () => ok(null),
    })
    const input = { email: 'b@x.io', password: 'hunter2', cards: [{ cvc: '123', last4: '4242' }] }
    const result = await tm.call('account.update', input)
    const [entry] = tm.confirmations.list()
    expect(entry.input).toEqual({
      email: 'b@x.io',
      password: '[redacted]',
      cards: [{ cvc: '[redacted]', last4: '4242' }],
    })
    const masked = [
      { path: 'email', before: 'a@x.io', after: 'b@x.io' },
      { path: 'password', before: '[redacted]', after: '[redacted]' },
      { path: 'cards.0.cvc', after: '[redacted]' },
    ]
    expect(entry.changes).toEqual(masked)
    expect((result as { changes: unknown }).changes).toEqual(masked)
    expect(JSON.stringify(confirms)).not.toContain('hunter2')
    expect(JSON.stringify(confirms)).not.toContain('"123"')
    expect(input.password).toBe('hunter2')
  })
})

describe('presenters', () => {
  it('hides confirmable tools from inline callers while no presenter is attached, and refuses their calls', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    tm.register({ name: 'read', description: 'Reads', hints: { readOnly: true }, run: () => ok(1) })
    for (const caller of ['webmcp', 'mcp'] as const) {
      expect(tm.manifest({ caller }).tools.map((t) => t.name)).toEqual(['read'])
      expect(await tm.call('tickets.close', { id: 1 }, { caller })).toMatchObject({
        status: 'refused',
        code: 'not_allowed',
      })
    }
    // Deferred callers are not affected: the entry waits for a dialog to mount.
    expect(tm.manifest({ caller: 'inapp' }).tools.map((t) => t.name)).toEqual([
      'read',
      'tickets.close',
    ])
    expect((await tm.call('tickets.close', { id: 1 })).status).toBe('needs_confirmation')
    expect(runs).toEqual([])
    expect(tm.confirmations.hasPresenter()).toBe(false)
  })

  it('shows them again once a presenter attaches, bumping rev on attach and on detach', async () => {
    const tm = createToolmark()
    registerClose(tm)
    await flush()
    const listener = vi.fn()
    tm.subscribe(listener)
    const detach = tm.confirmations.attachPresenter()
    expect(tm.confirmations.hasPresenter()).toBe(true)
    expect(tm.manifest({ caller: 'mcp' }).tools.map((t) => t.name)).toEqual(['tickets.close'])
    await flush()
    expect(listener).toHaveBeenLastCalledWith(2)
    detach()
    detach()
    expect(tm.manifest({ caller: 'mcp' }).tools).toEqual([])
    await flush()
    expect(listener).toHaveBeenLastCalledWith(3)
    expect(listener).toHaveBeenCalledTimes(2)
  })

  it('counts presenters: hidden again only when the last one detaches', () => {
    const tm = createToolmark()
    registerClose(tm)
    const a = tm.confirmations.attachPresenter()
    const b = tm.confirmations.attachPresenter()
    a()
    expect(tm.confirmations.hasPresenter()).toBe(true)
    b()
    expect(tm.confirmations.hasPresenter()).toBe(false)
  })

  it('withdraws a waiting inline call with cancelled policy when the last presenter detaches', async () => {
    const tm = createToolmark()
    const detach = tm.confirmations.attachPresenter()
    registerClose(tm)
    const pending = tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })
    await flush()
    detach()
    expect(await pending).toEqual({ status: 'cancelled', by: 'policy' })
    expect(tm.confirmations.list()).toEqual([])
  })

  it('keeps a waiting inline call when a presenter remounts in the same tick (StrictMode)', async () => {
    const tm = createToolmark()
    const detach = tm.confirmations.attachPresenter()
    registerClose(tm)
    const pending = tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })
    await flush()
    detach()
    tm.confirmations.attachPresenter()
    await flush()
    expect(tm.confirmations.list()).toHaveLength(1)
    await tm.confirmations.approve(tm.confirmations.list()[0].id)
    expect((await pending).status).toBe('ok')
  })
})

describe('confirm events', () => {
  it('emits requested, then approved with the result', async () => {
    const tm = createToolmark()
    registerClose(tm)
    const confirms: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => confirms.push(e))
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    await tm.confirmations.approve(id)
    expect(confirms.map((e) => [e.status, e.entry.id, e.result])).toEqual([
      ['pending', id, undefined],
      ['approved', id, { status: 'ok', data: { closed: 1 } }],
    ])
  })

  it('emits rejected with cancelled operator', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    registerClose(tm)
    const confirms: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => confirms.push(e))
    const pending = tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })
    await flush()
    await tm.confirmations.reject(tm.confirmations.list()[0].id)
    await pending
    expect(confirms.map((e) => [e.status, e.result])).toEqual([
      ['pending', undefined],
      ['rejected', { status: 'cancelled', by: 'operator' }],
    ])
  })
})

describe('confirmation(input): changes and staleness', () => {
  it('carries changes in the result and the entry', async () => {
    const tm = createToolmark()
    registerClose(tm, {
      confirmation: () => ({
        summary: 'ignored: summary() wins',
        changes: [{ path: 'status', before: 'open', after: 'closed' }, { path: 'note' }, 'junk'],
      }),
    })
    const result = await tm.call('tickets.close', { id: 1 })
    expect(result).toMatchObject({
      summary: 'Close ticket #1',
      changes: [{ path: 'status', before: 'open', after: 'closed' }, { path: 'note' }],
    })
    expect(tm.confirmations.list()[0].changes).toEqual([
      { path: 'status', before: 'open', after: 'closed' },
      { path: 'note' },
    ])
  })

  it('uses confirmation().summary when the tool has no summary()', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'submit',
      description: 'Submits',
      hints: { consequential: true },
      confirmation: () => ({ summary: 'Submit the form' }),
      run: () => ok(1),
    })
    expect(await tm.call('submit')).toMatchObject({ summary: 'Submit the form' })
  })

  it('refuses stale on approval when isStale() says the state moved, and runs nothing (deferred)', async () => {
    const tm = createToolmark()
    let changed = false
    const runs = registerClose(tm, { confirmation: () => ({ isStale: () => changed }) })
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    changed = true
    expect(await tm.confirmations.approve(id)).toMatchObject({
      status: 'refused',
      code: 'stale',
      rev: expect.any(Number),
    })
    expect(runs).toEqual([])
  })

  it('refuses stale on approval for an inline call too', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    let changed = false
    const runs = registerClose(tm, { confirmation: () => ({ isStale: () => changed }) })
    const pending = tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })
    await flush()
    changed = true
    await tm.confirmations.approve(tm.confirmations.list()[0].id)
    expect(await pending).toMatchObject({ status: 'refused', code: 'stale' })
    expect(runs).toEqual([])
  })

  it('treats an isStale() that throws as stale', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm, {
      confirmation: () => ({
        isStale: () => {
          throw new Error('cannot tell')
        },
      }),
    })
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    expect(await tm.confirmations.approve(id)).toMatchObject({ code: 'stale' })
    expect(runs).toEqual([])
  })
})

describe("approveMany('all') and rejectMany('all')", () => {
  it('answers every pending entry, in either order', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    await tm.call('tickets.close', { id: 1 })
    await tm.call('tickets.close', { id: 2 })
    const status = (answers: { result: ToolResult }[]) => answers.map((a) => a.result.status)
    expect(status(await tm.confirmations.approveMany('all'))).toEqual(['ok', 'ok'])
    expect(runs.map((r) => (r.input as { id: number }).id)).toEqual([1, 2])
    await tm.call('tickets.close', { id: 3 })
    await tm.call('tickets.close', { id: 4 })
    expect(status(await tm.confirmations.approveMany('all', { order: 'together' }))).toEqual([
      'ok',
      'ok',
    ])
    expect(runs.map((r) => (r.input as { id: number }).id).sort()).toEqual([1, 2, 3, 4])
    await tm.call('tickets.close', { id: 5 })
    await tm.call('tickets.close', { id: 6 })
    expect((await tm.confirmations.rejectMany('all', 'no')).map((a) => a.result)).toEqual([
      { status: 'cancelled', by: 'operator' },
      { status: 'cancelled', by: 'operator' },
    ])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('answers nothing when nothing is pending', async () => {
    const tm = createToolmark()
    expect(await tm.confirmations.approveMany('all')).toEqual([])
    expect(await tm.confirmations.rejectMany('all')).toEqual([])
  })
})

describe('approveMany and rejectMany', () => {
  it('runs the named entries one after another in queue order and leaves the others pending', async () => {
    const tm = createToolmark()
    const log: string[] = []
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket',
      input: z.object({ id: z.number() }),
      hints: { consequential: true },
      summary: (input) => `Close ticket #${input.id}`,
      run: async (input) => {
        log.push(`start ${input.id}`)
        await tick()
        log.push(`end ${input.id}`)
        return ok({ closed: input.id })
      },
    })
    const ids: string[] = []
    for (const id of [1, 2, 3, 4]) ids.push(confirmIdOf(await tm.call('tickets.close', { id })))
    const confirms: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => confirms.push(e))

    // Named out of order and twice: answered once each, oldest first.
    const answers = await tm.confirmations.approveMany([ids[3], ids[0], ids[3], ids[2]], {
      by: 'dialog',
    })

    expect(answers).toEqual([
      { id: ids[0], result: { status: 'ok', data: { closed: 1 } } },
      { id: ids[2], result: { status: 'ok', data: { closed: 3 } } },
      { id: ids[3], result: { status: 'ok', data: { closed: 4 } } },
    ])
    expect(log).toEqual(['start 1', 'end 1', 'start 3', 'end 3', 'start 4', 'end 4'])
    expect(confirms.map((e) => [e.status, e.by])).toEqual([
      ['approved', 'dialog'],
      ['approved', 'dialog'],
      ['approved', 'dialog'],
    ])
    expect(tm.confirmations.list().map((e) => e.id)).toEqual([ids[1]])
  })

  it.each(['approveMany', 'rejectMany'] as const)(
    '%s answers an id whose toString throws refused, goes on with the rest, and later batches still run',
    async (method) => {
      const tm = createToolmark()
      const runs: number[] = []
      tm.register({
        name: 'tickets.close',
        description: 'Closes a ticket',
        input: z.object({ id: z.number() }),
        hints: { consequential: true },
        summary: (input) => `Close ticket #${input.id}`,
        run: (input) => {
          runs.push(input.id)
          return ok(input.id)
        },
      })
      const ids: string[] = []
      for (const id of [1, 2, 3]) ids.push(confirmIdOf(await tm.call('tickets.close', { id })))
      const hostile = {
        toString() {
          throw new Error('no text for you')
        },
      }
      // An object whose text is an open entry's id names nothing: only a string does.
      const impostor = { toString: () => ids[2] }

      const answers = await tm.confirmations[method]([ids[0], hostile, impostor] as never)

      const done = method === 'approveMany' ? 'ok' : 'cancelled'
      expect(answers.map((a) => [a.id, a.result.status])).toEqual([
        [ids[0], done],
        ['[unreadable id]', 'refused'],
        [ids[2], 'refused'],
      ])
      expect(answers[1].result).toMatchObject({ code: 'confirmation_expired' })
      expect(answers[2].result).toMatchObject({ code: 'confirmation_expired' })
      expect(tm.confirmations.list().map((e) => e.id)).toEqual([ids[1], ids[2]])

      // A list that throws while it is read names nothing, and the queue of batches goes on.
      const throwing = new Proxy([ids[1]], {
        get(target, key, receiver) {
          if (key === 'length') throw new Error('no length')
          return Reflect.get(target, key, receiver) as unknown
        },
      })
      expect(await tm.confirmations[method](throwing)).toEqual([])
      const next = await tm.confirmations[method]([ids[1], ids[2]])
      expect(next.map((a) => [a.id, a.result.status])).toEqual([
        [ids[1], done],
        [ids[2], done],
      ])
      expect(runs).toEqual(method === 'approveMany' ? [1, 2, 3] : [])
      expect(tm.confirmations.list()).toEqual([])
    },
  )

  it('reports an entry withdrawn or expired meanwhile, and still runs the rest', async () => {
    vi.useFakeTimers()
    try {
      const tm = createToolmark()
      const later: string[] = []
      const runs: number[] = []
      tm.register({
        name: 'tickets.close',
        description: 'Closes a ticket',
        input: z.object({ id: z.number() }),
        hints: { consequential: true },
        summary: (input) => `Close ticket #${input.id}`,
        run: async (input) => {
          runs.push(input.id)
          if (input.id === 1) {
            // While the first runs, the second is answered elsewhere and the clock passes the
            // third's expiry.
            await tm.confirmations.reject(later[0])
            vi.setSystemTime(Date.now() + 600_001)
          }
          return ok(input.id)
        },
      })
      const first = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
      later.push(confirmIdOf(await tm.call('tickets.close', { id: 2 })))
      const third = confirmIdOf(await tm.call('tickets.close', { id: 3 }))

      const answers = await tm.confirmations.approveMany([first, later[0], third, 'cf_unknown'])

      expect(answers.map((a) => [a.id, a.result.status])).toEqual([
        [first, 'ok'],
        [later[0], 'refused'],
        [third, 'refused'],
        ['cf_unknown', 'refused'],
      ])
      for (const answer of answers.slice(1)) {
        expect(answer.result).toMatchObject({ code: 'confirmation_expired' })
        expect(Object.isFrozen(answer.result)).toBe(true)
      }
      expect(runs).toEqual([1])
      expect(tm.confirmations.list()).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })

  it('goes on after a failed run, and answers an overlapping batch once per entry', async () => {
    const tm = createToolmark()
    const runs: number[] = []
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket',
      input: z.object({ id: z.number() }),
      hints: { consequential: true },
      summary: (input) => `Close ticket #${input.id}`,
      run: async (input) => {
        runs.push(input.id)
        await tick()
        if (input.id === 1) throw new Error('backend down')
        return ok(input.id)
      },
    })
    const ids: string[] = []
    for (const id of [1, 2]) ids.push(confirmIdOf(await tm.call('tickets.close', { id })))

    const [a, b] = await Promise.all([
      tm.confirmations.approveMany(ids),
      tm.confirmations.approveMany(ids),
    ])

    expect(a.map((x) => x.result.status)).toEqual(['error', 'ok'])
    expect(b.map((x) => x.result)).toEqual([
      expect.objectContaining({ code: 'confirmation_expired' }),
      expect.objectContaining({ code: 'confirmation_expired' }),
    ])
    expect(runs).toEqual([1, 2])
  })

  it('waits for answers, not for runs: a run that asks the person can be answered by another batch', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const heard: unknown[] = []
    tm.register({
      name: 'tickets.merge',
      description: 'Merges two tickets, asking before it deletes the second',
      input: z.object({ id: z.number() }),
      hints: { consequential: true },
      summary: (input) => `Merge ticket #${input.id}`,
      run: async (input, ctx) => {
        const answer = await ctx.confirm({ summary: `Delete ticket #${input.id + 1} too?` })
        heard.push(answer.approved)
        return ok(input.id)
      },
    })
    const first = confirmIdOf(await tm.call('tickets.merge', { id: 1 }))
    const merging = tm.confirmations.approveMany([first])
    await flush()
    // The run waits for its own question; a second batch answers it.
    const [asked] = tm.confirmations.list()
    expect(asked.summary).toBe('Delete ticket #2 too?')
    expect(await tm.confirmations.rejectMany([asked.id])).toEqual([
      { id: asked.id, result: { status: 'cancelled', by: 'operator' } },
    ])
    expect(await merging).toEqual([{ id: first, result: { status: 'ok', data: 1 } }])
    expect(heard).toEqual([false])

    // And with approveMany for the inner question too.
    const second = confirmIdOf(await tm.call('tickets.merge', { id: 3 }))
    const again = tm.confirmations.approveMany([second])
    await flush()
    const [inner] = tm.confirmations.list()
    expect((await tm.confirmations.approveMany([inner.id]))[0].result.status).toBe('ok')
    expect(await again).toEqual([{ id: second, result: { status: 'ok', data: 3 } }])
    expect(heard).toEqual([false, true])
  })

  it('rejects the named entries in queue order; anything that is not a list answers nothing', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const ids: string[] = []
    for (const id of [1, 2, 3]) ids.push(confirmIdOf(await tm.call('tickets.close', { id })))

    expect(await tm.confirmations.rejectMany([ids[2], ids[0]], 'not now')).toEqual([
      { id: ids[0], result: { status: 'cancelled', by: 'operator' } },
      { id: ids[2], result: { status: 'cancelled', by: 'operator' } },
    ])
    expect(await tm.confirmations.approveMany('nope' as unknown as string[])).toEqual([])
    expect(await tm.confirmations.rejectMany([42 as unknown as string])).toEqual([
      { id: '42', result: expect.objectContaining({ code: 'confirmation_expired' }) },
    ])
    expect(runs).toEqual([])
    expect(tm.confirmations.list().map((e) => e.id)).toEqual([ids[1]])
  })

  it('waits for each inline call to finish before approving the next', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const log: string[] = []
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket',
      input: z.object({ id: z.number() }),
      hints: { consequential: true },
      summary: (input) => `Close ticket #${input.id}`,
      run: async (input) => {
        log.push(`start ${input.id}`)
        await tick()
        log.push(`end ${input.id}`)
        return ok(input.id)
      },
    })
    const calls = [1, 2].map((id) => tm.call('tickets.close', { id }, { caller: 'webmcp' }))
    await tick()
    const ids = tm.confirmations.list().map((e) => e.id)

    const answers = await tm.confirmations.approveMany(ids)

    expect(answers.map((a) => a.result)).toEqual([
      { status: 'ok', data: 1 },
      { status: 'ok', data: 2 },
    ])
    expect(await Promise.all(calls)).toEqual([
      { status: 'ok', data: 1 },
      { status: 'ok', data: 2 },
    ])
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2'])
  })
})

describe('the store as a snapshot source', () => {
  it('returns the same list until something changes and notifies subscribers after each change', async () => {
    const tm = createToolmark()
    registerClose(tm)
    const empty = tm.confirmations.list()
    expect(tm.confirmations.list()).toBe(empty)
    const listener = vi.fn()
    const off = tm.confirmations.subscribe(listener)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    expect(listener).toHaveBeenCalledTimes(1)
    const one = tm.confirmations.list()
    expect(one).not.toBe(empty)
    expect(tm.confirmations.list()).toBe(one)
    expect(Object.isFrozen(one)).toBe(true)
    await tm.confirmations.reject(id)
    expect(listener).toHaveBeenCalledTimes(2)
    off()
    await tm.call('tickets.close', { id: 2 })
    expect(listener).toHaveBeenCalledTimes(2)
  })

  it('isolates a throwing subscriber and reports it as listener_threw', async () => {
    const tm = createToolmark()
    registerClose(tm)
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const after = vi.fn()
    tm.confirmations.subscribe(() => {
      throw new Error('bad')
    })
    tm.confirmations.subscribe(after)
    expect((await tm.call('tickets.close', { id: 1 })).status).toBe('needs_confirmation')
    expect(after).toHaveBeenCalled()
    expect(errors.map((e) => e.code)).toEqual(['listener_threw'])
    expect((errors[0].cause as Error).message).toBe('bad')
  })
})

describe('ctx.confirm inside run', () => {
  const registerAsking = (tm: Toolmark) => {
    const answers: unknown[] = []
    tm.register({
      name: 'import',
      description: 'Imports, asking first',
      sensitive: ['token'],
      run: async (_input, ctx: ToolContext) => {
        const answer = await ctx.confirm({
          summary: 'Overwrite 3 records?',
          changes: [{ path: 'token', before: 'old', after: 'new' }],
        })
        answers.push(answer)
        return ok(answer.approved ? 'imported' : 'skipped')
      },
    })
    return answers
  }

  it('asks a person inline whatever the caller and continues with the answer', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const answers = registerAsking(tm)
    const pending = tm.call('import', {}, { caller: 'inapp' })
    await flush()
    const [entry] = tm.confirmations.list()
    expect(entry).toMatchObject({
      tool: 'import',
      caller: 'inapp',
      mode: 'inline',
      summary: 'Overwrite 3 records?',
      changes: [{ path: 'token', before: '[redacted]', after: '[redacted]' }],
    })
    expect(await tm.confirmations.approve(entry.id)).toEqual({ status: 'ok', data: null })
    expect(await pending).toEqual({ status: 'ok', data: 'imported' })
    expect(answers).toEqual([{ approved: true }])
  })

  it('resolves approved false with the reason on reject', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const answers = registerAsking(tm)
    const pending = tm.call('import')
    await flush()
    await tm.confirmations.reject(tm.confirmations.list()[0].id, 'Too risky')
    expect(await pending).toEqual({ status: 'ok', data: 'skipped' })
    expect(answers).toEqual([{ approved: false, reason: 'Too risky' }])
  })

  it('resolves approved false at once when no presenter is attached', async () => {
    const tm = createToolmark()
    const answers = registerAsking(tm)
    expect(await tm.call('import')).toEqual({ status: 'ok', data: 'skipped' })
    expect(answers).toEqual([{ approved: false, reason: 'no_presenter' }])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('withdraws its entry when the tool goes away', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const answers: unknown[] = []
    const handle = tm.register({
      name: 'ask',
      description: 'Asks',
      run: async (_input, ctx) => {
        answers.push(await ctx.confirm({ summary: 'Sure?' }))
        return ok(null)
      },
    })
    const pending = tm.call('ask')
    await flush()
    handle.dispose()
    await pending
    expect(answers).toEqual([{ approved: false, reason: 'withdrawn' }])
    expect(tm.confirmations.list()).toEqual([])
  })
})

describe('the confirm event carries how the confirmation ended', () => {
  /** Every confirm event of a registry, as [status, by, result status/by]. */
  const watch = (tm: Toolmark) => {
    const seen: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => seen.push(e))
    const rows = () =>
      seen.map((e) => [
        e.status,
        e.by,
        e.result &&
          (e.result.status === 'cancelled' ? `cancelled ${e.result.by}` : e.result.status),
      ])
    return { seen, rows }
  }

  it('says pending when requested, then one final status for each way it ends', async () => {
    vi.useFakeTimers()
    try {
      const tm = createToolmark({
        confirm: { inapp: 'inline' },
        limits: { confirmationExpiryMs: 1_000, pendingConfirmations: 2 },
      })
      tm.confirmations.attachPresenter()
      registerClose(tm)
      const { seen, rows } = watch(tm)

      // Approved and denied (deferred, by the test caller).
      const approved = confirmIdOf(await tm.call('tickets.close', { id: 1 }, { caller: 'test' }))
      await tm.confirmations.approve(approved, { by: 'dialog' })
      const denied = confirmIdOf(await tm.call('tickets.close', { id: 2 }, { caller: 'test' }))
      await tm.confirmations.reject(denied)
      // Stop while an inline call waits: a person's no.
      const stopped = tm.call('tickets.close', { id: 3 })
      await flush()
      tm.cancelAll()
      await stopped
      // The caller's signal while it waits: withdrawn.
      const controller = new AbortController()
      const signalled = tm.call('tickets.close', { id: 4 }, { signal: controller.signal })
      await flush()
      controller.abort()
      await signalled
      // The list is full at two: the third is turned away (`busy`, nothing filed, no event, nobody
      // evicted); then the two expire.
      for (const id of [5, 6, 7]) await tm.call('tickets.close', { id }, { caller: 'test' })
      vi.advanceTimersByTime(1_001)
      await flush()

      expect(rows()).toEqual([
        ['pending', undefined, undefined],
        ['approved', 'dialog', 'ok'],
        ['pending', undefined, undefined],
        ['rejected', undefined, 'cancelled operator'],
        ['pending', undefined, undefined],
        ['rejected', undefined, 'cancelled operator'],
        ['pending', undefined, undefined],
        ['withdrawn', undefined, 'cancelled signal'],
        ['pending', undefined, undefined],
        ['pending', undefined, undefined],
        ['expired', undefined, 'refused'],
        ['expired', undefined, 'refused'],
      ])
      // The status is the event's only account of the ending: no coarse stage beside it.
      expect(seen.filter((e) => 'type' in e)).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })

  it('says withdrawn when access goes away, approved by grant for a granted call, and ends each entry once', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    registerClose(tm)
    const { seen, rows } = watch(tm)
    const first = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    await tm.confirmations.approve(first, { grant: { for: 'session' } })
    expect(await tm.call('tickets.close', { id: 2 })).toEqual({ status: 'ok', data: { closed: 2 } })
    for (const grant of tm.confirmations.grants()) tm.confirmations.revokeGrant(grant.id)
    const later = confirmIdOf(await tm.call('tickets.close', { id: 3 }))
    tm.setPolicy({ inapp: { allow: ['readOnly'] } })
    await flush()
    // Answers after the end change nothing and emit nothing.
    await tm.confirmations.approve(later)
    await tm.confirmations.reject(later)

    expect(rows()).toEqual([
      ['pending', undefined, undefined],
      ['approved', 'api', 'ok'],
      ['approved', 'grant', 'ok'],
      ['pending', undefined, undefined],
      ['withdrawn', undefined, 'cancelled policy'],
    ])
    const ends = seen.filter((e) => e.status !== 'pending').map((e) => e.entry.id)
    expect(new Set(ends).size).toBe(ends.length)
  })

  it('carries the status on the entry: pending while listed, how it ended on the final event', async () => {
    const tm = createToolmark()
    registerClose(tm)
    const seen: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => seen.push(e))
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    const listed = tm.confirmations.list()
    expect(listed.map((e) => e.status)).toEqual(['pending'])
    // A refused answer leaves the listed entry as it was, the same object.
    expect(await tm.confirmations.approve(id, { input: { id: 'one' } })).toMatchObject({
      status: 'invalid',
    })
    expect(tm.confirmations.list()[0]).toBe(listed[0])
    await tm.confirmations.reject(id)
    expect(seen.map((e) => [e.status, e.entry.status])).toEqual([
      ['pending', 'pending'],
      ['rejected', 'rejected'],
    ])
    expect(seen[0].entry).toBe(listed[0])
    expect(seen[1].entry).toEqual({ ...listed[0], status: 'rejected' })
    expect(Object.isFrozen(seen[1].entry)).toBe(true)
    expect(listed[0].status).toBe('pending')
  })
})
