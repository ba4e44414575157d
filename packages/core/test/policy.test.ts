import { createToolmark, ok, type Caller, type ErrorEvent, type Toolmark } from '../src/index'

/** One tool per class: readOnly, none, consequential, destructive. */
const registerClasses = (tm: Toolmark) => {
  tm.register({
    name: 'tickets.list',
    description: 'Lists',
    hints: { readOnly: true },
    run: () => ok('list'),
  })
  tm.register({ name: 'tickets.note', description: 'Notes', run: () => ok('note') })
  tm.register({
    name: 'tickets.close',
    description: 'Closes',
    hints: { consequential: true },
    run: () => ok('close'),
  })
  tm.register({
    name: 'tickets.delete',
    description: 'Deletes',
    hints: { destructive: true },
    run: () => ok('delete'),
  })
  tm.register({
    name: 'admin.reset',
    description: 'Resets',
    hints: { readOnly: true },
    run: () => ok('reset'),
  })
}
const visible = (tm: Toolmark, caller: Caller) => tm.manifest({ caller }).tools.map((t) => t.name)

describe('default policy', () => {
  it('shows every class to inapp, test and human', () => {
    const tm = createToolmark()
    registerClasses(tm)
    const all = ['admin.reset', 'tickets.close', 'tickets.delete', 'tickets.list', 'tickets.note']
    expect(visible(tm, 'inapp')).toEqual(all)
    expect(visible(tm, 'test')).toEqual(all)
    expect(visible(tm, 'human')).toEqual(all)
  })

  it('hides destructive tools from webmcp and mcp and keeps consequential ones visible', () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    registerClasses(tm)
    for (const caller of ['webmcp', 'mcp'] as const) {
      expect(visible(tm, caller)).toEqual([
        'admin.reset',
        'tickets.close',
        'tickets.list',
        'tickets.note',
      ])
    }
  })

  it('refuses a destructive call from webmcp or mcp with not_allowed', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    registerClasses(tm)
    for (const caller of ['webmcp', 'mcp'] as const) {
      expect(await tm.call('tickets.delete', {}, { caller })).toMatchObject({
        status: 'refused',
        code: 'not_allowed',
      })
    }
  })

  it('classifies a tool by its strongest hint', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    tm.register({
      name: 'both',
      description: 'Consequential and destructive',
      hints: { consequential: true, destructive: true },
      run: () => ok(1),
    })
    expect(visible(tm, 'mcp')).toEqual([])
  })

  it('lets human call every class without confirmation', async () => {
    const tm = createToolmark()
    registerClasses(tm)
    expect(await tm.call('tickets.delete', {}, { caller: 'human' })).toEqual({
      status: 'ok',
      data: 'delete',
    })
    expect(await tm.call('tickets.close', {}, { caller: 'human' })).toEqual({
      status: 'ok',
      data: 'close',
    })
  })
})

describe('policy rules', () => {
  it('replaces the caller’s default classes with allow', async () => {
    const tm = createToolmark({
      policy: { webmcp: { allow: ['readOnly'] }, inapp: { allow: ['none', 'destructive'] } },
    })
    registerClasses(tm)
    expect(visible(tm, 'webmcp')).toEqual(['admin.reset', 'tickets.list'])
    expect(visible(tm, 'inapp')).toEqual(['tickets.delete', 'tickets.note'])
    expect(await tm.call('tickets.note', {}, { caller: 'webmcp' })).toMatchObject({
      code: 'not_allowed',
    })
  })

  it('can open destructive tools to mcp with allow', () => {
    const tm = createToolmark({
      policy: { mcp: { allow: ['readOnly', 'none', 'consequential', 'destructive'] } },
    })
    tm.confirmations.attachPresenter()
    registerClasses(tm)
    expect(visible(tm, 'mcp')).toContain('tickets.delete')
  })

  it('keeps only tools matching tools.allow, by full name or prefix.*', () => {
    const tm = createToolmark({
      policy: {
        inapp: { tools: { allow: ['tickets.*', 'admin.reset'] } },
        test: { tools: { allow: ['tickets.list'] } },
      },
    })
    registerClasses(tm)
    tm.register({ name: 'ticketsx', description: 'Not under tickets.', run: () => ok(1) })
    expect(visible(tm, 'inapp')).toEqual([
      'admin.reset',
      'tickets.close',
      'tickets.delete',
      'tickets.list',
      'tickets.note',
    ])
    expect(visible(tm, 'test')).toEqual(['tickets.list'])
  })

  it('lets deny win over allow', async () => {
    const tm = createToolmark({
      policy: {
        inapp: { tools: { allow: ['tickets.*'], deny: ['tickets.delete', 'tickets.close'] } },
      },
    })
    registerClasses(tm)
    expect(visible(tm, 'inapp')).toEqual(['tickets.list', 'tickets.note'])
    expect(await tm.call('tickets.delete', {}, { caller: 'inapp' })).toMatchObject({
      code: 'not_allowed',
    })
  })

  it('denies by prefix.* too', () => {
    const tm = createToolmark({ policy: { test: { tools: { deny: ['tickets.*'] } } } })
    registerClasses(tm)
    expect(visible(tm, 'test')).toEqual(['admin.reset'])
  })

  it('combines classes and names: both must allow', () => {
    const tm = createToolmark({
      policy: { test: { allow: ['readOnly'], tools: { allow: ['tickets.*'] } } },
    })
    registerClasses(tm)
    expect(visible(tm, 'test')).toEqual(['tickets.list'])
  })

  it('leaves the other callers on their defaults', () => {
    const tm = createToolmark({ policy: { webmcp: { allow: [] } } })
    registerClasses(tm)
    expect(visible(tm, 'webmcp')).toEqual([])
    expect(visible(tm, 'inapp')).toHaveLength(5)
  })

  it('keeps human fixed whatever the policy says about others', () => {
    const tm = createToolmark({ policy: { inapp: { allow: [] }, test: { allow: [] } } })
    registerClasses(tm)
    expect(visible(tm, 'human')).toHaveLength(5)
  })
})

describe('invalid policy', () => {
  const invalid: Array<[string, unknown, RegExp]> = [
    ['an unknown caller', { robot: {} }, /unknown caller "robot"/],
    ['human', { human: { allow: [] } }, /unknown caller "human".*"human" is fixed/],
    ['a non-object entry', { mcp: 'all' }, /policy.mcp must be an object/],
    ['an unknown key', { mcp: { allowed: ['readOnly'] } }, /unknown key "allowed"/],
    ['an unknown class', { mcp: { allow: ['safe'] } }, /allow must list classes among/],
    ['a bad tools key', { mcp: { tools: { only: [] } } }, /tools has an unknown key "only"/],
    [
      'a bad name pattern',
      { mcp: { tools: { allow: ['tickets*'] } } },
      /full tool names or "prefix.\*" patterns/,
    ],
    ['a bad rate limit', { mcp: { rateLimit: { calls: 0, perMs: 1000 } } }, /rateLimit must be/],
    ['a rate limit without perMs', { mcp: { rateLimit: { calls: 3 } } }, /rateLimit must be/],
    ['a non-object policy', 'strict', /policy must be an object keyed by caller/],
  ]

  for (const [label, policy, message] of invalid) {
    it(`throws in development on ${label}, naming the fix`, () => {
      expect(() => createToolmark({ dev: true, policy: policy as never })).toThrow(message)
    })
  }

  it('leaves that caller with no tools in production and emits invalid_policy once listeners can hear', async () => {
    const tm = createToolmark({
      dev: false,
      policy: { mcp: { allow: ['safe' as never] }, webmcp: { allow: ['readOnly'] } },
    })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    registerClasses(tm)
    await Promise.resolve()
    expect(errors.map((e) => e.code)).toEqual(['invalid_policy'])
    expect(errors[0].message).toContain('policy.mcp.allow')
    expect(visible(tm, 'mcp')).toEqual([])
    expect(await tm.call('tickets.list', {}, { caller: 'mcp' })).toMatchObject({
      code: 'not_allowed',
    })
    // The valid parts still apply.
    expect(visible(tm, 'webmcp')).toEqual(['admin.reset', 'tickets.list'])
    expect(visible(tm, 'inapp')).toHaveLength(5)
  })

  it('leaves every agent caller with no tools in production when the policy is not an object', () => {
    const tm = createToolmark({ dev: false, policy: 'open' as never })
    registerClasses(tm)
    for (const caller of ['inapp', 'webmcp', 'mcp', 'test'] as const)
      expect(visible(tm, caller)).toEqual([])
    expect(visible(tm, 'human')).toHaveLength(5)
  })
})

describe('setPolicy', () => {
  it('replaces the policy and bumps rev once', async () => {
    const tm = createToolmark()
    registerClasses(tm)
    await Promise.resolve()
    const listener = vi.fn()
    tm.subscribe(listener)
    const before = tm.manifest({ caller: 'test' })
    tm.setPolicy({ test: { allow: ['readOnly'] } })
    expect(tm.manifest({ caller: 'test' })).not.toBe(before)
    expect(visible(tm, 'test')).toEqual(['admin.reset', 'tickets.list'])
    await Promise.resolve()
    expect(listener).toHaveBeenCalledTimes(1)
    expect(listener).toHaveBeenCalledWith(2)
  })

  it('throws in development on an invalid policy and emits invalid_policy in production', () => {
    expect(() =>
      createToolmark({ dev: true }).setPolicy({ mcp: { allow: ['x' as never] } }),
    ).toThrow(/allow must list classes/)
    const tm = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    registerClasses(tm)
    tm.setPolicy({ mcp: { allow: ['x' as never] } })
    expect(errors.map((e) => e.code)).toEqual(['invalid_policy'])
    expect(visible(tm, 'mcp')).toEqual([])
  })

  it('withdraws a queued call whose caller lost access, with cancelled policy', async () => {
    const tm = createToolmark()
    let finish!: () => void
    tm.register({
      name: 'hold',
      description: 'Holds',
      run: () => new Promise((r) => (finish = () => r(ok(1)))),
    })
    tm.register({ name: 'write', description: 'Writes', run: () => ok('wrote') })
    const first = tm.call('hold', {}, { caller: 'test' })
    const queued = tm.call('write', {}, { caller: 'test' })
    await new Promise((r) => setTimeout(r, 0))
    tm.setPolicy({ test: { tools: { deny: ['write'] } } })
    expect(await queued).toEqual({ status: 'cancelled', by: 'policy' })
    finish()
    expect(await first).toEqual({ status: 'ok', data: 1 })
  })

  it('withdraws a pending deferred confirmation whose caller lost access', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok(1))
    tm.register({ name: 'close', description: 'Closes', hints: { consequential: true }, run })
    const pending = await tm.call('close', {}, { caller: 'inapp' })
    expect(pending.status).toBe('needs_confirmation')
    tm.setPolicy({ inapp: { allow: ['readOnly'] } })
    await Promise.resolve()
    expect(tm.confirmations.list()).toEqual([])
    expect(run).not.toHaveBeenCalled()
  })
})

describe('policy and limits read own properties only', () => {
  const polluted = <T>(key: string, value: unknown, body: () => T): T => {
    Object.defineProperty(Object.prototype, key, { value, configurable: true, writable: true })
    try {
      return body()
    } finally {
      delete (Object.prototype as Record<string, unknown>)[key]
    }
  }

  it('gives mcp no destructive tool when Object.prototype.mcp says allow all', () => {
    const tm = polluted(
      'mcp',
      { allow: ['destructive', 'consequential', 'readOnly', 'none'] },
      () => createToolmark({ policy: {} }),
    )
    registerClasses(tm)
    tm.confirmations.attachPresenter()
    expect(tm.manifest({ caller: 'mcp' }).tools.map((t) => t.name)).not.toContain('tickets.delete')
  })

  it('ignores a polluted allow on an empty caller entry', () => {
    const tm = polluted('allow', ['destructive'], () => createToolmark({ policy: { webmcp: {} } }))
    registerClasses(tm)
    tm.confirmations.attachPresenter()
    const names = tm.manifest({ caller: 'webmcp' }).tools.map((t) => t.name)
    expect(names).not.toContain('tickets.delete')
    expect(names).toContain('tickets.close')
  })

  it('ignores polluted limits, confirmation modes and dev', () => {
    const tm = polluted('queuePerScope', 1, () =>
      polluted('inapp', 'inline', () => polluted('dev', false, () => createToolmark({}))),
    )
    expect(tm.limits.queuePerScope).toBe(32)
    expect(tm.dev).toBe(true)
  })

  it('answers access from its own cache while Object.prototype names a caller', () => {
    const tm = createToolmark()
    registerClasses(tm)
    const names = () => tm.manifest({ caller: 'inapp' }).tools.map((t) => t.name)
    const before = names()
    expect(before).toContain('tickets.list')
    // A later change drops the cache; answers made while the prototype is polluted stay true.
    tm.register({ name: 'notes.add', description: 'Adds a note', run: () => ok('added') })
    const during = polluted('inapp', 'inline', names)
    expect(during).toEqual([...before, 'notes.add'].sort())
  })

  it('keeps the deferred default for inapp when Object.prototype.inapp says inline', async () => {
    const tm = polluted('inapp', 'inline', () => createToolmark({ confirm: {} }))
    registerClasses(tm)
    expect(await tm.call('tickets.close', {}, { caller: 'inapp' })).toMatchObject({
      status: 'needs_confirmation',
    })
  })
})
