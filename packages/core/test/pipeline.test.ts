import { z } from 'zod'
import {
  createToolmark,
  ok,
  type CallEvent,
  type ErrorEvent,
  type ResultEvent,
  type ToolResult,
} from '../src/index'

const isDeepFrozen = (value: unknown): boolean =>
  value === null ||
  typeof value !== 'object' ||
  (Object.isFrozen(value) &&
    Object.values(value as Record<string, unknown>).every((v) => isDeepFrozen(v)))

describe('call pipeline: lookup', () => {
  it('refuses an unknown tool with unknown_tool and the current rev', async () => {
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    await Promise.resolve()
    expect(await tm.call('b', {})).toEqual({
      status: 'refused',
      code: 'unknown_tool',
      message: 'No tool named "b"',
      rev: 1,
    })
  })

  it('refuses with stale and the current rev when the caller’s rev is old and the tool is gone', async () => {
    const tm = createToolmark()
    const handle = tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    await Promise.resolve()
    const seen = tm.manifest().rev
    handle.dispose()
    await Promise.resolve()
    expect(await tm.call('a', {}, { rev: seen })).toMatchObject({
      status: 'refused',
      code: 'stale',
      rev: seen + 1,
    })
    expect(await tm.call('a', {}, { rev: seen + 1 })).toMatchObject({ code: 'unknown_tool' })
    expect(await tm.call('a', {})).toMatchObject({ code: 'unknown_tool' })
  })

  it('runs a tool that still exists even when the caller’s rev is old', async () => {
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    tm.register({ name: 'b', description: 'B', run: () => ok(2) })
    expect(await tm.call('a', {}, { rev: 0 })).toEqual({ status: 'ok', data: 1 })
  })
})

describe('call pipeline: nonsense arguments never throw', () => {
  const cases: Array<[string, () => Promise<ToolResult>]> = []
  const tm = createToolmark()
  tm.register({
    name: 'echo',
    description: 'Echoes',
    input: z.object({ text: z.string() }),
    run: (input) => ok(input.text),
  })
  const circular: Record<string, unknown> = { text: 'x' }
  circular.self = circular
  const call = tm.call as (...args: unknown[]) => Promise<ToolResult>
  cases.push(
    ['a number as name', () => call(42, {})],
    ['undefined as name', () => call(undefined)],
    ['an object as name', () => call({ toString: () => 'echo' }, {})],
    ['a symbol as name', () => call(Symbol('echo'), {})],
    ['a very long name', () => call('x'.repeat(100_000), {})],
    ['an unknown caller', () => call('echo', { text: 'x' }, { caller: 'robot' })],
    ['a symbol caller', () => call('echo', { text: 'x' }, { caller: Symbol('c') })],
    ['options that are a string', () => call('echo', { text: 'x' }, 'mcp')],
    ['options that are a number', () => call('echo', { text: 'x' }, 7)],
    ['a signal that is not an AbortSignal', () => call('echo', { text: 'x' }, { signal: 'stop' })],
    ['a rev that is a string', () => call('echo', { text: 'x' }, { rev: '3' })],
  )

  for (const [label, run] of cases) {
    it(`answers ${label} with a frozen result`, async () => {
      const promise = run()
      expect(promise).toBeInstanceOf(Promise)
      const result = await promise
      expect(['refused', 'ok', 'invalid']).toContain(result.status)
      expect(isDeepFrozen(result)).toBe(true)
      expect(structuredClone(result)).toEqual(result)
    })
  }

  it('refuses an unknown caller with not_allowed', async () => {
    expect(await call('echo', { text: 'x' }, { caller: 'robot' })).toMatchObject({
      status: 'refused',
      code: 'not_allowed',
      message: 'Unknown caller "robot"',
    })
  })

  it('refuses options that are not an object with not_allowed', async () => {
    expect(await call('echo', { text: 'x' }, 'mcp')).toMatchObject({
      status: 'refused',
      code: 'not_allowed',
    })
  })

  it('accepts a circular input (validation takes what it needs)', async () => {
    expect(await call('echo', circular)).toEqual({ status: 'ok', data: 'x' })
  })

  it('refuses a non-string name as unknown_tool', async () => {
    expect(await call(42, {})).toMatchObject({
      code: 'unknown_tool',
      message: 'No tool named "[number]"',
    })
  })

  it('treats null options like no options (caller inapp)', async () => {
    expect(await call('echo', { text: 'x' }, null)).toEqual({ status: 'ok', data: 'x' })
  })

  it('survives a hostile proxy as input: a typed result and an event, never a throw', async () => {
    const local = createToolmark()
    const errors: ErrorEvent[] = []
    local.events.on('error', (e) => errors.push(e))
    local.register({ name: 'any', description: 'Any', input: z.any(), run: () => ok(1) })
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trap')
        },
        get() {
          throw new Error('trap')
        },
      },
    )
    const calls: CallEvent[] = []
    local.events.on('call', (e) => calls.push(e))
    const result = await local.call('any', hostile)
    expect(result).toEqual({ status: 'ok', data: 1 })
    expect(calls[0].input).toBe('[unreadable]')
    expect(errors).toEqual([])
  })
})

describe('call pipeline: order of the steps', () => {
  it('looks up before policy: an unknown tool is unknown_tool even for a limited caller', async () => {
    const tm = createToolmark({ policy: { mcp: { allow: [] } } })
    expect(await tm.call('missing', {}, { caller: 'mcp' })).toMatchObject({ code: 'unknown_tool' })
  })

  it('applies policy before the signal and validation', async () => {
    const tm = createToolmark({ policy: { mcp: { allow: ['readOnly'] } } })
    tm.register({
      name: 'write',
      description: 'Writes',
      input: z.object({ id: z.string() }),
      run: () => ok(1),
    })
    expect(
      await tm.call('write', { bad: true }, { caller: 'mcp', signal: AbortSignal.abort() }),
    ).toMatchObject({ code: 'not_allowed' })
  })

  it('answers an already-aborted signal with cancelled signal before validating or running', async () => {
    const tm = createToolmark()
    const validate = vi.fn()
    const run = vi.fn(() => ok(1))
    tm.register({
      name: 'a',
      description: 'A',
      input: {
        '~standard': {
          version: 1,
          vendor: 'spy',
          validate: (v: unknown) => {
            validate()
            return { value: v }
          },
        },
      },
      inputSchema: { type: 'object' },
      run,
    })
    const controller = new AbortController()
    controller.abort()
    expect(await tm.call('a', {}, { signal: controller.signal })).toEqual({
      status: 'cancelled',
      by: 'signal',
    })
    expect(validate).not.toHaveBeenCalled()
    expect(run).not.toHaveBeenCalled()
  })

  it('cancels with signal when the signal aborts during an async validation', async () => {
    const tm = createToolmark()
    const controller = new AbortController()
    const run = vi.fn(() => ok(1))
    tm.register({
      name: 'a',
      description: 'A',
      input: {
        '~standard': {
          version: 1,
          vendor: 'slow',
          validate: async (v: unknown) => {
            controller.abort()
            return { value: v }
          },
        },
      },
      inputSchema: { type: 'object' },
      run,
    })
    expect(await tm.call('a', {}, { signal: controller.signal })).toEqual({
      status: 'cancelled',
      by: 'signal',
    })
    expect(run).not.toHaveBeenCalled()
  })

  it('validates before asking for a confirmation', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'close',
      description: 'Closes',
      input: z.object({ id: z.string() }),
      hints: { consequential: true },
      run: () => ok(1),
    })
    expect(await tm.call('close', { id: 3 })).toMatchObject({ status: 'invalid' })
    expect(tm.confirmations.list()).toEqual([])
  })

  it('hands run the validated (parsed) input', async () => {
    const tm = createToolmark()
    const run = vi.fn((input: { count: number }) => ok(input.count))
    tm.register({
      name: 'a',
      description: 'A',
      input: z.object({ count: z.coerce.number() }),
      run,
    })
    expect(await tm.call('a', { count: '41', extra: true })).toEqual({ status: 'ok', data: 41 })
    expect(run.mock.calls[0][0]).toEqual({ count: 41 })
  })

  it('runs a caller’s signal abort mid-run into cancelled signal', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'wait',
      description: 'Waits',
      run: (_input, ctx) =>
        new Promise((_, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
        ),
    })
    const controller = new AbortController()
    const pending = tm.call('wait', {}, { signal: controller.signal })
    await new Promise((r) => setTimeout(r, 0))
    controller.abort()
    expect(await pending).toEqual({ status: 'cancelled', by: 'signal' })
  })

  it('keeps the result of a run that finishes its work after the abort instead of throwing', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'save',
      description: 'Saves',
      run: (_input, ctx) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve(ok('saved anyway'))),
        ),
    })
    const controller = new AbortController()
    const pending = tm.call('save', {}, { signal: controller.signal })
    await new Promise((r) => setTimeout(r, 0))
    controller.abort()
    expect(await pending).toEqual({ status: 'ok', data: 'saved anyway' })
  })
})

describe('call pipeline: events for every call', () => {
  it('emits call then result, with the same callId and a durationMs, for a call that runs', async () => {
    const tm = createToolmark()
    const order: string[] = []
    const calls: CallEvent[] = []
    const results: ResultEvent[] = []
    tm.events.on('call', (e) => (order.push('call'), calls.push(e)))
    tm.events.on('result', (e) => (order.push('result'), results.push(e)))
    tm.register({
      name: 'a',
      description: 'A',
      run: () => {
        order.push('run')
        return ok(1)
      },
    })
    const result = await tm.call('a', {}, { caller: 'mcp' })
    expect(order).toEqual(['call', 'run', 'result'])
    expect(calls[0]).toMatchObject({ tool: 'a', caller: 'mcp', input: {} })
    expect(results[0]).toMatchObject({ tool: 'a', caller: 'mcp', callId: calls[0].callId })
    expect(results[0].result).toBe(result)
    expect(typeof results[0].durationMs).toBe('number')
    expect(results[0].durationMs).toBeGreaterThanOrEqual(0)
    expect(calls[0].callId).toMatch(/^call_[0-9a-f]{32}$/)
  })

  it('emits call and result for refused calls too (unknown tool, policy, bad caller)', async () => {
    const tm = createToolmark({ policy: { webmcp: { allow: [] } } })
    tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    const calls: CallEvent[] = []
    const results: ResultEvent[] = []
    tm.events.on('call', (e) => calls.push(e))
    tm.events.on('result', (e) => results.push(e))
    await tm.call('missing', { q: 1 })
    await tm.call('a', {}, { caller: 'webmcp' })
    await tm.call('a', {}, { caller: 'robot' as never })
    await tm.call(7 as never)
    expect(calls.map((e) => [e.tool, e.caller])).toEqual([
      ['missing', 'inapp'],
      ['a', 'webmcp'],
      ['a', 'robot'],
      ['[number]', 'inapp'],
    ])
    expect(results.map((e) => (e.result as { code: string }).code)).toEqual([
      'unknown_tool',
      'not_allowed',
      'not_allowed',
      'unknown_tool',
    ])
    expect(results.every((e) => typeof e.durationMs === 'number')).toBe(true)
  })

  it('gives each call a fresh callId', async () => {
    const tm = createToolmark()
    const ids = new Set<string>()
    tm.events.on('call', (e) => ids.add(e.callId))
    tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    await Promise.all([tm.call('a'), tm.call('a'), tm.call('a')])
    expect(ids.size).toBe(3)
  })
})
