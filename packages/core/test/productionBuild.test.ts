import { z } from 'zod'
import { createToolmark, ok, type ErrorEvent, type Toolmark } from '../src/index'

// A production build is one where `process.env.NODE_ENV` reads 'production' (bundlers write the
// literal in): misconfigurations keep their codes and fail closed, with short messages instead of
// the development texts that name the fix.

beforeEach(() => {
  vi.stubEnv('NODE_ENV', 'production')
})
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

const listen = (tm: Toolmark) => {
  const errors: ErrorEvent[] = []
  tm.events.on('error', (e) => errors.push(e))
  return errors
}

const tool = (name: string, extra: object = {}) => ({
  name,
  description: 'A tool',
  run: () => ok(1),
  ...extra,
})

describe('a production build', () => {
  it('defaults to production mode', () => {
    expect(createToolmark().dev).toBe(false)
  })

  const badOptions: Array<[string, unknown, string[]]> = [
    ['options that are not an object', 'fast', ['options']],
    ['an unknown option', { polcy: {} }, ['unknown option: polcy']],
    ['a non-boolean dev', { dev: 'yes' }, ['dev']],
    ['a jsonSchema that is not a function', { jsonSchema: {} }, ['jsonSchema']],
    ['a confirm that is not an object', { confirm: 'inline' }, ['confirm']],
    [
      'confirm for webmcp',
      { confirm: { webmcp: 'deferred' } },
      ['confirm mode: webmcp, "deferred"'],
    ],
    ['limits that are not an object', { limits: 5 }, ['limits']],
    [
      'an unknown limit',
      { limits: { queue: 3, toString: 1 } },
      ['unknown limit: queue', 'unknown limit: toString'],
    ],
    ['a negative limit', { limits: { queuePerScope: -1 } }, ['limit: queuePerScope']],
  ]
  for (const [label, options, messages] of badOptions) {
    it(`reports ${label} as invalid_options with a short message`, async () => {
      const tm = createToolmark(options as never)
      const errors = listen(tm)
      await Promise.resolve()
      expect(errors).toEqual(messages.map((message) => ({ code: 'invalid_options', message })))
      expect(tm.limits.queuePerScope).toBe(32)
    })
  }

  const badPolicies: Array<[string, unknown, string]> = [
    ['a policy that is not an object', 'open', 'policy'],
    ['an unknown caller', { robot: {} }, 'unknown caller: robot'],
    ['an entry that is not an object', { webmcp: [] }, 'policy entry: webmcp'],
    ['an unknown key', { webmcp: { alow: [] } }, 'policy key: webmcp, alow'],
    ['an unknown class', { webmcp: { allow: ['safe'] } }, 'policy allow: webmcp'],
    ['tools that are not an object', { webmcp: { tools: [] } }, 'policy tools: webmcp'],
    ['an unknown tools key', { webmcp: { tools: { only: [] } } }, 'policy tools key: webmcp, only'],
    [
      'a bad name pattern',
      { webmcp: { tools: { allow: ['a b'] } } },
      'policy names: webmcp, allow',
    ],
    [
      'a bad rate limit',
      { webmcp: { rateLimit: { calls: 0, perMs: 1 } } },
      'policy rateLimit: webmcp',
    ],
  ]
  for (const [label, policy, message] of badPolicies) {
    it(`reports ${label} as invalid_policy and leaves the caller with no tools`, async () => {
      const tm = createToolmark({ policy: policy as never })
      const errors = listen(tm)
      tm.register(tool('read', { hints: { readOnly: true } }))
      await Promise.resolve()
      expect(errors).toEqual([{ code: 'invalid_policy', message }])
      // An unknown caller takes nothing from anyone; every other problem closes its caller.
      expect(tm.manifest({ caller: 'webmcp' }).tools).toHaveLength(
        message.includes('robot') ? 1 : 0,
      )
      expect(tm.manifest({ caller: 'human' }).tools).toHaveLength(1)
    })
  }

  it('reports setPolicy problems at once', () => {
    const tm = createToolmark()
    const errors = listen(tm)
    tm.setPolicy({ mcp: { allow: 'all' } } as never)
    expect(errors).toEqual([{ code: 'invalid_policy', message: 'policy allow: mcp' }])
  })

  const badScopes: Array<[string, (tm: Toolmark) => unknown, string]> = [
    ['an invalid name', (tm) => tm.scope('a b'), 'scope name: a b'],
    ['options that are not an object', (tm) => tm.scope('s', 'x' as never), 'scope options: s'],
    ['a non-boolean when', (tm) => tm.scope('s', { when: 1 as never }), 'scope flag: s, when'],
    [
      'a non-boolean transparent',
      (tm) => tm.scope('s', { transparent: 'yes' as never }),
      'scope flag: s, transparent',
    ],
    [
      'a child of a disposed scope',
      (tm) => {
        const parent = tm.scope('p')
        parent.dispose()
        return parent.scope('c')
      },
      'scope disposed: c',
    ],
    ['a non-boolean setWhen', (tm) => tm.scope('s').setWhen('no' as never), 'setWhen type: string'],
  ]
  for (const [label, make, message] of badScopes) {
    it(`reports ${label} as invalid_scope`, () => {
      const tm = createToolmark()
      const errors = listen(tm)
      make(tm)
      expect(errors).toEqual([{ code: 'invalid_scope', message }])
    })
  }

  it('gives a misconfigured scope that registers nothing', async () => {
    const tm = createToolmark()
    const errors = listen(tm)
    const scope = tm.scope('a b')
    tm.register(tool('t'), { scope })
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      ['invalid_scope', 'scope name: a b'],
      ['invalid_tool', 'disposed scope: t'],
    ])
    expect(tm.manifest().tools).toEqual([])
  })

  const badTools: Array<[string, unknown, string, string | undefined]> = [
    ['an invalid name', tool('a b'), 'tool name: a b', 'a b'],
    ['no description', tool('a', { description: ' ' }), 'description: a', 'a'],
    ['no run', { name: 'a', description: 'd' }, 'run: a', 'a'],
    ['a title that is not a string', tool('a', { title: 3 }), 'title: a', 'a'],
    ['an input that is not a Standard Schema', tool('a', { input: {} }), 'input: a', 'a'],
    ['an output that is not a Standard Schema', tool('a', { output: 'x' }), 'output: a', 'a'],
    ['an inputSchema that is not an object', tool('a', { inputSchema: [] }), 'inputSchema: a', 'a'],
    ['hints that are not an object', tool('a', { hints: 'ro' }), 'hints: a', 'a'],
    ['an unknown hint', tool('a', { hints: { readonly: true } }), 'hint: a, readonly', 'a'],
    [
      'contradictory hints',
      tool('a', { hints: { readOnly: true, destructive: true } }),
      'hint conflict: a',
      'a',
    ],
    ['sensitive paths that are not a list', tool('a', { sensitive: 'ssn' }), 'sensitive: a', 'a'],
    ['an invalid timeoutMs', tool('a', { timeoutMs: 0 }), 'timeoutMs: a', 'a'],
    [
      'a summary that is not a function',
      tool('a', { summary: 'x' }),
      'not a function: a, summary',
      'a',
    ],
    [
      'an input without a JSON Schema',
      tool('a', {
        input: {
          '~standard': { version: 1, vendor: 'x', validate: (value: unknown) => ({ value }) },
        },
      }),
      'no JSON Schema: a',
      'a',
    ],
    ['something that is not a definition', null, 'definition', undefined],
  ]
  for (const [label, def, message, name] of badTools) {
    it(`reports ${label} as invalid_tool and registers nothing`, () => {
      const tm = createToolmark()
      const errors = listen(tm)
      tm.register(def as never)
      expect(errors).toEqual([
        name === undefined
          ? { code: 'invalid_tool', message }
          : { code: 'invalid_tool', message, tool: name },
      ])
      expect(tm.manifest().tools).toEqual([])
    })
  }

  it('reports bad register options and a foreign scope as invalid_tool', () => {
    const tm = createToolmark()
    const errors = listen(tm)
    expect(tm.register(tool('a'), 'x' as never).name).toBe('')
    expect(tm.register(tool('b'), { scope: createToolmark().scope('s') }).name).toBe('b')
    expect(errors).toEqual([
      { code: 'invalid_tool', message: 'register options' },
      { code: 'invalid_tool', message: 'foreign scope: b' },
    ])
  })

  it('reports a duplicate name or llmName as duplicate_tool and keeps the first', async () => {
    const tm = createToolmark()
    const errors = listen(tm)
    tm.register(tool('a.b'))
    tm.register(tool('a.b'))
    tm.register(tool('a__b'))
    expect(errors).toEqual([
      { code: 'duplicate_tool', message: 'duplicate: a.b', tool: 'a.b' },
      { code: 'duplicate_tool', message: 'duplicate llmName: a__b, a__b, a.b', tool: 'a__b' },
    ])
    expect(await tm.call('a.b')).toEqual({ status: 'ok', data: 1 })
  })

  it('reports a bad registerUndo as invalid_undo and lets the call go on', async () => {
    const tm = createToolmark()
    const errors = listen(tm)
    tm.register(tool('w', { run: (_i: unknown, ctx: any) => (ctx.registerUndo('nope'), ok(1)) }))
    expect(await tm.call('w')).toEqual({ status: 'ok', data: 1 })
    expect(errors).toEqual([{ code: 'invalid_undo', message: 'registerUndo: w', tool: 'w' }])
  })

  it('reports listeners and consumers that are not functions', () => {
    const tm = createToolmark()
    const errors = listen(tm)
    tm.subscribe('x' as never)
    tm.events.on('change', 3 as never)
    tm.use(null as never)
    expect(errors).toEqual([
      { code: 'invalid_listener', message: 'subscribe' },
      { code: 'invalid_listener', message: 'events.on: change' },
      { code: 'invalid_consumer', message: 'use' },
    ])
  })

  it("reports a tool's own failures with their codes and short messages", async () => {
    const tm = createToolmark()
    const errors = listen(tm)
    tm.register(
      tool('boom', {
        run: () => {
          throw new Error('x')
        },
      }),
    )
    tm.register(tool('odd', { run: () => 'not a result' }))
    tm.use(() => {
      throw new Error('y')
    })
    expect(await tm.call('boom')).toEqual({ status: 'error', message: 'Tool failed' })
    expect(await tm.call('odd')).toEqual({ status: 'error', message: 'Tool failed' })
    expect(errors.map((e) => [e.code, e.message, e.tool])).toEqual([
      ['consumer_threw', 'consumer threw', undefined],
      ['tool_threw', 'tool threw: boom', 'boom'],
      ['invalid_result', 'invalid result: odd', 'odd'],
    ])
  })

  it('throws the short message when the registry is put in development mode', () => {
    const tm = createToolmark({ dev: true })
    expect(() => tm.register(tool('a', { description: '' }))).toThrow('[toolmark] description: a')
    expect(() => createToolmark({ dev: true, limits: { queue: 1 } as never })).toThrow(
      '[toolmark] unknown limit: queue',
    )
  })

  it('leaves out the development warning and output validation, even in development mode', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const tm = createToolmark({ dev: true })
    const errors = listen(tm)
    tm.register(tool('close', { hints: { consequential: true } }))
    tm.register(tool('count', { output: z.number(), run: () => ok('three') }))
    expect(await tm.call('count')).toEqual({ status: 'ok', data: 'three' })
    expect(errors).toEqual([])
    expect(warn).not.toHaveBeenCalled()
  })
})

describe('a development build', () => {
  it('explains the fix in the same messages', async () => {
    vi.stubEnv('NODE_ENV', 'development')
    const tm = createToolmark({ dev: false, limits: { queue: 3 } as never })
    const errors = listen(tm)
    tm.register(tool('a', { description: '' }))
    await Promise.resolve()
    expect(errors.map((e) => e.message)).toEqual([
      'Tool "a" needs a description: tell the model what it does and when to use it',
      expect.stringMatching(/^limits\.queue is not a limit: use queuePerScope, /),
    ])
  })

  it("explains a tool's own failures", async () => {
    vi.stubEnv('NODE_ENV', 'development')
    const tm = createToolmark({ dev: false })
    const errors = listen(tm)
    tm.register(tool('odd', { run: () => 'not a result' }))
    await tm.call('odd')
    expect(errors.map((e) => e.message)).toEqual([
      'Tool "odd" returned something that is not a ToolResult',
    ])
  })
})
