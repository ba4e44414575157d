import { z } from 'zod'
import { addAnchor, createToolmark, grants, ok } from '../../src/index'
import type { ConfirmationEntry, Policy, Toolmark, ToolmarkOptions } from '../../src/index'
import { webauthnVerifier } from '../../src/passkey'
import { registerTourTool, startTour } from '../../src/tour'
import type { TourEvent, TourStep } from '../../src/tour'

/** Enough of an element for anchors in node: connected, and containing itself. */
function element(name: string): Element {
  const self = { name, isConnected: true, contains: (other: unknown) => other === self }
  return self as unknown as Element
}

const step = (tool: string, extra: Partial<TourStep> = {}): TourStep => ({
  tool,
  title: `About ${tool}`,
  text: 'Some text.',
  input: {},
  ...extra,
})

/** A page with an admin flag (no hints), a payment (consequential) and a search (read-only). */
function page(options: ToolmarkOptions = {}) {
  const tm: Toolmark = createToolmark({ dev: true, ...options })
  const runs: string[] = []
  tm.register({
    name: 'admin.setFlag',
    description: 'Sets a feature flag.',
    run: () => (runs.push('setFlag'), ok({ set: true })),
  })
  tm.register({
    name: 'billing.pay',
    description: 'Pays an invoice.',
    input: z.object({ invoice: z.string().optional() }),
    hints: { consequential: true },
    summary: () => 'Pay the invoice',
    run: () => (runs.push('pay'), ok({ paid: true })),
  })
  tm.register({
    name: 'tickets.find',
    description: 'Finds tickets.',
    hints: { readOnly: true },
    run: () => (runs.push('find'), ok([])),
  })
  for (const name of ['admin.setFlag', 'billing.pay', 'tickets.find']) {
    addAnchor(tm, name, undefined, element(name))
  }
  tm.confirmations.attachPresenter()
  return { tm, runs }
}

/** The entries the person is asked about, as they arrive. */
function asked(tm: Toolmark): ConfirmationEntry[] {
  const entries: ConfirmationEntry[] = []
  tm.events.on('confirm', (event) => {
    if (event.status === 'pending') entries.push(event.entry)
  })
  return entries
}

describe('a do tour acts for the caller that started it', () => {
  it("refuses a step the starter's policy denies, though policy.tour allows it", async () => {
    const { tm, runs } = page({ policy: { inapp: { tools: { deny: ['admin.*'] } } } })
    const tour = startTour(tm, { mode: 'do', pauseMs: 0, steps: [step('admin.setFlag')] })
    const events: TourEvent[] = []
    tour.on((event) => events.push(event))
    await tour.finished
    expect(runs).toEqual([])
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'step_invalid', reason: 'refused' }),
    )
  })

  it('the tour.start tool passes its caller on: a denied tool does not run through a tour', async () => {
    const { tm, runs } = page({ policy: { inapp: { tools: { deny: ['admin.*'] } } } })
    registerTourTool(tm)
    const started = await tm.call('tour.start', { mode: 'do', steps: [step('admin.setFlag')] })
    expect(started.status).toBe('ok')
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(runs).toEqual([])
    // The same tool is denied to the assistant directly.
    expect(await tm.call('admin.setFlag', {}, { caller: 'inapp' })).toMatchObject({
      status: 'refused',
    })
  })

  it("a step is refused when policy.tour denies it, though the starter's allows it", async () => {
    const { tm, runs } = page({ policy: { tour: { tools: { deny: ['admin.*'] } } } })
    const tour = startTour(tm, { mode: 'do', pauseMs: 0, steps: [step('admin.setFlag')] })
    await tour.finished
    expect(runs).toEqual([])
  })

  it("the starter's class rules hold: a webmcp tour cannot reach what webmcp cannot", async () => {
    const { tm, runs } = page({ policy: { webmcp: { allow: ['readOnly'] } } })
    const tour = startTour(tm, {
      mode: 'do',
      pauseMs: 0,
      startedBy: 'webmcp',
      steps: [step('admin.setFlag'), step('tickets.find')],
    })
    await tour.finished
    expect(runs).toEqual(['find'])
  })

  it("counts each step against the starter's rate limit", async () => {
    const { tm, runs } = page({
      policy: { inapp: { rateLimit: { calls: 1, perMs: 60_000 } } },
    })
    expect((await tm.call('tickets.find', {}, { caller: 'inapp' })).status).toBe('ok')
    const tour = startTour(tm, { mode: 'do', pauseMs: 0, steps: [step('tickets.find')] })
    const events: TourEvent[] = []
    tour.on((event) => events.push(event))
    await tour.finished
    expect(runs).toEqual(['find'])
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'step_invalid', reason: 'refused' }),
    )
  })

  it('an invalid starter ends the tour invalid before anything runs', async () => {
    const { tm, runs } = page()
    const tour = startTour(tm, {
      mode: 'do',
      pauseMs: 0,
      startedBy: 'human' as never,
      steps: [step('tickets.find')],
    })
    expect(await tour.finished).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'startedBy' }],
    })
    expect(runs).toEqual([])
  })

  it("a plain caller 'tour' call acts for inapp and meets inapp's policy", async () => {
    const { tm, runs } = page({ policy: { inapp: { tools: { deny: ['admin.*'] } } } })
    expect(await tm.call('admin.setFlag', {}, { caller: 'tour' })).toMatchObject({
      status: 'refused',
    })
    expect(tm.manifest({ caller: 'tour' }).tools.map((t) => t.name)).not.toContain('admin.setFlag')
    expect(runs).toEqual([])
  })
})

describe("the starter's verify reaches tour steps", () => {
  it('a step of a tool the starter must verify asks the verifier; a plain approve does not run it', async () => {
    let asks = 0
    const { tm, runs } = page({
      policy: { inapp: { verify: ['consequential'] } },
      confirm: {
        verifier: webauthnVerifier(async () => {
          asks++
          return undefined
        }),
      },
    })
    const entries = asked(tm)
    const tour = startTour(tm, { mode: 'do', pauseMs: 0, steps: [step('billing.pay')] })
    await vi.waitFor(() => expect(entries).toHaveLength(1))
    expect(entries[0].verify).toBe(true)
    const answer = await tm.confirmations.approve(entries[0].id)
    expect(answer).toMatchObject({ status: 'refused', code: 'verification_failed' })
    expect(asks).toBe(1)
    expect(runs).toEqual([])
    tour.stop()
  })

  it('without a verifier the step is refused rather than asked without one', async () => {
    const { tm, runs } = page({ policy: { inapp: { verify: ['consequential'] } } })
    const tour = startTour(tm, { mode: 'do', pauseMs: 0, steps: [step('billing.pay')] })
    await tour.finished
    expect(runs).toEqual([])
    expect(tm.confirmations.list()).toHaveLength(0)
  })

  it("an in-run ctx.confirm inside a tour step is verified when the starter's policy says so", async () => {
    let asks = 0
    const { tm, runs } = page({
      policy: { inapp: { verify: ['consequential'] } },
      confirm: {
        verifier: webauthnVerifier(async () => {
          asks++
          return undefined
        }),
      },
    })
    tm.register({
      name: 'billing.refund',
      description: 'Refunds an invoice after asking.',
      hints: { consequential: true },
      summary: () => 'Refund',
      run: async (_input, ctx) => {
        const answer = await ctx.confirm({ summary: 'Refund 100 EUR?' })
        runs.push(answer.approved ? 'refunded' : 'kept')
        return ok({ refunded: answer.approved })
      },
    })
    addAnchor(tm, 'billing.refund', undefined, element('refund'))
    const entries = asked(tm)
    const tour = startTour(tm, { mode: 'do', pauseMs: 0, steps: [step('billing.refund')] })
    await vi.waitFor(() => expect(entries).toHaveLength(1))
    expect(entries[0].verify).toBe(true)
    await tm.confirmations.approve(entries[0].id)
    expect(asks).toBe(1)
    expect(runs).toEqual([])
    tour.stop()
  })
})

describe("grants on a tour's steps", () => {
  it("a grant given on a tour step covers only that starter's later tour steps", async () => {
    const { tm, runs } = page({ confirm: { grants: grants() } })
    const entries = asked(tm)
    const first = startTour(tm, { mode: 'do', pauseMs: 0, steps: [step('billing.pay')] })
    await vi.waitFor(() => expect(entries).toHaveLength(1))
    await tm.confirmations.approve(entries[0].id, { grant: { for: 'session' } })
    await first.finished
    expect(runs).toEqual(['pay'])
    expect(tm.confirmations.grants()).toMatchObject([
      { tool: 'billing.pay', caller: 'tour', actingFor: 'inapp' },
    ])

    // The same starter's next tour runs the step without asking.
    await startTour(tm, { mode: 'do', pauseMs: 0, steps: [step('billing.pay')] }).finished
    expect(runs).toEqual(['pay', 'pay'])
    expect(entries).toHaveLength(1)

    // A tour for another caller, and the starter itself outside a tour, are asked again.
    const other = startTour(tm, {
      mode: 'do',
      pauseMs: 0,
      startedBy: 'test',
      steps: [step('billing.pay')],
    })
    await vi.waitFor(() => expect(entries).toHaveLength(2))
    other.stop()
    const direct = tm.call('billing.pay', {}, { caller: 'inapp' })
    expect(await direct).toMatchObject({ status: 'needs_confirmation' })
    expect(runs).toEqual(['pay', 'pay'])
  })

  it('policy[starter].grants: false holds for its tours: the grant is refused and the entry stays', async () => {
    const { tm, runs } = page({
      confirm: { grants: grants() },
      policy: { inapp: { grants: false } },
    })
    const entries = asked(tm)
    const tour = startTour(tm, { mode: 'do', pauseMs: 0, steps: [step('billing.pay')] })
    await vi.waitFor(() => expect(entries).toHaveLength(1))
    expect(entries[0].grantable).toBeUndefined()
    const answer = await tm.confirmations.approve(entries[0].id, { grant: { for: 'session' } })
    expect(answer).toMatchObject({ status: 'refused', code: 'grant_not_allowed' })
    expect(runs).toEqual([])
    expect(tm.confirmations.get(entries[0].id)).toBeDefined()
    tour.stop()
  })

  it("a tour's grants end with its starter's session", async () => {
    const { tm } = page({ confirm: { grants: grants() } })
    const entries = asked(tm)
    const tour = startTour(tm, { mode: 'do', pauseMs: 0, steps: [step('billing.pay')] })
    await vi.waitFor(() => expect(entries).toHaveLength(1))
    await tm.confirmations.approve(entries[0].id, { grant: { for: 'session' } })
    await tour.finished
    expect(tm.confirmations.grants()).toHaveLength(1)
    const { endGrantsOf } = await import('../../src/confirmations/endGrants')
    endGrantsOf(tm, 'inapp')
    expect(tm.confirmations.grants()).toHaveLength(0)
  })
})

describe('a tour tells what happened from the start', () => {
  it('a listener attached right after startTour hears the first step', () => {
    const { tm } = page()
    const tour = startTour(tm, { mode: 'show', steps: [step('tickets.find')] })
    const events: TourEvent[] = []
    tour.on((event) => events.push(event))
    expect(events.map((e) => e.type)).toEqual(['step_entered'])
    tour.stop()
  })

  it('an over-long step list ends invalid, and a listener attached after still hears it', async () => {
    const { tm } = page()
    const steps = Array.from({ length: 51 }, () => step('tickets.find'))
    const tour = startTour(tm, { mode: 'show', steps })
    const events: TourEvent[] = []
    tour.on((event) => events.push(event))
    expect(events).toEqual([{ type: 'stopped', index: -1 }])
    expect((await tour.finished).status).toBe('invalid')
  })

  it('a missing anchor and a skipped step are heard too, once, and not by later listeners', async () => {
    const { tm } = page()
    tm.register({ name: 'tickets.hidden', description: 'Not on the page.', run: () => ok(1) })
    const tour = startTour(tm, {
      mode: 'show',
      steps: [step('tickets.hidden'), step('tickets.find')],
    })
    const events: TourEvent[] = []
    tour.on((event) => events.push(event))
    expect(events.map((e) => e.type)).toEqual(['anchor_missing', 'step_skipped', 'step_entered'])
    await Promise.resolve()
    const later: TourEvent[] = []
    tour.on((event) => later.push(event))
    expect(later).toEqual([])
    tour.stop()
    expect(later).toEqual([{ type: 'stopped', index: 1 }])
  })
})

describe('policy names only known callers', () => {
  it.each(['inapp', 'webmcp', 'mcp', 'test', 'tour'] satisfies (keyof Policy)[])(
    'accepts a policy for %s',
    (caller) => {
      expect(() =>
        createToolmark({ dev: true, policy: { [caller]: { allow: ['readOnly'] } } }),
      ).not.toThrow()
    },
  )
})
