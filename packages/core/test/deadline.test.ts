import { createToolmark, ok, type ErrorEvent, type ToolResult } from '../src/index'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** A run that stops (rejecting with the signal's reason) as soon as it is aborted. */
const obedient = (_input: unknown, ctx: { signal: AbortSignal }) =>
  new Promise<ToolResult>((_, reject) =>
    ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
  )

describe('deadline', () => {
  it('cancels with policy when the tool’s timeoutMs passes, aborting ctx.signal', async () => {
    const tm = createToolmark()
    let signal!: AbortSignal
    tm.register({
      name: 'slow',
      description: 'Slow',
      timeoutMs: 1_000,
      run: (input, ctx) => {
        signal = ctx.signal
        return obedient(input, ctx)
      },
    })
    const pending = tm.call('slow')
    await vi.advanceTimersByTimeAsync(999)
    expect(signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await pending).toEqual({ status: 'cancelled', by: 'policy' })
    expect(signal.aborted).toBe(true)
    expect((signal.reason as Error).name).toBe('AbortError')
  })

  it('defaults to limits.callTimeoutMs (120 s)', async () => {
    const tm = createToolmark()
    tm.register({ name: 'slow', description: 'Slow', run: obedient })
    let settled: ToolResult | undefined
    void tm.call('slow').then((r) => (settled = r))
    await vi.advanceTimersByTimeAsync(119_999)
    expect(settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(settled).toEqual({ status: 'cancelled', by: 'policy' })
  })

  it('honours a configured limits.callTimeoutMs', async () => {
    const tm = createToolmark({ limits: { callTimeoutMs: 50 } })
    tm.register({ name: 'slow', description: 'Slow', run: obedient })
    const pending = tm.call('slow')
    await vi.advanceTimersByTimeAsync(50)
    expect(await pending).toEqual({ status: 'cancelled', by: 'policy' })
  })

  it('clears its timer when the call finishes in time', async () => {
    const tm = createToolmark()
    tm.register({ name: 'fast', description: 'Fast', timeoutMs: 1_000, run: () => ok(1) })
    expect(await tm.call('fast')).toEqual({ status: 'ok', data: 1 })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('counts time waiting in the scope’s queue', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'hold',
      description: 'Holds the slot for 800 ms',
      run: () => new Promise((resolve) => setTimeout(() => resolve(ok('held')), 800)),
    })
    tm.register({ name: 'next', description: 'Next', timeoutMs: 500, run: obedient })
    const first = tm.call('hold')
    const second = tm.call('next')
    await vi.advanceTimersByTimeAsync(500)
    expect(await second).toEqual({ status: 'cancelled', by: 'policy' })
    await vi.advanceTimersByTimeAsync(300)
    expect(await first).toEqual({ status: 'ok', data: 'held' })
  })

  it('does not count time a person spends deciding inside the run (ctx.confirm)', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    tm.register({
      name: 'ask',
      description: 'Asks first',
      timeoutMs: 1_000,
      run: async (_input, ctx) => {
        const answer = await ctx.confirm({ summary: 'Go on?' })
        if (!answer.approved) return ok('declined')
        await new Promise((resolve) => setTimeout(resolve, 600))
        return ok('done')
      },
    })
    const pending = tm.call('ask')
    await vi.advanceTimersByTimeAsync(5_000)
    const [entry] = tm.confirmations.list()
    expect(entry.summary).toBe('Go on?')
    await tm.confirmations.approve(entry.id)
    await vi.advanceTimersByTimeAsync(600)
    expect(await pending).toEqual({ status: 'ok', data: 'done' })
  })

  it('keeps counting the run’s own time around a ctx.confirm', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    tm.register({
      name: 'ask',
      description: 'Works, asks, works',
      timeoutMs: 1_000,
      run: async (_input, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 700))
        await ctx.confirm({ summary: 'Go on?' })
        return obedient(undefined, ctx)
      },
    })
    const pending = tm.call('ask')
    await vi.advanceTimersByTimeAsync(700)
    await tm.confirmations.approve(tm.confirmations.list()[0].id)
    await vi.advanceTimersByTimeAsync(299)
    let settled: ToolResult | undefined
    void pending.then((r) => (settled = r))
    await vi.advanceTimersByTimeAsync(0)
    expect(settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(settled).toEqual({ status: 'cancelled', by: 'policy' })
  })
})

describe('abort grace', () => {
  it('abandons a run that ignores its aborted signal after abortGraceMs, freeing the queue', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    let settleHung!: (result: ToolResult) => void
    tm.register({
      name: 'hang',
      description: 'Never settles on its own and ignores abort',
      timeoutMs: 1_000,
      run: () => new Promise((resolve) => (settleHung = resolve)),
    })
    const next = vi.fn(() => ok('next ran'))
    tm.register({ name: 'next', description: 'Next in the same scope', run: next })
    const hung = tm.call('hang')
    const queued = tm.call('next')
    await vi.advanceTimersByTimeAsync(1_000)
    // Deadline passed, but the run still holds the slot during the grace period.
    expect(next).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(4_999)
    expect(next).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(await hung).toEqual({ status: 'cancelled', by: 'policy' })
    expect(await queued).toEqual({ status: 'ok', data: 'next ran' })
    expect(errors).toEqual([])
    // The abandoned run settles late: reported, never delivered.
    settleHung(ok('too late'))
    await vi.advanceTimersByTimeAsync(0)
    expect(errors.map((e) => [e.code, e.tool])).toEqual([['late_result', 'hang']])
    expect(errors[0].cause).toEqual(ok('too late'))
  })

  it('honours limits.abortGraceMs after a signal abort', async () => {
    const tm = createToolmark({ limits: { abortGraceMs: 100 } })
    tm.register({ name: 'hang', description: 'Hangs', run: () => new Promise(() => {}) })
    const controller = new AbortController()
    const pending = tm.call('hang', {}, { signal: controller.signal })
    await vi.advanceTimersByTimeAsync(0)
    controller.abort()
    await vi.advanceTimersByTimeAsync(99)
    let settled: ToolResult | undefined
    void pending.then((r) => (settled = r))
    await vi.advanceTimersByTimeAsync(0)
    expect(settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(settled).toEqual({ status: 'cancelled', by: 'signal' })
  })

  it('reports a late rejection as late_result too', async () => {
    const tm = createToolmark({ limits: { abortGraceMs: 10 } })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    let fail!: (e: Error) => void
    tm.register({
      name: 'hang',
      description: 'Hangs',
      timeoutMs: 10,
      run: () => new Promise((_, reject) => (fail = reject)),
    })
    const pending = tm.call('hang')
    await vi.advanceTimersByTimeAsync(20)
    expect(await pending).toEqual({ status: 'cancelled', by: 'policy' })
    const late = new Error('late failure')
    fail(late)
    await vi.advanceTimersByTimeAsync(0)
    expect(errors.map((e) => [e.code, e.cause])).toEqual([['late_result', late]])
  })

  it('leaves no timer behind once an abandoned call is over', async () => {
    const tm = createToolmark({ limits: { abortGraceMs: 10 } })
    tm.register({
      name: 'hang',
      description: 'Hangs',
      timeoutMs: 10,
      run: () => new Promise(() => {}),
    })
    const pending = tm.call('hang')
    await vi.advanceTimersByTimeAsync(20)
    await pending
    expect(vi.getTimerCount()).toBe(0)
  })
})
