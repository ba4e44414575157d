import { z } from 'zod'
import {
  createToolmark,
  grants,
  ok,
  questions,
  type ConfirmEvent,
  type ErrorEvent,
  type Toolmark,
  type ToolResult,
} from '../src/index'
import { createActivityStore } from '../src/observers'
import { webauthnVerifier } from '../src/passkey'

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

/** A consequential tool that records every run with how it was approved. */
const registerClose = (
  tm: Toolmark,
  name = 'tickets.close',
  extra: Record<string, unknown> = {},
) => {
  const runs: Array<{ id: number; by: string | undefined; caller: string }> = []
  const handle = tm.register({
    name,
    title: 'Close ticket',
    description: 'Closes a ticket',
    input: z.object({ id: z.number(), note: z.string().optional(), pin: z.string().optional() }),
    hints: { consequential: true },
    sensitive: ['pin'],
    summary: (input) => `Close ticket #${input.id}`,
    run: (input, ctx) => {
      runs.push({ id: input.id, by: ctx.approval?.by, caller: ctx.caller })
      return ok({ closed: input.id })
    },
    ...extra,
  })
  return Object.assign(runs, { handle })
}

const confirmIdOf = (result: ToolResult) => {
  expect(result.status).toBe('needs_confirmation')
  return (result as { confirmId: string }).confirmId
}

describe('grants', () => {
  it('lets later calls of the same tool by the same caller run without asking, by grant', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    const runs = registerClose(tm)
    const events: ConfirmEvent[] = []
    tm.events.on('confirm', (event) => events.push(event))

    const first = confirmIdOf(await tm.call('tickets.close', { id: 3 }))
    const approved = await tm.confirmations.approve(first, { grant: { for: 'session' } })
    expect(approved).toEqual({ status: 'ok', data: { closed: 3 } })
    const [grant] = tm.confirmations.grants()
    expect(grant).toEqual({
      id: expect.stringMatching(/^gr_/),
      tool: 'tickets.close',
      title: 'Close ticket',
      caller: 'inapp',
      pins: [],
      createdAt: expect.any(Number),
      uses: 0,
    })
    expect(events.at(-1)).toMatchObject({ status: 'approved', by: 'api', grant: grant.id })

    const later = await tm.call('tickets.close', { id: 9 })
    expect(later).toEqual({ status: 'ok', data: { closed: 9 } })
    expect(tm.confirmations.list()).toEqual([])
    expect(runs.map((r) => [r.id, r.by, r.caller])).toEqual([
      [3, 'api', 'human'],
      [9, 'grant', 'inapp'],
    ])
    const byGrant = events.at(-1)!
    expect(byGrant).toMatchObject({
      status: 'approved',
      by: 'grant',
      grant: grant.id,
      result: { status: 'ok', data: { closed: 9 } },
      entry: {
        tool: 'tickets.close',
        caller: 'inapp',
        summary: 'Close ticket #9',
        input: { id: 9 },
        status: 'approved',
      },
    })
    // Nobody was asked: no request for the granted call.
    expect(events.filter((e) => e.status === 'pending')).toHaveLength(1)
    expect(tm.confirmations.grants()[0].uses).toBe(1)
  })

  it('never covers another tool, another caller or other pinned values', async () => {
    const tm = createToolmark({ confirm: { grants: grants(), test: 'deferred' } })
    registerClose(tm)
    registerClose(tm, 'tickets.reopen')
    const first = confirmIdOf(await tm.call('tickets.close', { id: 3 }))
    await tm.confirmations.approve(first, { grant: { for: 'session', pins: ['id'] } })
    expect(tm.confirmations.grants()[0].pins).toEqual([{ path: 'id', value: 3 }])

    expect((await tm.call('tickets.reopen', { id: 3 })).status).toBe('needs_confirmation')
    expect((await tm.call('tickets.close', { id: 3 }, { caller: 'test' })).status).toBe(
      'needs_confirmation',
    )
    expect((await tm.call('tickets.close', { id: 5 })).status).toBe('needs_confirmation')
    // The pinned value is the same: covered, whatever else differs.
    expect(await tm.call('tickets.close', { id: 3, note: 'again' })).toEqual({
      status: 'ok',
      data: { closed: 3 },
    })
    expect(
      tm.confirmations.list().map((e) => [e.tool, e.caller, (e.input as { id: number }).id]),
    ).toEqual([
      ['tickets.reopen', 'inapp', 3],
      ['tickets.close', 'test', 3],
      ['tickets.close', 'inapp', 5],
    ])
  })

  it('compares pinned objects canonically, and an absent value pins absence', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    const runs: unknown[] = []
    tm.register({
      name: 'move',
      description: 'Moves a ticket',
      input: z.object({
        to: z.object({ team: z.string(), queue: z.string() }).optional(),
        id: z.number(),
      }),
      hints: { consequential: true },
      summary: () => 'Move',
      run: (input) => {
        runs.push(input)
        return ok(null)
      },
    })
    const first = confirmIdOf(await tm.call('move', { id: 1, to: { team: 'a', queue: 'b' } }))
    await tm.confirmations.approve(first, { grant: { for: 'session', pins: ['to'] } })
    expect((await tm.call('move', { id: 2, to: { queue: 'b', team: 'a' } })).status).toBe('ok')
    expect((await tm.call('move', { id: 3, to: { queue: 'c', team: 'a' } })).status).toBe(
      'needs_confirmation',
    )
    expect((await tm.call('move', { id: 4 })).status).toBe('needs_confirmation')

    const second = confirmIdOf(await tm.call('move', { id: 5 }))
    await tm.confirmations.approve(second, { grant: { for: 'session', pins: ['to.team'] } })
    expect((await tm.call('move', { id: 6 })).status).toBe('ok')
    expect((await tm.call('move', { id: 7, to: { team: 'a', queue: 'b' } })).status).toBe('ok')
  })

  it('redacts pinned values of sensitive paths in the list', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    registerClose(tm)
    const first = confirmIdOf(await tm.call('tickets.close', { id: 3, pin: '1234' }))
    await tm.confirmations.approve(first, { grant: { for: 'session', pins: ['pin', 'id'] } })
    expect(tm.confirmations.grants()[0].pins).toEqual([
      { path: 'id', value: 3 },
      { path: 'pin', value: '[redacted]' },
    ])
    // The value itself is still what is compared.
    expect((await tm.call('tickets.close', { id: 3, pin: '1234' })).status).toBe('ok')
    expect((await tm.call('tickets.close', { id: 3, pin: '9999' })).status).toBe(
      'needs_confirmation',
    )
  })

  it('refuses a grant for a destructive tool with grant_not_allowed, and the entry stays pending', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    registerClose(tm, 'tickets.delete', { hints: { destructive: true } })
    const id = confirmIdOf(await tm.call('tickets.delete', { id: 3 }))
    expect(tm.confirmations.get(id)?.grantable).toBeUndefined()
    const refused = await tm.confirmations.approve(id, { grant: { for: 'session' } })
    expect(refused).toEqual({
      status: 'refused',
      code: 'grant_not_allowed',
      message: '"tickets.delete" is destructive: each call asks',
    })
    expect(Object.isFrozen(refused)).toBe(true)
    expect(tm.confirmations.get(id)).toBeDefined()
    expect(tm.confirmations.grants()).toEqual([])
    // The person can still approve this one call.
    expect(await tm.confirmations.approve(id)).toEqual({ status: 'ok', data: { closed: 3 } })
    expect((await tm.call('tickets.delete', { id: 4 })).status).toBe('needs_confirmation')
  })

  it('refuses a grant for a tool whose approvals need verification, before the verifier is asked', async () => {
    const verifier = vi.fn(async () => undefined)
    const tm = createToolmark({
      confirm: { grants: grants(), verifier: webauthnVerifier(verifier) },
    })
    registerClose(tm, 'tickets.close', { verify: true })
    const id = confirmIdOf(await tm.call('tickets.close', { id: 3 }))
    expect(tm.confirmations.get(id)?.grantable).toBeUndefined()
    const refused = await tm.confirmations.approve(id, { grant: { for: 'session' } })
    expect(refused).toMatchObject({ status: 'refused', code: 'grant_not_allowed' })
    expect(verifier).not.toHaveBeenCalled()
    expect(tm.confirmations.get(id)).toBeDefined()
  })

  it('refuses a grant for a tool verified by the caller policy', async () => {
    const tm = createToolmark({
      confirm: { verifier: webauthnVerifier(async () => undefined) },
      policy: { inapp: { verify: ['consequential'] } },
    })
    registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 3 }))
    expect(await tm.confirmations.approve(id, { grant: { for: 'session' } })).toMatchObject({
      code: 'grant_not_allowed',
    })
  })

  it("narrows by the tool's grant: false and by policy[caller].grants", async () => {
    const tm = createToolmark({
      confirm: { test: 'deferred', grants: grants() },
      policy: { test: { grants: ['tickets.close'] }, inapp: { grants: false } },
    })
    registerClose(tm)
    registerClose(tm, 'tickets.reopen')
    registerClose(tm, 'tickets.assign', { grant: false })
    const inapp = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    expect(await tm.confirmations.approve(inapp, { grant: { for: 'session' } })).toEqual({
      status: 'refused',
      code: 'grant_not_allowed',
      message: 'Policy does not let inapp be granted "tickets.close": each call asks',
    })
    const reopen = confirmIdOf(await tm.call('tickets.reopen', { id: 1 }, { caller: 'test' }))
    expect(tm.confirmations.get(reopen)?.grantable).toBeUndefined()
    expect(await tm.confirmations.approve(reopen, { grant: { for: 'session' } })).toMatchObject({
      code: 'grant_not_allowed',
    })
    const assign = confirmIdOf(await tm.call('tickets.assign', { id: 1 }, { caller: 'test' }))
    expect(await tm.confirmations.approve(assign, { grant: { for: 'session' } })).toMatchObject({
      code: 'grant_not_allowed',
      message: '"tickets.assign" does not allow grants: each call asks',
    })
    const close = confirmIdOf(await tm.call('tickets.close', { id: 1 }, { caller: 'test' }))
    expect(tm.confirmations.get(close)?.grantable).toBe(true)
    expect(await tm.confirmations.approve(close, { grant: { for: 'session' } })).toMatchObject({
      status: 'ok',
    })
    expect(tm.confirmations.list().map((e) => e.tool)).toEqual([
      'tickets.close',
      'tickets.reopen',
      'tickets.assign',
    ])
  })

  it('answers malformed grant options invalid, naming the option, and keeps the entry', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 3 }))
    const bad = [
      [null, 'grant'],
      [{ for: 'forever' }, 'grant.for'],
      [{ for: { ms: -5 } }, 'grant.for'],
      [{ for: { ms: Infinity } }, 'grant.for'],
      [{ for: 'session', pins: 'id' }, 'grant.pins'],
      [{ for: 'session', pins: [7] }, 'grant.pins.0'],
      [{ for: 'session', pins: ['id', 'nope'] }, 'grant.pins.1'],
      [{ for: 'session', pins: ['__proto__'] }, 'grant.pins.0'],
      [{ for: 'session', pins: ['id.constructor'] }, 'grant.pins.0'],
      [{ for: 'session', pins: [''] }, 'grant.pins.0'],
    ] as const
    for (const [grant, path] of bad) {
      const result = await tm.confirmations.approve(id, { grant: grant as never })
      expect(result).toEqual({ status: 'invalid', issues: [{ path, message: expect.any(String) }] })
    }
    expect(tm.confirmations.get(id)).toBeDefined()
    expect(tm.confirmations.grants()).toEqual([])
    expect(
      await tm.confirmations.approve(id, { grant: { for: { ms: 60_000 }, pins: ['id'] } }),
    ).toEqual({
      status: 'ok',
      data: { closed: 3 },
    })
  })

  it('makes no grant when the edited input is invalid, and pins the edited values when valid', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    const runs = registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 3 }))
    const grant = { for: 'session' as const, pins: ['id'] }
    expect(await tm.confirmations.approve(id, { input: { id: 'x' }, grant })).toMatchObject({
      status: 'invalid',
    })
    expect(tm.confirmations.grants()).toEqual([])
    expect(tm.confirmations.get(id)).toBeDefined()
    expect(await tm.confirmations.approve(id, { input: { id: 4 }, grant })).toEqual({
      status: 'ok',
      data: { closed: 4 },
    })
    expect(tm.confirmations.grants()[0].pins).toEqual([{ path: 'id', value: 4 }])
    expect((await tm.call('tickets.close', { id: 3 })).status).toBe('needs_confirmation')
    expect((await tm.call('tickets.close', { id: 4 })).status).toBe('ok')
    expect(runs.map((r) => r.id)).toEqual([4, 4])
  })

  it('ends a timed grant when its time is up, and lists it no more', async () => {
    vi.useFakeTimers()
    try {
      const tm = createToolmark({ confirm: { grants: grants() } })
      const runs = registerClose(tm)
      const listener = vi.fn()
      tm.confirmations.subscribe(listener)
      const id = confirmIdOf(await tm.call('tickets.close', { id: 3 }))
      await tm.confirmations.approve(id, { grant: { for: { ms: 60_000 } } })
      const [grant] = tm.confirmations.grants()
      expect(grant.expiresAt! - grant.createdAt).toBe(60_000)
      vi.advanceTimersByTime(59_000)
      expect((await tm.call('tickets.close', { id: 4 })).status).toBe('ok')
      listener.mockClear()
      vi.advanceTimersByTime(1_000)
      expect(tm.confirmations.grants()).toEqual([])
      expect(listener).toHaveBeenCalled()
      expect((await tm.call('tickets.close', { id: 5 })).status).toBe('needs_confirmation')
      expect(runs.map((r) => r.id)).toEqual([3, 4])
    } finally {
      vi.useRealTimers()
    }
  })

  it('checks expiry against the clock when a call comes, even before the timer fires', async () => {
    let now = 1_000_000
    vi.spyOn(Date, 'now').mockImplementation(() => now)
    try {
      const tm = createToolmark({ confirm: { grants: grants() } })
      registerClose(tm)
      const id = confirmIdOf(await tm.call('tickets.close', { id: 3 }))
      await tm.confirmations.approve(id, { grant: { for: { ms: 1_000 } } })
      now += 1_000
      expect((await tm.call('tickets.close', { id: 4 })).status).toBe('needs_confirmation')
      expect(tm.confirmations.grants()).toEqual([])
    } finally {
      vi.restoreAllMocks()
    }
  })

  it('revoking covers no later call, and a call running under the grant finishes', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const runs: number[] = []
    tm.register({
      name: 'slow',
      description: 'Slow consequential tool',
      input: z.object({ id: z.number() }),
      hints: { consequential: true },
      summary: ({ id }) => `Slow ${id}`,
      run: async ({ id }, ctx) => {
        if (id === 2) await gate
        runs.push(id)
        return ok({ id, aborted: ctx.signal.aborted })
      },
    })
    const id = confirmIdOf(await tm.call('slow', { id: 1 }))
    await tm.confirmations.approve(id, { grant: { for: 'session' } })
    const [grant] = tm.confirmations.grants()
    const running = tm.call('slow', { id: 2 })
    await flush()
    expect(tm.confirmations.revokeGrant(grant.id)).toBe(true)
    expect(tm.confirmations.revokeGrant(grant.id)).toBe(false)
    expect(tm.confirmations.revokeGrant(42 as never)).toBe(false)
    release()
    expect(await running).toEqual({ status: 'ok', data: { id: 2, aborted: false } })
    expect((await tm.call('slow', { id: 3 })).status).toBe('needs_confirmation')
    expect(runs).toEqual([1, 2])
    expect(tm.confirmations.grants()).toEqual([])
  })

  it('grants nothing when the approved request went stale, or was stopped before it ran', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    let changed = false
    const runs = registerClose(tm, 'tickets.close', {
      confirmation: () => ({ isStale: () => changed }),
    })
    // Stale: what the person saw changed, so the approval runs nothing and grants nothing.
    const stale = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    changed = true
    expect(await tm.confirmations.approve(stale, { grant: { for: 'session' } })).toMatchObject({
      status: 'refused',
      code: 'stale',
    })
    expect(tm.confirmations.grants()).toEqual([])
    changed = false
    expect((await tm.call('tickets.close', { id: 2 })).status).toBe('needs_confirmation')

    // Stopped after the approval, while it waited for its turn: it never ran, no grant stays.
    tm.confirmations.attachPresenter()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    tm.register({
      name: 'tickets.export',
      description: 'Exports tickets, slowly',
      run: async () => {
        await gate
        return ok('exported')
      },
    })
    const stop = new AbortController()
    const closing = tm.call('tickets.close', { id: 3 }, { caller: 'mcp', signal: stop.signal })
    await flush()
    const exporting = tm.call('tickets.export', {}, { caller: 'mcp' })
    await flush()
    const asked = tm.confirmations
      .list()
      .find((e) => e.input && (e.input as { id: number }).id === 3)!
    const approving = tm.confirmations.approve(asked.id, { grant: { for: 'session' } })
    await flush()
    stop.abort()
    release()
    expect(await closing).toMatchObject({ status: 'cancelled' })
    await approving
    expect(await exporting).toEqual({ status: 'ok', data: 'exported' })
    expect(tm.confirmations.grants()).toEqual([])
    expect(runs.length).toBe(0)
  })

  it('runs two calls arriving at once under one grant, both counted', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    const runs = registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    await tm.confirmations.approve(id, { grant: { for: 'session' } })
    const [a, b] = await Promise.all([
      tm.call('tickets.close', { id: 2 }),
      tm.call('tickets.close', { id: 3 }),
    ])
    expect([a, b]).toEqual([
      { status: 'ok', data: { closed: 2 } },
      { status: 'ok', data: { closed: 3 } },
    ])
    expect(runs.map((r) => r.id)).toEqual([1, 2, 3])
    expect(tm.confirmations.grants()[0].uses).toBe(2)
  })

  it('needs grants(): until then a grant is refused grant_not_allowed naming it, the entry stays and nothing is covered', async () => {
    const tm = createToolmark()
    const runs = registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    // Not grantable: the registry makes no grants, so a dialog offers none.
    expect(tm.confirmations.get(id)?.grantable).toBeUndefined()
    const refused = await tm.confirmations.approve(id, { grant: { for: 'session' } })
    expect(refused).toMatchObject({ status: 'refused', code: 'grant_not_allowed' })
    expect((refused as { message: string }).message).toMatch(/confirm: \{ grants: grants\(\) \}/)
    expect(tm.confirmations.get(id)).toBeDefined()
    expect(runs).toHaveLength(0)
    expect(tm.confirmations.grants()).toEqual([])
    expect(tm.confirmations.revokeGrant('gr_unknown')).toBe(false)
  })

  it('without grants(), a grant for a destructive tool is refused as making no grants: the ceilings come with the grant list', async () => {
    const tm = createToolmark()
    registerClose(tm, 'tickets.delete', { hints: { destructive: true } })
    const id = confirmIdOf(await tm.call('tickets.delete', { id: 1 }))
    const refused = await tm.confirmations.approve(id, { grant: { for: 'session' } })
    expect(refused).toMatchObject({ status: 'refused', code: 'grant_not_allowed' })
    expect((refused as { message: string }).message).toMatch(/makes no grants/)
    expect(tm.confirmations.get(id)).toBeDefined()
  })

  it('takes grants only from grants(): anything else throws in development and is invalid_options in production', async () => {
    expect(() => createToolmark({ confirm: { grants: { kind: 'grants' } as never } })).toThrow(
      /confirm\.grants must come from grants\(\) of @toolmark\/core/,
    )
    expect(() => createToolmark({ confirm: { grants: questions() as never } })).toThrow(
      /confirm\.grants must come from grants\(\)/,
    )
    const tm = createToolmark({ dev: false, confirm: { grants: (() => {}) as never } })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    await Promise.resolve()
    expect(errors.map((e) => e.code)).toEqual(['invalid_options'])
    // Fail closed: no grants.
    registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    expect(tm.confirmations.get(id)?.grantable).toBeUndefined()
    // One feature object serves any number of registries, each with its own list.
    const shared = grants()
    const a = createToolmark({ confirm: { grants: shared } })
    const b = createToolmark({ confirm: { grants: shared } })
    registerClose(a)
    registerClose(b)
    await a.confirmations.approve(confirmIdOf(await a.call('tickets.close', { id: 1 })), {
      grant: { for: 'session' },
    })
    expect(a.confirmations.grants()).toHaveLength(1)
    expect(b.confirmations.grants()).toHaveLength(0)
  })

  it('makes one grant when the same approval is sent twice, and when two approvals grant the same', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    const grant = { grant: { for: 'session' as const } }
    const [first, second] = await Promise.all([
      tm.confirmations.approve(id, grant),
      tm.confirmations.approve(id, grant),
    ])
    expect(first.status).toBe('ok')
    expect(second).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
    expect(tm.confirmations.grants()).toHaveLength(1)

    // Two entries pending at once, both approved with the same grant: still one grant.
    const tm2 = createToolmark({ confirm: { grants: grants() } })
    registerClose(tm2)
    const x = confirmIdOf(await tm2.call('tickets.close', { id: 1 }))
    const y = confirmIdOf(await tm2.call('tickets.close', { id: 2 }))
    await tm2.confirmations.approve(x, { grant: { for: { ms: 1_000 } } })
    await tm2.confirmations.approve(y, { grant: { for: 'session' } })
    const given = tm2.confirmations.grants()
    expect(given).toHaveLength(1)
    // The longer lifetime wins.
    expect(given[0].expiresAt).toBeUndefined()
  })

  it('dies with its tool: a tool registered again under the name is not covered', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    const runs = registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    await tm.confirmations.approve(id, { grant: { for: 'session' } })
    runs.handle.dispose()
    expect(tm.confirmations.grants()).toEqual([])
    registerClose(tm)
    expect((await tm.call('tickets.close', { id: 2 })).status).toBe('needs_confirmation')
  })

  it('ends when a policy change puts the tool above the ceilings', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    registerClose(tm)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    await tm.confirmations.approve(id, { grant: { for: 'session' } })
    tm.setPolicy({ inapp: { grants: false } })
    // Covered no more at once, before the revision is even announced.
    expect((await tm.call('tickets.close', { id: 2 })).status).toBe('needs_confirmation')
    await flush()
    expect(tm.confirmations.grants()).toEqual([])
  })

  it('covers inline callers too: a browser agent waits for nobody once granted', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    const runs = registerClose(tm)
    tm.confirmations.attachPresenter()
    const first = tm.call('tickets.close', { id: 1 }, { caller: 'webmcp' })
    await flush()
    const [entry] = tm.confirmations.list()
    expect(entry).toMatchObject({ mode: 'inline', grantable: true })
    await tm.confirmations.approve(entry.id, { grant: { for: 'session' }, by: 'dialog' })
    expect(await first).toEqual({ status: 'ok', data: { closed: 1 } })
    expect(await tm.call('tickets.close', { id: 2 }, { caller: 'webmcp' })).toEqual({
      status: 'ok',
      data: { closed: 2 },
    })
    expect(runs.map((r) => [r.id, r.by, r.caller])).toEqual([
      [1, 'dialog', 'webmcp'],
      [2, 'grant', 'webmcp'],
    ])
  })

  it('shows the granted call in the activity log as approved by grant', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    registerClose(tm)
    const store = createActivityStore(tm, 10)
    const off = store.subscribe(() => {})
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    await tm.confirmations.approve(id, { grant: { for: 'session' } })
    await tm.call('tickets.close', { id: 9 })
    const [latest] = store.getSnapshot()
    expect(latest).toMatchObject({
      tool: 'tickets.close',
      caller: 'inapp',
      status: 'ok',
      confirmation: 'approved',
      approvedBy: 'grant',
      result: { status: 'ok', data: { closed: 9 } },
    })
    off()
  })

  it('notifies subscribers on grant changes and keeps each snapshot until one', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    registerClose(tm)
    const listener = vi.fn()
    tm.confirmations.subscribe(listener)
    const id = confirmIdOf(await tm.call('tickets.close', { id: 1 }))
    const entries = tm.confirmations.list()
    expect(tm.confirmations.grants()).toBe(tm.confirmations.grants())
    listener.mockClear()
    await tm.confirmations.approve(id, { grant: { for: 'session' } })
    expect(listener).toHaveBeenCalled()
    const before = tm.confirmations.grants()
    expect(tm.confirmations.grants()).toBe(before)
    await tm.call('tickets.close', { id: 2 })
    const after = tm.confirmations.grants()
    expect(after).not.toBe(before)
    expect(after[0].uses).toBe(1)
    expect(Object.isFrozen(after) && Object.isFrozen(after[0])).toBe(true)
    expect(entries).not.toBe(tm.confirmations.list())
  })

  it('refuses a grant on a question asked from inside a run', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    tm.confirmations.attachPresenter()
    let answer: unknown
    tm.register({
      name: 'ask',
      description: 'Asks a person',
      run: async (_input, ctx) => {
        answer = await ctx.confirm({ summary: 'Go on?' })
        return ok(null)
      },
    })
    const running = tm.call('ask', {})
    await flush()
    const [entry] = tm.confirmations.list()
    expect(entry.grantable).toBeUndefined()
    expect(await tm.confirmations.approve(entry.id, { grant: { for: 'session' } })).toMatchObject({
      code: 'grant_not_allowed',
    })
    await tm.confirmations.approve(entry.id)
    await running
    expect(answer).toEqual({ approved: true })
  })

  it('rejects a policy whose grants is neither a boolean nor name patterns', () => {
    expect(() => createToolmark({ policy: { inapp: { grants: 'yes' as never } } })).toThrow(
      /policy\.inapp\.grants must be a boolean or a list/,
    )
    expect(() =>
      createToolmark({ dev: true }).register({
        name: 'x',
        description: 'x',
        grant: 'no' as never,
        run: () => ok(null),
      }),
    ).toThrow(/has a grant that is not a boolean/)
  })
})
