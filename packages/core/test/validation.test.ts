import { z } from 'zod'
import { createToolmark, ok, type ErrorEvent, type StandardSchemaV1 } from '../src/index'

describe('input validation', () => {
  it('returns invalid with dot-path issues, array indexes included', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok(null))
    tm.register({
      name: 'order',
      description: 'Orders items',
      input: z.object({ items: z.array(z.object({ name: z.string().min(1) })) }),
      run,
    })
    const result = await tm.call('order', { items: [{ name: 'a' }, { name: 'b' }, { name: '' }] })
    expect(result).toEqual({
      status: 'invalid',
      issues: [{ path: 'items.2.name', message: expect.any(String) }],
    })
    expect(run).not.toHaveBeenCalled()
  })

  it('uses the empty path for an issue on the root', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'a',
      description: 'A',
      input: z.object({ id: z.string() }),
      run: () => ok(1),
    })
    const result = await tm.call('a', 'not an object')
    expect(result).toMatchObject({ status: 'invalid', issues: [{ path: '' }] })
  })

  it('reports every issue, each with a string message', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'a',
      description: 'A',
      input: z.object({ title: z.string(), priority: z.enum(['low', 'high']) }),
      run: () => ok(1),
    })
    const result = await tm.call('a', { priority: 'urgent' })
    expect(result.status).toBe('invalid')
    const issues = (result as { issues: { path: string; message: string }[] }).issues
    expect(issues.map((i) => i.path).sort()).toEqual(['priority', 'title'])
    for (const issue of issues) expect(typeof issue.message).toBe('string')
  })

  it('joins Standard Schema path segments given as { key } objects and symbols', async () => {
    const schema: StandardSchemaV1 = {
      '~standard': {
        version: 1,
        vendor: 'custom',
        validate: () => ({
          issues: [
            { message: 'bad', path: [{ key: 'a' }, 0, { key: 'b' }] },
            { message: 'sym', path: [Symbol('s')] },
            { message: 'root' },
          ],
        }),
      },
    }
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', input: schema, inputSchema: {}, run: () => ok(1) })
    expect(await tm.call('a', {})).toEqual({
      status: 'invalid',
      issues: [
        { path: 'a.0.b', message: 'bad' },
        { path: 's', message: 'sym' },
        { path: '', message: 'root' },
      ],
    })
  })

  it('supports async Standard Schema validators', async () => {
    const schema: StandardSchemaV1<{ n: number }> = {
      '~standard': {
        version: 1,
        vendor: 'async',
        validate: async (value) =>
          (value as { n?: unknown })?.n === 1
            ? { value: value as { n: number } }
            : { issues: [{ message: 'n must be 1', path: ['n'] }] },
      },
    }
    const tm = createToolmark()
    tm.register({
      name: 'a',
      description: 'A',
      input: schema,
      inputSchema: {},
      run: (i) => ok(i.n),
    })
    expect(await tm.call('a', { n: 1 })).toEqual({ status: 'ok', data: 1 })
    expect(await tm.call('a', { n: 2 })).toEqual({
      status: 'invalid',
      issues: [{ path: 'n', message: 'n must be 1' }],
    })
  })

  it('turns a throwing validator into error "Tool failed" plus a validator_threw event', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const boom = new Error('validator exploded')
    const run = vi.fn(() => ok(1))
    tm.register({
      name: 'a',
      description: 'A',
      input: z.object({ id: z.string() }).transform(() => {
        throw boom
      }),
      run,
    })
    expect(await tm.call('a', { id: 'x' })).toEqual({ status: 'error', message: 'Tool failed' })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: 'validator_threw', tool: 'a' })
    expect(errors[0].cause).toBe(boom)
    expect(run).not.toHaveBeenCalled()
  })

  it('turns a validator whose promise rejects into error "Tool failed" plus validator_threw', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({
      name: 'a',
      description: 'A',
      input: {
        '~standard': { version: 1, vendor: 'x', validate: () => Promise.reject(new Error('no')) },
      },
      inputSchema: {},
      run: () => ok(1),
    })
    expect(await tm.call('a', {})).toEqual({ status: 'error', message: 'Tool failed' })
    expect(errors.map((e) => e.code)).toEqual(['validator_threw'])
  })
})

describe('a tool without input', () => {
  const setup = () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok('ran'))
    tm.register({ name: 'ping', description: 'Pings', run })
    return { tm, run }
  }

  it('accepts nothing, and run receives undefined as its input', async () => {
    const { tm, run } = setup()
    expect(await tm.call('ping')).toEqual({ status: 'ok', data: 'ran' })
    expect(await tm.call('ping', {})).toEqual({ status: 'ok', data: 'ran' })
    expect(run.mock.calls.map((c) => (c as unknown[])[0])).toEqual([undefined, undefined])
  })

  it('accepts an empty object', async () => {
    const { tm } = setup()
    expect(await tm.call('ping', {})).toEqual({ status: 'ok', data: 'ran' })
    expect(await tm.call('ping', Object.create(null))).toEqual({ status: 'ok', data: 'ran' })
  })

  for (const [label, input] of [
    ['an object with keys', { a: 1 }],
    ['null', null],
    ['a string', 'hello'],
    ['an array', []],
    ['a number', 0],
    ['a Date', new Date()],
  ] as const) {
    it(`refuses ${label} with invalid on the root path`, async () => {
      const { tm, run } = setup()
      expect(await tm.call('ping', input)).toEqual({
        status: 'invalid',
        issues: [{ path: '', message: 'This tool takes no input: send {}' }],
      })
      expect(run).not.toHaveBeenCalled()
    })
  }
})

describe('hostile input', () => {
  it('does not pollute Object.prototype through __proto__ or constructor keys', async () => {
    const tm = createToolmark()
    const seen: unknown[] = []
    tm.events.on('call', (e) => seen.push(e.input))
    tm.register({
      name: 'loose',
      description: 'Takes any record',
      input: z.record(z.string(), z.unknown()),
      run: (input) => ok(Object.keys(input as object)),
    })
    tm.register({
      name: 'strict',
      description: 'Takes a title',
      input: z.object({ title: z.string() }),
      run: (input) => ok(input),
    })
    const payloads = [
      JSON.parse('{"__proto__": {"polluted": true}, "title": "x"}'),
      JSON.parse('{"constructor": {"prototype": {"polluted": true}}, "title": "x"}'),
      JSON.parse('{"title": "x", "nested": {"__proto__": {"polluted": true}}}'),
    ]
    for (const payload of payloads) {
      await tm.call('loose', payload)
      await tm.call('strict', payload)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined()
    for (const input of seen) {
      expect(Object.getPrototypeOf(input)).toBe(Object.prototype)
    }
  })

  it('strips unknown keys with a strict schema, so __proto__ never reaches run', async () => {
    const tm = createToolmark()
    const run = vi.fn((input: { title: string }) => ok(input))
    tm.register({ name: 'a', description: 'A', input: z.object({ title: z.string() }), run })
    const result = await tm.call('a', JSON.parse('{"__proto__": {"admin": true}, "title": "x"}'))
    expect(result).toEqual({ status: 'ok', data: { title: 'x' } })
    const given = run.mock.calls[0][0] as Record<string, unknown>
    expect(given.admin).toBeUndefined()
    expect(Object.getPrototypeOf(given)).toBe(Object.prototype)
  })
})
