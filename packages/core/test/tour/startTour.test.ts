import { z } from 'zod'
import { addAnchor, createToolmark, ok } from '../../src/index'
import { addAnchorSource } from '../../src/anchors/anchors'
import type { Toolmark } from '../../src/index'
import { currentTour, registerTourTool, startTour } from '../../src/tour'
import type { TourEvent, TourStep } from '../../src/tour'

/** Enough of an element for anchors in node: connected, and containing itself. */
function element(name: string): Element {
  const self = { name, isConnected: true, contains: (other: unknown) => other === self }
  return self as unknown as Element
}

function page() {
  const tm: Toolmark = createToolmark({ dev: true })
  const runs: unknown[] = []
  tm.register({
    name: 'tickets.find',
    description: 'Finds tickets.',
    input: z.object({ query: z.string() }),
    hints: { readOnly: true },
    run: (input) => (runs.push(['find', input]), ok([])),
  })
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket.',
    input: z.object({ id: z.string() }),
    hints: { consequential: true },
    summary: ({ id }) => `Close ${id}`,
    run: (input) => (runs.push(['close', input]), ok({ closed: true })),
  })
  const find = element('find')
  const query = element('query')
  const close = element('close')
  addAnchor(tm, 'tickets.find', undefined, find)
  addAnchor(tm, 'tickets.find', 'query', query)
  addAnchor(tm, 'tickets.close', undefined, close)
  return { tm, runs, find, query, close }
}

const step = (tool: string, extra: Partial<TourStep> = {}): TourStep => ({
  tool,
  title: `About ${tool}`,
  text: 'Some text.',
  ...extra,
})

function record(tour: ReturnType<typeof startTour>) {
  const events: TourEvent[] = []
  tour.on((event) => events.push(event))
  const statuses: string[] = []
  tour.subscribe(() => statuses.push(tour.getSnapshot().status))
  return { events, statuses, types: () => events.map((e) => e.type) }
}

describe('tm.anchor', () => {
  it('finds the newest connected element of a tool or a field, and forgets removed ones', () => {
    const { tm, find, query } = page()
    expect(tm.anchor('tickets.find')).toBe(find)
    expect(tm.anchor('tickets.find', 'query')).toBe(query)
    expect(tm.anchor('tickets.find', 'other')).toBeUndefined()
    const newer = element('newer')
    const remove = addAnchor(tm, 'tickets.find', undefined, newer)
    expect(tm.anchor('tickets.find')).toBe(newer)
    remove()
    remove()
    expect(tm.anchor('tickets.find')).toBe(find)
    ;(find as unknown as { isConnected: boolean }).isConnected = false
    expect(tm.anchor('tickets.find')).toBeUndefined()
  })

  it('survives a source that throws', () => {
    const { tm } = page()
    addAnchorSource(tm, 'tickets.find', {
      element: () => {
        throw new Error('gone')
      },
      locate: () => undefined,
    })
    expect(tm.anchor('tickets.find')).toBeDefined()
  })
})

describe('startTour', () => {
  it('show: points at each anchor in turn, back and next, then done', async () => {
    const { tm, find, close } = page()
    const tour = startTour(tm, {
      mode: 'show',
      steps: [step('tickets.find'), step('tickets.close')],
    })
    const { types } = record(tour)
    expect(tour.getSnapshot()).toMatchObject({ status: 'running', index: 0, anchor: find })
    tour.next()
    expect(tour.getSnapshot()).toMatchObject({ index: 1, anchor: close })
    tour.back()
    expect(tour.getSnapshot().index).toBe(0)
    tour.next()
    tour.next()
    expect(tour.getSnapshot().status).toBe('done')
    await expect(tour.finished).resolves.toEqual({
      status: 'ok',
      data: { completed: 2, skipped: 0 },
    })
    // The first step is heard too: a listener attached in startTour's turn hears it.
    expect(types()).toEqual([
      'step_entered',
      'step_entered',
      'step_entered',
      'step_entered',
      'done',
    ])
    expect(Object.isFrozen(tour.getSnapshot())).toBe(true)
  })

  it('skips a step whose tool or field is unknown (step_invalid) or not on the page (anchor_missing)', async () => {
    const { tm } = page()
    tm.register({ name: 'tickets.hidden', description: 'Not anchored.', run: () => ok(1) })
    const tour = startTour(tm, {
      mode: 'show',
      steps: [
        step('tickets.nope'),
        step('tickets.find', { field: 'nofield' }),
        step('tickets.hidden'),
        step('tickets.find', { field: 'query' }),
      ],
    })
    const events: TourEvent[] = []
    tour.on((e) => events.push(e))
    // The first three were passed over before `on` listened: it still hears them, and the snapshot
    // says where the tour is.
    expect(tour.getSnapshot().index).toBe(3)
    tour.next()
    await expect(tour.finished).resolves.toEqual({
      status: 'ok',
      data: { completed: 1, skipped: 3 },
    })

    const again = startTour(tm, { mode: 'show', pauseMs: 0, steps: [step('tickets.find')] })
    again.stop()
    const listened: TourEvent[] = []
    const third = startTour(tm, {
      mode: 'show',
      goal: 'x',
      planner: () => [
        step('tickets.nope'),
        step('tickets.find', { field: 'nofield' }),
        step('tickets.hidden'),
      ],
    })
    third.on((e) => listened.push(e))
    await third.finished
    expect(listened.map((e) => [e.type, 'reason' in e ? e.reason : undefined])).toEqual([
      ['step_invalid', 'unknown_tool'],
      ['step_invalid', 'unknown_field'],
      ['anchor_missing', undefined],
      ['step_skipped', 'anchor_missing'],
      ['done', undefined],
    ])
  })

  it('refuses more than 50 steps or a text over 2,000 characters, naming it, and runs nothing', async () => {
    const { tm } = page()
    const many = startTour(tm, {
      mode: 'show',
      steps: Array.from({ length: 51 }, () => step('tickets.find')),
    })
    await expect(many.finished).resolves.toEqual({
      status: 'invalid',
      issues: [{ path: 'steps', message: 'At most 50 steps (got 51)' }],
    })
    expect(many.getSnapshot().status).toBe('stopped')
    const long = startTour(tm, {
      mode: 'show',
      steps: [step('tickets.find'), step('tickets.find', { text: 'x'.repeat(2001) })],
    })
    await expect(long.finished).resolves.toEqual({
      status: 'invalid',
      issues: [{ path: 'steps.1.text', message: 'At most 2,000 characters (got 2,001)' }],
    })
    const bad = startTour(tm, { mode: 'fly' as never, steps: [step('tickets.find')] })
    await expect(bad.finished).resolves.toMatchObject({
      status: 'invalid',
      issues: [{ path: 'mode' }],
    })
  })

  it('a tour started while another runs ends the first (stopped)', async () => {
    const { tm } = page()
    const first = startTour(tm, { mode: 'show', steps: [step('tickets.find')] })
    const second = startTour(tm, { mode: 'show', steps: [step('tickets.close')] })
    expect(first.getSnapshot().status).toBe('stopped')
    await expect(first.finished).resolves.toEqual({ status: 'cancelled', by: 'operator' })
    expect(currentTour(tm)).toBe(second)
    expect(second.getSnapshot().status).toBe('running')
  })

  it('guide: a tool step is done when the person calls the tool; next skips a step not done', async () => {
    const { tm } = page()
    const tour = startTour(tm, {
      mode: 'guide',
      steps: [step('tickets.find'), step('tickets.close')],
    })
    const { types } = record(tour)
    expect(tour.getSnapshot().status).toBe('waiting')
    // An agent's call is not the person's.
    await tm.call('tickets.find', { query: 'printer' }, { caller: 'inapp' })
    expect(tour.getSnapshot().index).toBe(0)
    await tm.call('tickets.find', { query: 'printer' }, { caller: 'human' })
    expect(tour.getSnapshot()).toMatchObject({ status: 'waiting', index: 1 })
    tour.next()
    await expect(tour.finished).resolves.toEqual({
      status: 'ok',
      data: { completed: 1, skipped: 1 },
    })
    expect(types()).toEqual(['step_entered', 'step_entered', 'step_skipped', 'done'])
  })

  it('guide: a field step that holds a good value already moves on, else waits', async () => {
    const { tm } = page()
    let good = false
    addAnchorSource(tm, 'tickets.find', {
      element: (param) => (param === 'query' ? element('q') : undefined),
      locate: () => undefined,
      check: (param) =>
        param === 'query' && good ? { done: true } : { done: false, message: 'Type a query.' },
    })
    const waiting = startTour(tm, {
      mode: 'guide',
      steps: [step('tickets.find', { field: 'query' })],
    })
    await Promise.resolve()
    await Promise.resolve()
    // Not done, and nobody has touched it: no message yet.
    expect(waiting.getSnapshot()).toMatchObject({ status: 'waiting', index: 0 })
    expect(waiting.getSnapshot().message).toBeUndefined()
    good = true
    const done = startTour(tm, { mode: 'guide', steps: [step('tickets.find', { field: 'query' })] })
    await expect(done.finished).resolves.toEqual({
      status: 'ok',
      data: { completed: 1, skipped: 0 },
    })
  })

  it('do: calls each tool as caller tour; a consequential one waits in confirming until approved', async () => {
    const { tm, runs } = page()
    const presenter = tm.confirmations.attachPresenter()
    const tour = startTour(tm, {
      mode: 'do',
      pauseMs: 0,
      steps: [
        step('tickets.find', { field: 'query', value: 'printer' }),
        step('tickets.close', { input: { id: 'T-1' } }),
      ],
    })
    const { statuses } = record(tour)
    const calls: string[] = []
    tm.events.on('call', (event) => calls.push(`${event.tool}:${event.caller}`))
    await vi.waitFor(() => expect(tour.getSnapshot().status).toBe('confirming'))
    expect(runs).toEqual([['find', { query: 'printer' }]])
    const [entry] = tm.confirmations.list()
    expect(entry).toMatchObject({ tool: 'tickets.close', caller: 'tour' })
    await tm.confirmations.approve(entry.id)
    await expect(tour.finished).resolves.toEqual({
      status: 'ok',
      data: { completed: 2, skipped: 0 },
    })
    expect(runs).toEqual([
      ['find', { query: 'printer' }],
      ['close', { id: 'T-1' }],
    ])
    expect(calls).toEqual(['tickets.find:tour', 'tickets.close:tour'])
    // The second step's entry is a notified change of step, still running.
    expect(statuses).toEqual(['running', 'confirming', 'running', 'done'])
    presenter()
  })

  it('do: the person denying the step stops the tour; Stop cancels a call under way', async () => {
    const { tm, runs } = page()
    const presenter = tm.confirmations.attachPresenter()
    const tour = startTour(tm, {
      mode: 'do',
      pauseMs: 0,
      steps: [
        step('tickets.close', { input: { id: 'T-1' } }),
        step('tickets.find', { input: { query: 'x' } }),
      ],
    })
    await vi.waitFor(() => expect(tour.getSnapshot().status).toBe('confirming'))
    const [entry] = tm.confirmations.list()
    await tm.confirmations.reject(entry.id, 'Not now')
    await expect(tour.finished).resolves.toEqual({ status: 'cancelled', by: 'operator' })
    expect(tour.getSnapshot().status).toBe('stopped')
    expect(runs).toEqual([])

    const second = startTour(tm, {
      mode: 'do',
      pauseMs: 0,
      steps: [step('tickets.close', { input: { id: 'T-2' } })],
    })
    await vi.waitFor(() => expect(second.getSnapshot().status).toBe('confirming'))
    second.stop()
    await expect(second.finished).resolves.toEqual({ status: 'cancelled', by: 'operator' })
    await vi.waitFor(() => expect(tm.confirmations.list()).toEqual([]))
    expect(runs).toEqual([])
    presenter()
  })

  it('do: a step whose input is refused says why (step_invalid) and the tour goes on', async () => {
    const { tm, runs } = page()
    const tour = startTour(tm, {
      mode: 'do',
      pauseMs: 0,
      steps: [
        step('tickets.find', { input: { query: 3 } }),
        step('tickets.find', { input: { query: 'ok' } }),
      ],
    })
    const { events } = record(tour)
    await expect(tour.finished).resolves.toEqual({
      status: 'ok',
      data: { completed: 1, skipped: 1 },
    })
    expect(events.find((e) => e.type === 'step_invalid')).toMatchObject({
      reason: 'invalid',
      index: 0,
    })
    expect(runs).toEqual([['find', { query: 'ok' }]])
  })
})

describe('tour.start', () => {
  it('lets the in-app agent start a tour, refuses other agents and bad steps', async () => {
    const { tm } = page()
    registerTourTool(tm)
    const started = await tm.call('tour.start', { mode: 'show', steps: [step('tickets.find')] })
    expect(started).toEqual({ status: 'ok', data: { started: true, mode: 'show', steps: 1 } })
    expect(currentTour(tm)?.getSnapshot().status).toBe('running')
    const bad = await tm.call('tour.start', {
      mode: 'show',
      steps: [step('tickets.find', { title: 7 as never })],
    })
    expect(bad).toMatchObject({ status: 'invalid' })
    const browser = await tm.call(
      'tour.start',
      { mode: 'show', steps: [step('tickets.find')] },
      { caller: 'webmcp' },
    )
    expect(browser).toMatchObject({ status: 'refused', code: 'tour_not_offered' })
  })

  it('plans from a goal with the planner, which reads the in-app manifest', async () => {
    const { tm } = page()
    const planner = vi.fn((goal: string, manifest: { tools: { name: string }[] }) => [
      step(manifest.tools.find((t) => t.name === 'tickets.find')!.name, { text: goal }),
    ])
    registerTourTool(tm, { planner })
    const started = await tm.call('tour.start', { mode: 'show', goal: 'find a ticket' })
    // Planned before the answer, so it says how many steps the tour has.
    expect(started).toEqual({ status: 'ok', data: { started: true, mode: 'show', steps: 1 } })
    expect(currentTour(tm)?.getSnapshot().step?.text).toBe('find a ticket')
    const failing = createToolmark({ dev: true })
    const errors: string[] = []
    failing.events.on('error', (event) => errors.push(event.code))
    registerTourTool(failing, {
      planner: () => {
        throw new Error('no model')
      },
    })
    await expect(failing.call('tour.start', { mode: 'show', goal: 'x' })).resolves.toMatchObject({
      status: 'invalid',
      issues: [{ path: 'goal' }],
    })
    expect(errors).toEqual(['tour_planner_failed'])
  })
})
