import { z } from 'zod'
import {
  cancelled,
  createToolmark,
  errorResult,
  invalid,
  isToolResult,
  ok,
  refuse,
  type ErrorEvent,
  type ToolResult,
} from '../src/index'

const isDeepFrozen = (value: unknown): boolean => {
  if (value === null || typeof value !== 'object') return true
  if (!Object.isFrozen(value)) return false
  return Reflect.ownKeys(value).every((key) =>
    isDeepFrozen((value as Record<PropertyKey, unknown>)[key]),
  )
}

const isPlain = (value: unknown): boolean => {
  if (value === null || typeof value !== 'object') return true
  if (Array.isArray(value)) return value.every(isPlain)
  if (value instanceof Date) return true
  const proto = Object.getPrototypeOf(value)
  return (
    (proto === Object.prototype || proto === null) &&
    Object.values(value as Record<string, unknown>).every(isPlain)
  )
}

/** A frozen, plain, cloneable result (the seed's rule for everything leaving tm.call). */
const expectSealed = (result: ToolResult) => {
  expect(isDeepFrozen(result)).toBe(true)
  expect(isPlain(result)).toBe(true)
  expect(structuredClone(result)).toEqual(result)
}

describe('result helpers', () => {
  it('ok(data) builds { status: "ok", data }', () => {
    expect(ok({ id: 1 })).toEqual({ status: 'ok', data: { id: 1 } })
    expect(ok(undefined)).toEqual({ status: 'ok', data: undefined })
    expect('data' in ok(undefined)).toBe(true)
  })

  it('invalid(issues) builds { status: "invalid", issues }', () => {
    expect(invalid([{ path: 'title', message: 'Required' }])).toEqual({
      status: 'invalid',
      issues: [{ path: 'title', message: 'Required' }],
    })
  })

  it('refuse(code, message) builds a refusal without rev, and with { rev } carries it', () => {
    const plain = refuse('not_allowed', 'Only owners can publish')
    expect(plain).toEqual({
      status: 'refused',
      code: 'not_allowed',
      message: 'Only owners can publish',
    })
    expect('rev' in plain).toBe(false)
    expect(refuse('stale', 'Gone', { rev: 4 })).toEqual({
      status: 'refused',
      code: 'stale',
      message: 'Gone',
      rev: 4,
    })
  })

  it('cancelled(by) builds { status: "cancelled", by } for operator, signal and policy', () => {
    for (const by of ['operator', 'signal', 'policy'] as const) {
      expect(cancelled(by)).toEqual({ status: 'cancelled', by })
    }
  })

  it('errorResult(message) builds { status: "error", message }', () => {
    expect(errorResult('Tool failed')).toEqual({ status: 'error', message: 'Tool failed' })
  })

  it('isToolResult accepts the six statuses and rejects look-alikes', () => {
    const good: unknown[] = [
      ok(1),
      invalid([{ path: '', message: 'x' }]),
      refuse('busy', 'later'),
      refuse('stale', 'gone', { rev: 2 }),
      { status: 'needs_confirmation', confirmId: 'cf_1', summary: 'Close #1' },
      { status: 'needs_confirmation', confirmId: 'cf_1', summary: 's', changes: [{ path: 'a' }] },
      cancelled('signal'),
      errorResult('Tool failed'),
    ]
    for (const value of good) expect(isToolResult(value)).toBe(true)
    const bad: unknown[] = [
      null,
      undefined,
      'ok',
      [],
      { status: 'ok' },
      { status: 'done', data: 1 },
      { status: 'invalid', issues: [{ path: 1, message: 'x' }] },
      { status: 'invalid', issues: 'x' },
      { status: 'refused', code: 'x' },
      { status: 'refused', code: 'x', message: 'm', rev: 1.5 },
      { status: 'needs_confirmation', confirmId: 'x' },
      { status: 'needs_confirmation', confirmId: 'x', summary: 's', changes: [{}] },
      { status: 'cancelled', by: 'someone' },
      { status: 'error' },
      new (class {
        status = 'ok'
        data = 1
      })(),
    ]
    for (const value of bad) expect(isToolResult(value)).toBe(false)
  })
})

describe('results leaving tm.call', () => {
  const statuses: Array<[string, () => ToolResult | Promise<ToolResult>]> = [
    ['ok', () => ok({ nested: { list: [1, { deep: true }] }, when: new Date(0) })],
    ['invalid', () => invalid([{ path: 'a.b', message: 'Bad' }])],
    ['refused', () => refuse('not_allowed', 'Only owners can publish')],
    ['cancelled', () => cancelled('operator')],
    ['error', () => errorResult('Could not reach the server')],
  ]

  for (const [status, make] of statuses) {
    it(`returns a deep-frozen, plain, cloneable "${status}" result from run`, async () => {
      const tm = createToolmark()
      tm.register({ name: 'tool', description: 'Returns a fixed result', run: make })
      const result = await tm.call('tool', {})
      expect(result.status).toBe(status)
      expectSealed(result)
    })
  }

  it('returns a deep-frozen, cloneable needs_confirmation result for a deferred call', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      confirmation: () => ({ changes: [{ path: 'status', before: 'open', after: 'closed' }] }),
      run: () => ok(null),
    })
    const result = await tm.call('close', {})
    expect(result.status).toBe('needs_confirmation')
    expectSealed(result)
  })

  it('seals refusals, cancellations and validation failures built by the runtime', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'typed',
      description: 'Needs a title',
      input: z.object({ title: z.string() }),
      run: () => ok(1),
    })
    const aborted = new AbortController()
    aborted.abort()
    const results = await Promise.all([
      tm.call('missing', {}),
      tm.call('typed', {}),
      tm.call('typed', { title: 'x' }, { signal: aborted.signal }),
      tm.call('typed', { title: 'x' }, { caller: 'nobody' as never }),
    ])
    expect(results.map((r) => r.status)).toEqual(['refused', 'invalid', 'cancelled', 'refused'])
    for (const result of results) expectSealed(result)
  })

  it('never freezes the app’s own objects: the result is a clone', async () => {
    const tm = createToolmark()
    const ticket = { id: 1, tags: ['a'] }
    tm.register({ name: 'get', description: 'Gets', run: () => ok(ticket) })
    const result = await tm.call('get', {})
    expect(result).toEqual({ status: 'ok', data: { id: 1, tags: ['a'] } })
    expect((result as { data: unknown }).data).not.toBe(ticket)
    expect(Object.isFrozen(ticket)).toBe(false)
    expect(Object.isFrozen(ticket.tags)).toBe(false)
    ticket.tags.push('b')
    expect((result as { data: { tags: string[] } }).data.tags).toEqual(['a'])
  })

  it('copies only own keys of an ok result while Object.prototype has an enumerable key', async () => {
    const tm = createToolmark()
    tm.register({ name: 'get', description: 'Gets', run: () => ok({ id: 1 }) })
    const proto = Object.prototype as Record<string, unknown>
    proto.polluted = 'yes'
    let result: ToolResult
    try {
      result = await tm.call('get', {})
    } finally {
      delete proto.polluted
    }
    expect(Object.keys(result)).toEqual(['status', 'data'])
    expect(Object.keys((result as { data: object }).data)).toEqual(['id'])
    expect(result).toEqual({ status: 'ok', data: { id: 1 } })
    expectSealed(result)
  })

  it('clones a class instance with methods to a plain object of its data', async () => {
    class Ticket {
      constructor(
        public id: number,
        public title: string,
      ) {}
      label() {
        return `#${this.id} ${this.title}`
      }
    }
    const tm = createToolmark()
    tm.register({ name: 'get', description: 'Gets', run: () => ok(new Ticket(7, 'Printer')) })
    const result = await tm.call('get', {})
    expect(result).toEqual({ status: 'ok', data: { id: 7, title: 'Printer' } })
    expect(Object.getPrototypeOf((result as { data: object }).data)).toBe(Object.prototype)
    expectSealed(result)
  })

  const notCloneable: Array<[string, unknown]> = [
    ['a function', { onClick: () => {} }],
    ['a symbol', { kind: Symbol('x') }],
    ['a WeakMap', new WeakMap()],
    [
      'a getter that throws',
      Object.defineProperty({}, 'x', {
        enumerable: true,
        get: () => {
          throw new Error('no')
        },
      }),
    ],
  ]
  for (const [label, data] of notCloneable) {
    it(`turns data holding ${label} into error "Result not serializable" and an event`, async () => {
      const tm = createToolmark()
      const errors: ErrorEvent[] = []
      tm.events.on('error', (e) => errors.push(e))
      tm.register({ name: 'bad', description: 'Returns odd data', run: () => ok(data) })
      const result = await tm.call('bad', {})
      expect(result).toEqual({ status: 'error', message: 'Result not serializable' })
      expectSealed(result)
      expect(errors.map((e) => e.code)).toEqual(['result_not_serializable'])
      expect(errors[0].tool).toBe('bad')
    })
  }

  it('keeps a thrown exception out of the result: error "Tool failed" plus a tool_threw event', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const secret = new Error('database password is hunter2')
    tm.register({
      name: 'boom',
      description: 'Throws',
      run: () => {
        throw secret
      },
    })
    const result = await tm.call('boom', {})
    expect(result).toEqual({ status: 'error', message: 'Tool failed' })
    expect(JSON.stringify(result)).not.toContain('hunter2')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: 'tool_threw', tool: 'boom' })
    expect(errors[0].cause).toBe(secret)
    expect(typeof errors[0].callId).toBe('string')
  })

  it('treats a rejected promise like a thrown exception', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const reason = new Error('rejected')
    tm.register({ name: 'reject', description: 'Rejects', run: () => Promise.reject(reason) })
    expect(await tm.call('reject', {})).toEqual({ status: 'error', message: 'Tool failed' })
    expect(errors.map((e) => [e.code, e.cause])).toEqual([['tool_threw', reason]])
  })

  const nonResults: Array<[string, unknown]> = [
    ['undefined', undefined],
    ['a bare value', 42],
    ['an object without status', { data: 1 }],
    ['an unknown status', { status: 'done' }],
    ['a malformed refusal', { status: 'refused', code: 1 }],
  ]
  for (const [label, value] of nonResults) {
    it(`turns a run returning ${label} into error "Tool failed" plus an invalid_result event`, async () => {
      const tm = createToolmark()
      const errors: ErrorEvent[] = []
      tm.events.on('error', (e) => errors.push(e))
      tm.register({ name: 'odd', description: 'Returns nonsense', run: () => value as never })
      const result = await tm.call('odd', {})
      expect(result).toEqual({ status: 'error', message: 'Tool failed' })
      expectSealed(result)
      expect(errors.map((e) => e.code)).toEqual(['invalid_result'])
    })
  }

  it('treats a result object that throws when read as not a result', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('trap')
        },
      },
    )
    tm.register({ name: 'proxy', description: 'Returns a proxy', run: () => hostile as never })
    expect(await tm.call('proxy', {})).toEqual({ status: 'error', message: 'Tool failed' })
    expect(errors.map((e) => e.code)).toEqual(['invalid_result'])
  })

  it('passes a tool’s own refusal, cancellation and error through unchanged', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'publish',
      description: 'Publishes',
      input: z.object({ id: z.string() }),
      run: (input) =>
        input.id === 'mine'
          ? errorResult('Could not reach the server')
          : refuse('not_allowed', 'Only owners can publish'),
    })
    expect(await tm.call('publish', { id: 'theirs' })).toEqual({
      status: 'refused',
      code: 'not_allowed',
      message: 'Only owners can publish',
    })
    expect(await tm.call('publish', { id: 'mine' })).toEqual({
      status: 'error',
      message: 'Could not reach the server',
    })
  })
})
