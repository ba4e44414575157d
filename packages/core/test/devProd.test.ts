import { z } from 'zod'
import { createToolmark, ok, type ErrorEvent } from '../src/index'

afterEach(() => {
  vi.unstubAllEnvs()
  vi.useRealTimers()
})

describe('development and production', () => {
  it('defaults to development unless NODE_ENV is production', () => {
    vi.stubEnv('NODE_ENV', 'test')
    expect(createToolmark().dev).toBe(true)
    vi.stubEnv('NODE_ENV', 'production')
    expect(createToolmark().dev).toBe(false)
    expect(createToolmark({ dev: true }).dev).toBe(true)
  })

  const badOptions: Array<[string, unknown, RegExp]> = [
    ['options that are not an object', 'fast', /takes an options object/],
    ['an unknown option', { polcy: {} }, /unknown option "polcy"/],
    ['a non-boolean dev', { dev: 'yes' }, /dev.*takes a boolean/],
    ['a jsonSchema that is not a function', { jsonSchema: {} }, /jsonSchema.*takes a function/],
    ['confirm for webmcp', { confirm: { webmcp: 'deferred' } }, /confirm.webmcp cannot be/],
    ['an unknown confirm mode', { confirm: { inapp: 'later' } }, /confirm.inapp cannot be "later"/],
    ['an unknown limit', { limits: { queue: 3 } }, /limits.queue is not a limit/],
    [
      'a negative limit',
      { limits: { queuePerScope: -1 } },
      /limits.queuePerScope must be a positive number/,
    ],
    ['a NaN limit', { limits: { abortGraceMs: Number.NaN } }, /limits.abortGraceMs must be/],
  ]

  for (const [label, options, message] of badOptions) {
    it(`throws in development on ${label}, naming the fix`, () => {
      vi.stubEnv('NODE_ENV', 'development')
      expect(() => createToolmark(options as never)).toThrow(message)
    })
  }

  it('reports bad options in production as invalid_options once listeners can hear, and keeps safe defaults', async () => {
    const tm = createToolmark({
      dev: false,
      limits: { queuePerScope: -1, abortGraceMs: 10 },
      confirm: { inapp: 'later' as never },
    })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    await Promise.resolve()
    expect(errors.map((e) => e.code)).toEqual(['invalid_options', 'invalid_options'])
    expect(tm.limits.queuePerScope).toBe(32)
    expect(tm.limits.abortGraceMs).toBe(10)
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      run: () => ok(1),
    })
    expect((await tm.call('close')).status).toBe('needs_confirmation')
  })

  it('exposes the frozen limits with their defaults', () => {
    const tm = createToolmark()
    expect(tm.limits).toEqual({
      queuePerScope: 32,
      pendingConfirmations: 100,
      undoJournal: 100,
      confirmationExpiryMs: 600_000,
      abortGraceMs: 5_000,
      callTimeoutMs: 120_000,
      messageBytes: 1_048_576,
      messageDepth: 64,
      fillNodes: 10_000,
      optionsTimeoutMs: 10_000,
      optionsItems: 50,
      signatureBudget: 240,
    })
    expect(Object.isFrozen(tm.limits)).toBe(true)
  })
})

describe('output validation', () => {
  const register = (dev: boolean) => {
    const tm = createToolmark({ dev })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({
      name: 'count',
      description: 'Counts',
      output: z.number(),
      run: () => ok('three' as unknown as number),
    })
    return { tm, errors }
  }

  it('runs in development: a mismatch emits output_invalid and the result is kept', async () => {
    const { tm, errors } = register(true)
    expect(await tm.call('count')).toEqual({ status: 'ok', data: 'three' })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: 'output_invalid', tool: 'count' })
    expect(errors[0].cause).toEqual([{ path: '', message: expect.any(String) }])
  })

  it('does not run in production', async () => {
    const { tm, errors } = register(false)
    expect(await tm.call('count')).toEqual({ status: 'ok', data: 'three' })
    expect(errors).toEqual([])
  })

  it('stays quiet when the output matches', async () => {
    const tm = createToolmark({ dev: true })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({ name: 'n', description: 'N', output: z.number(), run: () => ok(3) })
    await tm.call('n')
    expect(errors).toEqual([])
  })

  it('checks only ok results', async () => {
    const tm = createToolmark({ dev: true })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({
      name: 'n',
      description: 'N',
      output: z.number(),
      run: () => ({ status: 'refused', code: 'not_allowed', message: 'no' }),
    })
    await tm.call('n')
    expect(errors).toEqual([])
  })

  it('reports an output schema that throws as output_invalid and keeps the result', async () => {
    const tm = createToolmark({ dev: true })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({
      name: 'n',
      description: 'N',
      output: z.number().transform(() => {
        throw new Error('transform bug')
      }),
      run: () => ok(3),
    })
    expect(await tm.call('n')).toEqual({ status: 'ok', data: 3 })
    expect(errors.map((e) => e.code)).toEqual(['output_invalid'])
  })
})

describe('nothing starts until used', () => {
  it('leaves no timer after creating a registry, registering, listening and reading manifests', () => {
    vi.useFakeTimers()
    const tm = createToolmark({ policy: { mcp: { rateLimit: { calls: 1, perMs: 1000 } } } })
    tm.register({
      name: 'a',
      description: 'A',
      input: z.object({ q: z.string() }),
      run: () => ok(1),
    })
    tm.scope('s', { when: false })
    tm.subscribe(() => {})
    tm.events.on('call', () => {})
    tm.manifest({ detail: 'full' })
    tm.describe('a')
    tm.confirmations.attachPresenter()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('leaves no timer after a call completes', async () => {
    vi.useFakeTimers()
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    await tm.call('a')
    await tm.call('missing')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('holds nothing for a registry that is created and never used (server rendering)', async () => {
    vi.useFakeTimers()
    createToolmark()
    await Promise.resolve()
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('runs in Node', () => {
  it('needs no DOM: window and document are absent and a full call works', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined')
    const tm = createToolmark()
    tm.register({
      name: 'a',
      description: 'A',
      input: z.object({ n: z.number() }),
      run: (i) => ok(i.n * 2),
    })
    expect(await tm.call('a', { n: 21 })).toEqual({ status: 'ok', data: 42 })
  })
})
