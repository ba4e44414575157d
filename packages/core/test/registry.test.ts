import { createToolmark, ok, type ErrorEvent, type Toolmark } from '../src/index'

const tool = (name: string) => ({ name, description: `The ${name} tool`, run: () => ok(name) })
const names = (tm: Toolmark) => tm.manifest().tools.map((t) => t.name)

describe('register', () => {
  it('returns a handle with the full name whose dispose unregisters, idempotently', async () => {
    const tm = createToolmark()
    const handle = tm.register(tool('tickets.list'))
    expect(handle.name).toBe('tickets.list')
    expect(names(tm)).toEqual(['tickets.list'])
    handle.dispose()
    handle.dispose()
    expect(names(tm)).toEqual([])
    expect(await tm.call('tickets.list', {})).toMatchObject({
      status: 'refused',
      code: 'unknown_tool',
    })
  })

  it('unregisters when its signal aborts', () => {
    const tm = createToolmark()
    const controller = new AbortController()
    tm.register(tool('a'), { signal: controller.signal })
    expect(names(tm)).toEqual(['a'])
    controller.abort()
    expect(names(tm)).toEqual([])
  })

  it('registers nothing when the signal is already aborted', () => {
    const tm = createToolmark()
    const handle = tm.register(tool('a'), { signal: AbortSignal.abort() })
    expect(handle.name).toBe('a')
    expect(names(tm)).toEqual([])
  })

  it('does not dispose a later registration of the same name when an old signal aborts', () => {
    const tm = createToolmark()
    const controller = new AbortController()
    tm.register(tool('a'), { signal: controller.signal }).dispose()
    tm.register(tool('a'))
    controller.abort()
    expect(names(tm)).toEqual(['a'])
  })

  it('throws in development on a definition that is not sound, naming the fix', () => {
    const tm = createToolmark({ dev: true })
    const cases: Array<[unknown, RegExp]> = [
      [null, /takes a tool definition object/],
      [{ name: 'a', run: () => ok(1) }, /needs a description/],
      [{ name: 'a', description: '  ', run: () => ok(1) }, /needs a description/],
      [{ name: 'a', description: 'd' }, /needs a run\(input, ctx\) function/],
      [{ name: 'a', description: 'd', run: () => ok(1), input: {} }, /not a Standard Schema/],
      [
        { name: 'a', description: 'd', run: () => ok(1), output: 'x' },
        /output that is not a Standard Schema/,
      ],
      [
        { name: 'a', description: 'd', run: () => ok(1), hints: { readonly: true } },
        /unknown or non-boolean hint "readonly"/,
      ],
      [
        { name: 'a', description: 'd', run: () => ok(1), hints: { readOnly: 'yes' } },
        /non-boolean hint/,
      ],
      [
        {
          name: 'a',
          description: 'd',
          run: () => ok(1),
          hints: { readOnly: true, destructive: true },
        },
        /cannot be readOnly and consequential\/destructive/,
      ],
      [{ name: 'a', description: 'd', run: () => ok(1), sensitive: 'ssn' }, /sensitive paths/],
      [{ name: 'a', description: 'd', run: () => ok(1), timeoutMs: 0 }, /invalid timeoutMs/],
      [{ name: 'a', description: 'd', run: () => ok(1), timeoutMs: Infinity }, /invalid timeoutMs/],
      [
        { name: 'a', description: 'd', run: () => ok(1), summary: 'Close' },
        /summary that is not a function/,
      ],
      [
        { name: 'a', description: 'd', run: () => ok(1), inputSchema: [] },
        /inputSchema that is not a JSON Schema/,
      ],
      [{ name: 'a', description: 'd', run: () => ok(1), title: 3 }, /title that is not a string/],
    ]
    for (const [def, message] of cases) {
      expect(() => tm.register(def as never)).toThrow(message)
    }
    expect(names(tm)).toEqual([])
  })

  it('throws in development when options are not an object or the scope is foreign', () => {
    const tm = createToolmark({ dev: true })
    const other = createToolmark({ dev: true })
    expect(() => tm.register(tool('a'), 'x' as never)).toThrow(/options must be/)
    expect(() => tm.register(tool('a'), { scope: other.scope('s') })).toThrow(
      /scope that is not from this registry/,
    )
  })

  it('rejects an unsound definition in production with an invalid_tool event and registers nothing', () => {
    const tm = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({ name: 'a', description: '', run: () => ok(1) })
    tm.register(tool('b'), { scope: createToolmark().scope('s') })
    expect(errors.map((e) => e.code)).toEqual(['invalid_tool', 'invalid_tool'])
    expect(names(tm)).toEqual([])
  })
})

describe('revisions', () => {
  it('starts at rev 0 and bumps once for several registrations in one tick', async () => {
    const tm = createToolmark()
    const listener = vi.fn()
    tm.subscribe(listener)
    expect(tm.rev).toBe(0)
    tm.register(tool('a'))
    tm.register(tool('b'))
    tm.register(tool('c')).dispose()
    expect(tm.rev).toBe(1)
    expect(listener).not.toHaveBeenCalled()
    await Promise.resolve()
    expect(listener).toHaveBeenCalledTimes(1)
    expect(listener).toHaveBeenCalledWith(1)
    expect(tm.manifest().rev).toBe(1)
  })

  it('bumps again for a change in a later tick', async () => {
    const tm = createToolmark()
    const listener = vi.fn()
    tm.subscribe(listener)
    tm.register(tool('a'))
    await Promise.resolve()
    tm.register(tool('b'))
    await Promise.resolve()
    expect(listener.mock.calls).toEqual([[1], [2]])
  })

  it('emits a change event with the new rev', async () => {
    const tm = createToolmark()
    const change = vi.fn()
    tm.events.on('change', change)
    tm.register(tool('a'))
    await Promise.resolve()
    expect(change).toHaveBeenCalledWith({ rev: 1 })
  })

  it('stops notifying after unsubscribe, and the same function can subscribe twice', async () => {
    const tm = createToolmark()
    const listener = vi.fn()
    const off1 = tm.subscribe(listener)
    const off2 = tm.subscribe(listener)
    tm.register(tool('a'))
    await Promise.resolve()
    expect(listener).toHaveBeenCalledTimes(2)
    off1()
    tm.register(tool('b'))
    await Promise.resolve()
    expect(listener).toHaveBeenCalledTimes(3)
    off2()
    tm.register(tool('c'))
    await Promise.resolve()
    expect(listener).toHaveBeenCalledTimes(3)
  })

  it('isolates a throwing subscriber: the others run and a listener_threw event is emitted', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const after = vi.fn()
    tm.subscribe(() => {
      throw new Error('bad subscriber')
    })
    tm.subscribe(after)
    tm.register(tool('a'))
    await Promise.resolve()
    expect(after).toHaveBeenCalledWith(1)
    expect(errors.map((e) => e.code)).toEqual(['listener_threw'])
  })

  it('does not bump for a rejected registration', async () => {
    const tm = createToolmark({ dev: false })
    tm.register({ name: '', description: 'd', run: () => ok(1) })
    await Promise.resolve()
    expect(tm.rev).toBe(0)
  })

  it('throws in development when subscribe or events.on get no function', () => {
    const tm = createToolmark({ dev: true })
    expect(() => tm.subscribe('x' as never)).toThrow(/tm.subscribe\(\) takes a function/)
    expect(() => tm.events.on('call', null as never)).toThrow(/takes a function/)
  })
})

describe('clientId', () => {
  it('is random per registry and looks like an unguessable id', () => {
    const a = createToolmark().clientId
    const b = createToolmark().clientId
    expect(a).not.toBe(b)
    expect(a).toMatch(/^page_[0-9a-f]{32}$/)
  })
})

describe('use(consumer)', () => {
  it('hands the registry to the consumer and runs its teardown once on dispose', () => {
    const tm = createToolmark()
    const teardown = vi.fn()
    const consumer = vi.fn(() => teardown)
    const dispose = tm.use(consumer)
    expect(consumer).toHaveBeenCalledWith(tm)
    dispose()
    dispose()
    expect(teardown).toHaveBeenCalledTimes(1)
  })

  it('accepts a consumer that returns nothing', () => {
    const tm = createToolmark()
    const dispose = tm.use(() => {})
    expect(() => dispose()).not.toThrow()
  })

  it('rethrows a throwing consumer in development', () => {
    const tm = createToolmark({ dev: true })
    expect(() =>
      tm.use(() => {
        throw new Error('broken consumer')
      }),
    ).toThrow('broken consumer')
    expect(() => tm.use('x' as never)).toThrow(/tm.use\(\) takes a function/)
  })

  it('reports a throwing consumer or teardown in production as consumer_threw', () => {
    const tm = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.use(() => {
      throw new Error('broken consumer')
    })()
    tm.use(() => () => {
      throw new Error('broken teardown')
    })()
    expect(errors.map((e) => e.code)).toEqual(['consumer_threw', 'consumer_threw'])
  })

  it('lets a consumer watch revisions through subscribe and stop watching on dispose', async () => {
    const tm = createToolmark()
    const seen: number[] = []
    const dispose = tm.use((registry) => registry.subscribe((rev) => seen.push(rev)))
    tm.register(tool('a'))
    await Promise.resolve()
    dispose()
    tm.register(tool('b'))
    await Promise.resolve()
    expect(seen).toEqual([1])
  })
})

describe('cancelAll', () => {
  it('cancels every in-flight agent call as operator, leaving human calls alone', async () => {
    const tm = createToolmark()
    const scopeA = tm.scope('a')
    const scopeB = tm.scope('b')
    const scopeC = tm.scope('c')
    const wait = (name: string) => ({
      name,
      description: 'Waits for its signal',
      run: (_input: unknown, ctx: { signal: AbortSignal }) =>
        new Promise<never>((_, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
        ),
    })
    let finishHuman!: () => void
    tm.register(wait('one'), { scope: scopeA })
    tm.register(wait('two'), { scope: scopeB })
    tm.register(
      {
        name: 'mine',
        description: 'A person’s call',
        run: () => new Promise((resolve) => (finishHuman = () => resolve(ok('done')))),
      },
      { scope: scopeC },
    )
    const one = tm.call('a.one', {}, { caller: 'mcp' })
    const two = tm.call('b.two', {}, { caller: 'inapp' })
    const human = tm.call('c.mine', {}, { caller: 'human' })
    await new Promise((r) => setTimeout(r, 0))
    tm.cancelAll()
    expect(await one).toEqual({ status: 'cancelled', by: 'operator' })
    expect(await two).toEqual({ status: 'cancelled', by: 'operator' })
    finishHuman()
    expect(await human).toEqual({ status: 'ok', data: 'done' })
  })

  it('uses the reason given, and treats an unknown reason as operator', async () => {
    const tm = createToolmark()
    const wait = {
      description: 'Waits',
      run: (_input: unknown, ctx: { signal: AbortSignal }) =>
        new Promise<never>((_, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
        ),
    }
    tm.register({ name: 'x', ...wait }, { scope: tm.scope('x') })
    tm.register({ name: 'y', ...wait }, { scope: tm.scope('y') })
    const x = tm.call('x.x', {})
    await new Promise((r) => setTimeout(r, 0))
    tm.cancelAll({ by: 'policy' })
    expect(await x).toEqual({ status: 'cancelled', by: 'policy' })
    const y = tm.call('y.y', {})
    await new Promise((r) => setTimeout(r, 0))
    tm.cancelAll({ by: 'nonsense' as never })
    expect(await y).toEqual({ status: 'cancelled', by: 'operator' })
  })

  it('does nothing when nothing is in flight', () => {
    const tm = createToolmark()
    expect(() => tm.cancelAll()).not.toThrow()
  })
})
