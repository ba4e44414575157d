import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import {
  createToolmark,
  ok,
  refuse,
  type Caller,
  type ConfirmationEntry,
  type ErrorEvent,
  type StandardSchemaV1,
  type Toolmark,
  type ToolResult,
} from '../src/index'
import { helpDesk, shownValues as shown } from './fixtures/helpDesk'

afterEach(() => {
  vi.useRealTimers()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('confirmations in queue order', () => {
  for (const caller of ['inapp', 'webmcp'] as Caller[]) {
    for (const delay of [0, 5, 100]) {
      it(`shows a ${caller} submit the values filled before it in the same turn, and runs exactly those (approved after ${delay} ms)`, async () => {
        const tm = createToolmark()
        tm.confirmations.attachPresenter()
        const { created } = helpDesk(tm)
        const entries: ConfirmationEntry[] = []
        tm.events.on('confirm', (event) => {
          if (event.status !== 'pending') return
          entries.push(event.entry)
          setTimeout(() => void tm.confirmations.approve(event.entry.id), delay)
        })
        const outcome = new Promise<ToolResult>((resolve) =>
          tm.events.on('confirm', (event) => {
            if (event.status === 'approved') resolve(event.result!)
          }),
        )
        // One turn: nothing awaited in between.
        const search = tm.call('tickets.search', { q: 'vpn' }, { caller })
        const fill = tm.call(
          'ticket.fill',
          { values: { title: 'VPN keeps dropping', priority: 'high' } },
          { caller },
        )
        const submit = tm.call('ticket.submit', {}, { caller })
        await Promise.all([search, fill, submit])
        const final = await outcome
        expect(entries).toHaveLength(1)
        expect(shown(entries[0])).toEqual({ title: 'VPN keeps dropping', priority: 'high' })
        expect(entries[0].summary).toBe('Create ticket “VPN keeps dropping” (high priority)')
        expect(final).toEqual({ status: 'ok', data: { id: 1 } })
        expect(created).toEqual([shown(entries[0])])
      })
    }
  }

  for (const delay of [0, 5, 100]) {
    it(`refuses stale when a later call changes the form while the person decides (approved after ${delay} ms)`, async () => {
      const tm = createToolmark()
      tm.confirmations.attachPresenter()
      const { created, form } = helpDesk(tm)
      const answers: Promise<ToolResult>[] = []
      const entries: ConfirmationEntry[] = []
      tm.events.on('confirm', (event) => {
        if (event.status !== 'pending') return
        entries.push(event.entry)
        answers.push(sleep(delay).then(() => tm.confirmations.approve(event.entry.id)))
      })
      void tm.call('ticket.fill', { values: { title: 'First' } }, { caller: 'webmcp' })
      const submit = tm.call('ticket.submit', {}, { caller: 'webmcp' })
      // Sent after the submit: it runs while the person decides.
      const second = tm.call('ticket.fill', { values: { title: 'Second' } }, { caller: 'webmcp' })
      const [submitted] = await Promise.all([submit, second])
      expect(shown(entries[0]).title).toBe('First')
      expect(form.values.title).toBe('Second')
      expect(submitted).toMatchObject({ status: 'refused', code: 'stale' })
      expect(await answers[0]).toMatchObject({ status: 'refused', code: 'stale' })
      expect(created).toEqual([])
    })
  }

  it('lists the filled values in the confirmation of a fill + submit sent together, nothing else running', async () => {
    const tm = createToolmark()
    helpDesk(tm)
    const fill = tm.call('ticket.fill', { values: { title: 'Printer jammed', priority: 'low' } })
    const submit = tm.call('ticket.submit', {})
    expect((await fill).status).toBe('ok')
    const asked = await submit
    expect(asked).toMatchObject({
      status: 'needs_confirmation',
      summary: 'Create ticket “Printer jammed” (low priority)',
    })
    const [entry] = tm.confirmations.list()
    expect(shown(entry)).toEqual({ title: 'Printer jammed', priority: 'low' })
  })

  it('frees the slot while the person decides, so later calls of the scope go on', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const order: string[] = []
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close',
      run: () => {
        order.push('close')
        return ok(null)
      },
    })
    tm.register({
      name: 'read',
      description: 'Reads',
      hints: { readOnly: true },
      run: () => {
        order.push('read')
        return ok(null)
      },
    })
    const closing = tm.call('close', {}, { caller: 'mcp' })
    const reading = await tm.call('read', {}, { caller: 'mcp' })
    expect(reading.status).toBe('ok')
    expect(order).toEqual(['read'])
    await tm.confirmations.approve(tm.confirmations.list()[0].id)
    expect(await closing).toEqual({ status: 'ok', data: null })
    expect(order).toEqual(['read', 'close'])
  })

  it('runs an approved call ahead of the calls that have not started', async () => {
    const tm = createToolmark()
    const order: string[] = []
    let release!: () => void
    tm.register({
      name: 'slow',
      description: 'Holds the scope',
      input: z.object({ n: z.number() }),
      run: async ({ n }) => {
        order.push(`slow ${n}`)
        if (n === 0) await new Promise<void>((resolve) => (release = resolve))
        return ok(n)
      },
    })
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close',
      run: () => {
        order.push('close')
        return ok(null)
      },
    })
    const asked = await tm.call('close', {})
    const first = tm.call('slow', { n: 0 })
    await vi.waitFor(() => expect(order).toEqual(['slow 0']))
    const waiting = [tm.call('slow', { n: 1 }), tm.call('slow', { n: 2 })]
    const approved = tm.confirmations.approve((asked as { confirmId: string }).confirmId)
    release()
    await Promise.all([first, ...waiting, approved])
    expect(order).toEqual(['slow 0', 'close', 'slow 1', 'slow 2'])
  })
})

describe('approved means it runs', () => {
  /** A consequential tool in scope `desk` whose run takes a little while, counting runs. */
  function slowDesk(tm: Toolmark) {
    const runs: number[] = []
    const desk = tm.scope('desk')
    tm.register(
      {
        name: 'update',
        description: 'Updates a ticket',
        input: z.object({ id: z.number() }),
        hints: { consequential: true },
        summary: ({ id }) => `Update #${id}`,
        run: async ({ id }) => {
          await sleep(2)
          runs.push(id)
          return ok(id)
        },
      },
      { scope: desk },
    )
    const held: Array<() => void> = []
    tm.register(
      {
        name: 'wait',
        description: 'Holds the scope until released',
        hints: { readOnly: true },
        run: () => new Promise((resolve) => held.push(() => resolve(ok('released')))),
      },
      { scope: desk },
    )
    /** Lets the run holding the slot finish. */
    const releaseOne = () => held.shift()?.()
    return { runs, releaseOne, held }
  }

  it('runs all 50 deferred confirmations of one scope when the person approves all', async () => {
    const tm = createToolmark()
    const { runs } = slowDesk(tm)
    for (let id = 0; id < 50; id++) {
      expect((await tm.call('desk.update', { id })).status).toBe('needs_confirmation')
    }
    const results = await tm.confirmations.approveMany('all', { order: 'together' })
    expect(results.map((r) => r.result.status)).toEqual(Array(50).fill('ok'))
    expect(runs.sort((a, b) => a - b)).toEqual([...Array(50).keys()])
  })

  it('runs them one after another in queue order, the batch default', async () => {
    const tm = createToolmark()
    const { runs } = slowDesk(tm)
    const ids: string[] = []
    for (let id = 0; id < 5; id++) {
      const asked = await tm.call('desk.update', { id })
      ids.push((asked as { confirmId: string }).confirmId)
    }
    // Named in another order: the answers and the runs still follow the queue.
    const answers = await tm.confirmations.approveMany([...ids].reverse())
    expect(answers.map((a) => a.id)).toEqual(ids)
    expect(runs).toEqual([0, 1, 2, 3, 4])
  })

  it('runs all 50 inline confirmations of one scope when the person approves all', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const { runs } = slowDesk(tm)
    const calls = [...Array(50).keys()].map((id) =>
      tm.call('desk.update', { id }, { caller: 'mcp' }),
    )
    await vi.waitFor(() => expect(tm.confirmations.list()).toHaveLength(50))
    const answers = await tm.confirmations.approveMany('all')
    expect(answers.map((a) => a.result.status)).toEqual(Array(50).fill('ok'))
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual(Array(50).fill('ok'))
    expect(runs).toHaveLength(50)
  })

  for (const caller of ['inapp', 'mcp'] as Caller[]) {
    it(`runs an approved ${caller} call in a scope an agent keeps full, where a new call is busy`, async () => {
      const tm = createToolmark()
      tm.confirmations.attachPresenter()
      const { runs, releaseOne, held } = slowDesk(tm)
      const asking = tm.call('desk.update', { id: 7 }, { caller })
      await vi.waitFor(() => expect(tm.confirmations.list()).toHaveLength(1))
      // The slot plus 32 waiting: the queue is full.
      const flood = [...Array(33)].map(() => tm.call('desk.wait', {}, { caller: 'test' }))
      expect(await tm.call('desk.wait', {}, { caller: 'test' })).toMatchObject({
        status: 'refused',
        code: 'busy',
      })
      const answer = tm.confirmations.approve(tm.confirmations.list()[0].id)
      await sleep(5)
      expect(runs).toEqual([])
      releaseOne()
      // Next in line: the approved run, ahead of the 32 calls that have not started.
      expect(await answer).toEqual({ status: 'ok', data: 7 })
      expect(runs).toEqual([7])
      if (caller === 'mcp') expect(await asking).toEqual({ status: 'ok', data: 7 })
      for (let i = 0; i < 32; i++) {
        await vi.waitFor(() => expect(held).toHaveLength(1))
        releaseOne()
      }
      expect((await Promise.all(flood)).map((r) => r.status)).toEqual(Array(33).fill('ok'))
    })
  }
})

/** A Standard Schema whose validation never settles. */
const hanging: StandardSchemaV1<{ id: number }> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: () => new Promise(() => {}),
    jsonSchema: { input: () => ({ type: 'object' }) },
  },
}

describe('bounded validation', () => {
  function hangingTool(tm: Toolmark, extra: { timeoutMs?: number } = {}) {
    const run = vi.fn(() => ok(null))
    tm.register({ name: 'stuck', description: 'Never validates', input: hanging, run, ...extra })
    return run
  }

  it('ends a call whose validator never settles cancelled signal when its signal fires', async () => {
    const tm = createToolmark()
    const run = hangingTool(tm)
    const controller = new AbortController()
    const pending = tm.call('stuck', { id: 1 }, { signal: controller.signal })
    controller.abort()
    expect(await pending).toEqual({ status: 'cancelled', by: 'signal' })
    expect(run).not.toHaveBeenCalled()
  })

  it('ends it cancelled operator on Stop', async () => {
    const tm = createToolmark()
    hangingTool(tm)
    const pending = tm.call('stuck', { id: 1 })
    await sleep(0)
    tm.cancelAll()
    expect(await pending).toEqual({ status: 'cancelled', by: 'operator' })
  })

  it('ends it cancelled policy when the tool’s deadline passes', async () => {
    vi.useFakeTimers()
    const tm = createToolmark()
    hangingTool(tm, { timeoutMs: 50 })
    const results: ToolResult[] = []
    void tm.call('stuck', { id: 1 }).then((r) => results.push(r))
    await vi.advanceTimersByTimeAsync(49)
    expect(results).toEqual([])
    await vi.advanceTimersByTimeAsync(2)
    expect(results).toEqual([{ status: 'cancelled', by: 'policy' }])
  })

  it('ends it cancelled policy when the tool goes away meanwhile', async () => {
    const tm = createToolmark()
    const scope = tm.scope('s')
    tm.register(
      { name: 'stuck', description: 'Never validates', input: hanging, run: () => ok(1) },
      { scope },
    )
    const pending = tm.call('s.stuck', { id: 1 })
    scope.dispose()
    expect(await pending).toEqual({ status: 'cancelled', by: 'policy' })
  })

  it('gives up on an edited approval whose validator never settles, and keeps the entry answerable', async () => {
    vi.useFakeTimers()
    const tm = createToolmark()
    const runs: unknown[] = []
    tm.register({
      name: 'pay',
      description: 'Pays',
      input: z.object({ amount: z.number() }).refine(
        // Edits above 100 are checked by a service that never answers.
        (v) => (v.amount > 100 ? new Promise<boolean>(() => {}) : true) as boolean,
      ),
      hints: { consequential: true },
      summary: ({ amount }) => `Pay ${amount}`,
      timeoutMs: 1_000,
      run: (input) => {
        runs.push(input)
        return ok(input)
      },
    })
    const asked = (await tm.call('pay', { amount: 5 })) as { confirmId: string }
    const edited = tm.confirmations.approve(asked.confirmId, { input: { amount: 500 } })
    let answer: ToolResult | undefined
    void edited.then((r) => (answer = r))
    await vi.advanceTimersByTimeAsync(999)
    expect(answer).toBeUndefined()
    await vi.advanceTimersByTimeAsync(2)
    expect(answer).toEqual({ status: 'cancelled', by: 'policy' })
    expect(tm.confirmations.list().map((e) => e.id)).toEqual([asked.confirmId])
    expect(await tm.confirmations.approve(asked.confirmId)).toEqual({
      status: 'ok',
      data: { amount: 5 },
    })
    expect(runs).toEqual([{ amount: 5 }])
  })
})

describe('results rebuilt per status', () => {
  it('drops a key the status does not have and reports it, never to the caller', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({
      name: 'leaky',
      description: 'Leaks',
      run: () =>
        ({ status: 'error', message: 'Lookup failed', detail: 'password=hunter2' }) as never,
    })
    const result = await tm.call('leaky')
    expect(result).toEqual({ status: 'error', message: 'Lookup failed' })
    expect(Object.keys(result)).toEqual(['status', 'message'])
    expect(Object.isFrozen(result)).toBe(true)
    expect(errors).toEqual([
      expect.objectContaining({ code: 'result_keys_dropped', tool: 'leaky', cause: ['detail'] }),
    ])
  })

  it('rebuilds issues and changes with their own keys only', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({
      name: 'odd',
      description: 'Odd issues',
      run: () =>
        ({
          status: 'invalid',
          issues: [{ path: 'a', message: 'Bad', severity: 'high', hint: 'x' }],
        }) as never,
    })
    expect(await tm.call('odd')).toEqual({
      status: 'invalid',
      issues: [{ path: 'a', message: 'Bad' }],
    })
    expect(errors[0].cause).toEqual(['issues.0.severity', 'issues.0.hint'])
  })

  it('keeps every status’s own keys, optional ones included', async () => {
    const tm = createToolmark()
    const results: ToolResult[] = [
      ok({ a: 1 }),
      refuse('nope', 'No', { rev: 3 }),
      { status: 'cancelled', by: 'operator' },
      {
        status: 'needs_confirmation',
        confirmId: 'x',
        summary: 'S',
        changes: [{ path: 'p', after: 1 }],
      },
    ]
    let i = 0
    tm.register({ name: 'each', description: 'Each', run: () => results[i++] })
    for (const expected of results) expect(await tm.call('each')).toEqual(expected)
  })
})

describe('check: ask only for what can happen', () => {
  function closeTool(tm: Toolmark, tickets: Map<number, string>) {
    const run = vi.fn(({ id }: { id: number }) => {
      tickets.set(id, 'closed')
      return ok({ id })
    })
    const check = vi.fn(({ id }: { id: number }) => {
      if (!tickets.has(id)) return refuse('not_found', `No ticket #${id}`)
      if (tickets.get(id) === 'closed') return refuse('already_closed', `Ticket #${id} is closed`)
      return undefined
    })
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket',
      input: z.object({ id: z.number() }),
      hints: { consequential: true },
      summary: ({ id }) => `Close #${id}`,
      check,
      run,
    })
    return { run, check }
  }

  it('refuses before anyone is asked when the check says the call cannot happen', async () => {
    const tm = createToolmark()
    const { run } = closeTool(tm, new Map([[1, 'open']]))
    const asked = vi.fn()
    tm.events.on('confirm', asked)
    expect(await tm.call('tickets.close', { id: 999 })).toEqual({
      status: 'refused',
      code: 'not_found',
      message: 'No ticket #999',
    })
    expect(asked).not.toHaveBeenCalled()
    expect(tm.confirmations.list()).toEqual([])
    expect(run).not.toHaveBeenCalled()
  })

  it('checks again right before the approved run', async () => {
    const tm = createToolmark()
    const tickets = new Map([[4, 'open']])
    const { run, check } = closeTool(tm, tickets)
    const asked = (await tm.call('tickets.close', { id: 4 })) as { confirmId: string }
    expect(asked).toMatchObject({ status: 'needs_confirmation' })
    tickets.set(4, 'closed') // someone closed it while the person read the dialog
    expect(await tm.confirmations.approve(asked.confirmId)).toMatchObject({
      status: 'refused',
      code: 'already_closed',
    })
    expect(check).toHaveBeenCalledTimes(2)
    expect(run).not.toHaveBeenCalled()
  })

  it('runs the check in the scope’s turn, after the calls sent before it', async () => {
    const tm = createToolmark()
    const tickets = new Map<number, string>()
    closeTool(tm, tickets)
    tm.register({
      name: 'tickets.create',
      description: 'Creates',
      input: z.object({ id: z.number() }),
      run: async ({ id }) => {
        await sleep(10)
        tickets.set(id, 'open')
        return ok({ id })
      },
    })
    const creating = tm.call('tickets.create', { id: 5 })
    const closing = tm.call('tickets.close', { id: 5 }, { caller: 'human' })
    expect(await creating).toEqual({ status: 'ok', data: { id: 5 } })
    expect(await closing).toEqual({ status: 'ok', data: { id: 5 } })
  })

  it('answers Tool failed when the check throws, and reports it', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const run = vi.fn(() => ok(1))
    tm.register({
      name: 'x',
      description: 'X',
      check: () => {
        throw new Error('db down')
      },
      run,
    })
    expect(await tm.call('x')).toEqual({ status: 'error', message: 'Tool failed' })
    expect(errors[0]).toMatchObject({ code: 'tool_threw', tool: 'x' })
    expect(run).not.toHaveBeenCalled()
  })

  it('stops waiting for a check that hangs when the call is stopped, and frees the slot', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'hung',
      description: 'Hung',
      check: () => new Promise<undefined>(() => {}),
      run: () => ok(1),
    })
    tm.register({ name: 'next', description: 'Next', run: () => ok(2) })
    const hung = tm.call('hung')
    const next = tm.call('next')
    await sleep(0)
    tm.cancelAll()
    expect(await hung).toEqual({ status: 'cancelled', by: 'operator' })
    expect(await next).toEqual({ status: 'cancelled', by: 'operator' })
    expect(await tm.call('next')).toEqual({ status: 'ok', data: 2 })
  })
})
