import { createToolmark, ok, type ToolResult } from '../src/index'

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A tool whose runs wait until the test lets each one go, in order. */
const gated = () => {
  const gates: Array<() => void> = []
  const log: string[] = []
  const run = (input: unknown) => {
    const label = String((input as { label?: string } | undefined)?.label ?? '')
    log.push(`start ${label}`)
    return new Promise<ToolResult>((resolve) =>
      gates.push(() => {
        log.push(`end ${label}`)
        resolve(ok(label))
      }),
    )
  }
  return { gates, log, run }
}

/** Of two gated calls `1` and `2` in one scope, only the first has started: the second starts once it ends. */
async function expectOneAfterTheOther(
  first: Promise<ToolResult>,
  second: Promise<ToolResult>,
  gates: Array<() => void>,
  log: string[],
) {
  expect(log).toEqual(['start 1'])
  gates[0]()
  expect(await first).toEqual({ status: 'ok', data: '1' })
  await tick()
  expect(log).toEqual(['start 1', 'end 1', 'start 2'])
  gates[1]()
  expect(await second).toEqual({ status: 'ok', data: '2' })
}

const labelInput = {
  '~standard': {
    version: 1 as const,
    vendor: 'test',
    validate: (value: unknown) => ({ value: value as { label: string } }),
  },
}

describe('per-scope queue', () => {
  it('frees the slot of a run whose result throws when its then is read, so the next call runs', async () => {
    const tm = createToolmark({ dev: false })
    tm.register({
      name: 'hostile',
      description: 'Returns an object whose then getter throws',
      run: () =>
        Object.defineProperty({}, 'then', {
          get() {
            throw new Error('boom')
          },
        }) as never,
    })
    tm.register({ name: 'next', description: 'Runs after', run: () => ok('ran') })

    expect(await tm.call('hostile')).toEqual({ status: 'error', message: 'Tool failed' })
    expect(await tm.call('next')).toEqual({ status: 'ok', data: 'ran' })
  })

  it('runs two calls in one scope one after the other', async () => {
    const tm = createToolmark()
    const { gates, log, run } = gated()
    const scope = tm.scope('tickets')
    tm.register({ name: 'a', description: 'A', input: labelInput, inputSchema: {}, run }, { scope })
    tm.register({ name: 'b', description: 'B', input: labelInput, inputSchema: {}, run }, { scope })
    const first = tm.call('tickets.a', { label: '1' })
    const second = tm.call('tickets.b', { label: '2' })
    await tick()
    await expectOneAfterTheOther(first, second, gates, log)
  })

  it('runs calls in two scopes in parallel', async () => {
    const tm = createToolmark()
    const { gates, log, run } = gated()
    tm.register(
      { name: 'a', description: 'A', input: labelInput, inputSchema: {}, run },
      { scope: tm.scope('one') },
    )
    tm.register(
      { name: 'a', description: 'A', input: labelInput, inputSchema: {}, run },
      { scope: tm.scope('two') },
    )
    const first = tm.call('one.a', { label: '1' })
    const second = tm.call('two.a', { label: '2' })
    await tick()
    expect(log).toEqual(['start 1', 'start 2'])
    gates[1]()
    gates[0]()
    expect(await Promise.all([first, second])).toEqual([
      { status: 'ok', data: '1' },
      { status: 'ok', data: '2' },
    ])
  })

  it('keeps the order calls arrived in', async () => {
    const tm = createToolmark()
    const { gates, log, run } = gated()
    tm.register({ name: 'a', description: 'A', input: labelInput, inputSchema: {}, run })
    const calls = ['1', '2', '3', '4'].map((label) => tm.call('a', { label }))
    for (let i = 0; i < 4; i++) {
      await tick()
      gates[i]()
    }
    await Promise.all(calls)
    expect(log.filter((l) => l.startsWith('start'))).toEqual([
      'start 1',
      'start 2',
      'start 3',
      'start 4',
    ])
  })

  it('refuses the 33rd queued call with busy while 32 wait behind a running one', async () => {
    const tm = createToolmark()
    const { gates, run } = gated()
    tm.register({ name: 'a', description: 'A', input: labelInput, inputSchema: {}, run })
    const running = tm.call('a', { label: 'running' })
    await tick()
    const waiting = Array.from({ length: 32 }, (_, i) => tm.call('a', { label: `w${i}` }))
    await tick()
    const refused = await tm.call('a', { label: 'one too many' })
    expect(refused).toMatchObject({ status: 'refused', code: 'busy' })
    expect((refused as { message: string }).message).toContain('32 calls are already waiting')
    // Everything accepted still runs.
    gates[0]()
    for (let i = 1; i <= 32; i++) {
      await tick()
      gates[i]()
    }
    const results = await Promise.all([running, ...waiting])
    expect(results.every((r) => r.status === 'ok')).toBe(true)
    // With the line empty again, calls are accepted.
    const again = tm.call('a', { label: 'again' })
    await tick()
    gates[33]()
    expect(await again).toEqual({ status: 'ok', data: 'again' })
  })

  it('honours limits.queuePerScope', async () => {
    const tm = createToolmark({ limits: { queuePerScope: 1 } })
    const { gates, run } = gated()
    tm.register({ name: 'a', description: 'A', input: labelInput, inputSchema: {}, run })
    const first = tm.call('a', { label: '1' })
    await tick()
    const second = tm.call('a', { label: '2' })
    await tick()
    expect(await tm.call('a', { label: '3' })).toMatchObject({ code: 'busy' })
    gates[0]()
    await tick()
    gates[1]()
    await Promise.all([first, second])
  })

  it('lets a queued call leave the line when its signal aborts, and the rest move up', async () => {
    const tm = createToolmark()
    const { gates, log, run } = gated()
    tm.register({ name: 'a', description: 'A', input: labelInput, inputSchema: {}, run })
    const controller = new AbortController()
    const first = tm.call('a', { label: '1' })
    const second = tm.call('a', { label: '2' }, { signal: controller.signal })
    const third = tm.call('a', { label: '3' })
    await tick()
    controller.abort()
    expect(await second).toEqual({ status: 'cancelled', by: 'signal' })
    gates[0]()
    await first
    await tick()
    expect(log).toEqual(['start 1', 'end 1', 'start 3'])
    gates[1]()
    expect(await third).toEqual({ status: 'ok', data: '3' })
  })

  it('frees the slot when a run throws, so the next call runs', async () => {
    const tm = createToolmark()
    let calls = 0
    tm.register({
      name: 'flaky',
      description: 'Throws once',
      run: async () => {
        calls++
        if (calls === 1) throw new Error('first call fails')
        return ok('second works')
      },
    })
    const [a, b] = await Promise.all([tm.call('flaky'), tm.call('flaky')])
    expect(a).toEqual({ status: 'error', message: 'Tool failed' })
    expect(b).toEqual({ status: 'ok', data: 'second works' })
  })

  it('does not count refused calls against the line', async () => {
    const tm = createToolmark({ limits: { queuePerScope: 1 } })
    tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    for (let i = 0; i < 5; i++) await tm.call('missing')
    expect(await tm.call('a')).toEqual({ status: 'ok', data: 1 })
  })

  it('starts a run into a free scope one microtask after tm.call, never inside it', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok('ran'))
    tm.register({ name: 'a', description: 'A', run })
    const pending = tm.call('a', {})
    expect(run).not.toHaveBeenCalled()
    await Promise.resolve()
    expect(run).toHaveBeenCalledTimes(1)
    expect(await pending).toEqual({ status: 'ok', data: 'ran' })
  })

  it('cancels a call stopped between tm.call and its turn without running it', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok('ran'))
    tm.register({ name: 'a', description: 'A', run })
    const pending = tm.call('a', {})
    tm.cancelAll()
    expect(await pending).toEqual({ status: 'cancelled', by: 'operator' })
    expect(run).not.toHaveBeenCalled()
    expect(await tm.call('a', {})).toEqual({ status: 'ok', data: 'ran' })
  })

  it('makes a call that finds the slot held by a call of the same tick wait its turn', async () => {
    const tm = createToolmark()
    const { gates, log, run } = gated()
    tm.register({ name: 'a', description: 'A', input: labelInput, inputSchema: {}, run })
    const first = tm.call('a', { label: '1' })
    const second = tm.call('a', { label: '2' })
    await Promise.resolve()
    await expectOneAfterTheOther(first, second, gates, log)
  })
})

// Between tm.call and its hop a call has not run yet: Stop and withdrawal still reach it.
describe('a call waiting for its hop', () => {
  /** A registry with tools `names` sharing one run that counts its calls. */
  const withTools = (...names: string[]) => {
    const tm = createToolmark()
    const run = vi.fn(() => ok('ran'))
    const handles = names.map((name) => tm.register({ name, description: name, run }))
    return { tm, run, handles }
  }

  it('ends cancelled policy when its tool goes away before the hop, without running', async () => {
    const { tm, run, handles } = withTools('a')
    const pending = tm.call('a', {})
    handles[0].dispose()
    expect(await pending).toEqual({ status: 'cancelled', by: 'policy' })
    expect(run).not.toHaveBeenCalled()
  })

  it('ends cancelled policy when the policy stops allowing it before the hop', async () => {
    const { tm, run } = withTools('a')
    const pending = tm.call('a', {})
    tm.setPolicy({ inapp: { tools: { deny: ['a'] } } })
    expect(await pending).toEqual({ status: 'cancelled', by: 'policy' })
    expect(run).not.toHaveBeenCalled()
  })

  it('hears the first of two Stops', async () => {
    const { tm, run } = withTools('a')
    const pending = tm.call('a', {})
    tm.cancelAll({ by: 'signal' })
    tm.cancelAll({ by: 'operator' })
    expect(await pending).toEqual({ status: 'cancelled', by: 'signal' })
    expect(run).not.toHaveBeenCalled()
  })

  it('does not hear a Stop that came before it was sent', async () => {
    const { tm, run } = withTools('a', 'b')
    const before = tm.call('a', {})
    tm.cancelAll()
    const after = tm.call('b', {})
    tm.setPolicy({ inapp: { tools: { deny: ['a'] } } })
    const last = tm.call('a', {})
    expect(await before).toEqual({ status: 'cancelled', by: 'operator' })
    expect(await after).toEqual({ status: 'ok', data: 'ran' })
    expect(await last).toMatchObject({ status: 'refused', code: 'not_allowed' })
    expect(run).toHaveBeenCalledTimes(1)
    // A later call runs untouched.
    expect(await tm.call('b', {})).toEqual({ status: 'ok', data: 'ran' })
  })

  it('hears a Stop that came after a withdrawal that spared it', async () => {
    const { tm, run } = withTools('a', 'b')
    const pending = tm.call('a', {})
    // A revision that leaves "a" allowed, then Stop: the call hears both, in order.
    tm.setPolicy({ inapp: { tools: { deny: ['b'] } } })
    tm.cancelAll({ by: 'signal' })
    expect(await pending).toEqual({ status: 'cancelled', by: 'signal' })
    expect(run).not.toHaveBeenCalled()
  })

  it('ends cancelled policy when its tool goes away before the hop, even after a Stop that spared a person’s call', async () => {
    const { tm, run, handles } = withTools('a')
    const human = tm.call('a', {}, { caller: 'human' })
    tm.cancelAll()
    handles[0].dispose()
    expect(await human).toEqual({ status: 'cancelled', by: 'policy' })
    expect(run).not.toHaveBeenCalled()
  })

  it('leaves a person’s own call alone on Stop', async () => {
    const { tm } = withTools('a')
    const pending = tm.call('a', {}, { caller: 'human' })
    tm.cancelAll()
    expect(await pending).toEqual({ status: 'ok', data: 'ran' })
  })

  it('is reached by Stop once its run goes on, and its run sees the signal', async () => {
    const tm = createToolmark()
    let seen: AbortSignal | undefined
    tm.register({
      name: 'slow',
      description: 'Slow',
      run: (_input, ctx) =>
        new Promise<ToolResult>((_resolve, reject) => {
          seen = ctx.signal
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))
        }),
    })
    const pending = tm.call('slow', {})
    await tick()
    tm.cancelAll()
    expect(await pending).toEqual({ status: 'cancelled', by: 'operator' })
    expect(seen?.aborted).toBe(true)
  })

  it('is reached by Stop from inside its own synchronous run once it reads ctx.signal', async () => {
    const tm = createToolmark()
    let abortedInside: boolean | undefined
    tm.register({
      name: 'stopper',
      description: 'Stops everything',
      run: (_input, ctx) => {
        const { signal } = ctx
        tm.cancelAll()
        abortedInside = signal.aborted
        return ok('done')
      },
    })
    // A synchronous run keeps its result (nothing interrupted it); its signal still fired.
    expect(await tm.call('stopper', {})).toEqual({ status: 'ok', data: 'done' })
    expect(abortedInside).toBe(true)
  })

  it('never reads a call option twice, whatever the outcome', async () => {
    const { tm } = withTools('a')
    const reads: string[] = []
    const options = (caller: string) => ({
      get caller() {
        reads.push('caller')
        return caller
      },
      get signal() {
        reads.push('signal')
        return undefined
      },
      get rev() {
        reads.push('rev')
        return undefined
      },
    })
    const outcomes = [
      await tm.call('a', {}, options('inapp') as never),
      await tm.call('missing', {}, options('inapp') as never),
      await tm.call('a', {}, options('robot') as never),
    ]
    expect(outcomes.map((r) => ('code' in r ? r.code : r.status))).toEqual([
      'ok',
      'unknown_tool',
      'not_allowed',
    ])
    // Each call reads the caller first and nothing more than once.
    const perCall = reads.join(' ').split(/ (?=caller)/)
    expect(perCall).toHaveLength(3)
    for (const one of perCall) {
      const names = one.split(' ')
      expect(names[0]).toBe('caller')
      expect(new Set(names).size).toBe(names.length)
    }
  })

  it('answers Tool failed when reading an option throws, and runs nothing', async () => {
    const errors: unknown[] = []
    const { tm, run } = withTools('a')
    tm.events.on('error', (e) => errors.push(e.code))
    const options = {
      get caller(): never {
        throw new Error('no')
      },
    }
    expect(await tm.call('a', {}, options as never)).toEqual({
      status: 'error',
      message: 'Tool failed',
    })
    expect(errors).toEqual(['internal_error'])
    expect(run).not.toHaveBeenCalled()
  })
})
