import { z } from 'zod'
import { createToolmark, ok, REDACTED, type CallEvent } from '../src/index'
import { compileSensitive, redactChanges, redactValue } from '../src/redaction/redact'

describe('sensitive paths', () => {
  it('match a path itself and everything under it', () => {
    const s = compileSensitive(['card'])
    expect(s.matches('card')).toBe(true)
    expect(s.matches('card.number')).toBe(true)
    expect(s.matches('cardholder')).toBe(false)
    expect(s.matches('')).toBe(false)
  })

  it('match any array index with []', () => {
    const s = compileSensitive(['cards[].cvc'])
    expect(s.matches('cards.0.cvc')).toBe(true)
    expect(s.matches('cards.12.cvc')).toBe(true)
    expect(s.matches('cards.x.cvc')).toBe(false)
    expect(s.matches('cards.0.last4')).toBe(false)
  })

  it('match a key at any depth with **, the subtree included', () => {
    const s = compileSensitive(['**.cvc'])
    expect(s.matches('cvc')).toBe(true)
    expect(s.matches('values.cards.$append.0.cvc')).toBe(true)
    expect(s.matches('Values.cvc.digits')).toBe(true)
    expect(s.matches('values.cvcx')).toBe(false)
    expect(s.matches('values.cards.0')).toBe(false)
  })

  it('match ** between segments, and after them', () => {
    const between = compileSensitive(['values.**.pin'])
    expect(between.matches('values.pin')).toBe(true)
    expect(between.matches('values.a.b.pin')).toBe(true)
    expect(between.matches('other.pin')).toBe(false)
    const after = compileSensitive(['secrets.**'])
    expect(after.matches('secrets')).toBe(true)
    expect(after.matches('secrets.a.b')).toBe(true)
    expect(after.matches('public.a')).toBe(false)
  })

  it('are empty without patterns', () => {
    expect(compileSensitive(undefined).empty).toBe(true)
    expect(compileSensitive([]).matches('a')).toBe(false)
  })

  it('read a function at every use, for lists that grow', () => {
    const list = ['a']
    let current: readonly string[] = list
    const s = compileSensitive(() => current)
    expect(s.matches('b')).toBe(false)
    current = ['a', 'b']
    expect(s.matches('b')).toBe(true)
  })

  it('see a path pushed onto the same array the function returned before', () => {
    const list = ['a']
    const s = compileSensitive(() => list)
    expect(s.matches('b')).toBe(false)
    list.push('b')
    expect(s.matches('b')).toBe(true)
  })

  it('keep a path sensitive once listed, even if the function drops it later', () => {
    let current: readonly string[] = ['pin']
    const s = compileSensitive(() => current)
    expect(s.matches('pin')).toBe(true)
    current = []
    expect(s.matches('pin')).toBe(true)
  })
})

describe('redactValue', () => {
  it('masks sensitive values and keeps the rest, without touching the original', () => {
    const input = { user: 'ann', password: 'hunter2', cards: [{ cvc: '123', last4: '4242' }] }
    const out = redactValue(input, compileSensitive(['password', 'cards[].cvc']))
    expect(out).toEqual({
      user: 'ann',
      password: REDACTED,
      cards: [{ cvc: REDACTED, last4: '4242' }],
    })
    expect(input.password).toBe('hunter2')
    expect(REDACTED).toBe('[redacted]')
  })

  it('masks a whole sensitive subtree with one mask', () => {
    expect(redactValue({ secret: { a: 1, b: [2] } }, compileSensitive(['secret']))).toEqual({
      secret: REDACTED,
    })
  })

  it('leaves an absent sensitive value absent', () => {
    expect(redactValue({ password: undefined, a: 1 }, compileSensitive(['password']))).toEqual({
      a: 1,
    })
  })

  it('cuts cycles, bounds depth and drops functions and symbols', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' }
    cyclic.self = cyclic
    const none = compileSensitive(undefined)
    expect(redactValue(cyclic, none)).toEqual({ name: 'loop', self: '[circular]' })
    let deep: Record<string, unknown> = {}
    const top = deep
    for (let i = 0; i < 100; i++) deep = (deep.next = {}) as Record<string, unknown>
    expect(JSON.stringify(redactValue(top, none, 3))).toBe(
      '{"next":{"next":{"next":"[too deep]"}}}',
    )
    expect(redactValue({ f: () => 1, s: Symbol('x'), n: 10n, keep: true }, none)).toEqual({
      n: '10n',
      keep: true,
    })
  })

  it('shows the same object twice (not a cycle) in full both times', () => {
    const shared = { id: 1 }
    expect(redactValue({ a: shared, b: shared }, compileSensitive(undefined))).toEqual({
      a: { id: 1 },
      b: { id: 1 },
    })
  })

  it('copies a __proto__ key as a plain own property', () => {
    const out = redactValue(
      JSON.parse('{"__proto__": {"polluted": 1}}'),
      compileSensitive(undefined),
    ) as object
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.keys(out)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('shows a value that throws when read as unreadable', () => {
    const hostile = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('no')
      },
    })
    expect(redactValue(hostile, compileSensitive(undefined))).toEqual({ x: '[unreadable]' })
  })
})

describe('redactChanges', () => {
  it('masks both sides of a sensitive change and keeps absent sides absent', () => {
    const out = redactChanges(
      [
        { path: 'password', before: 'a', after: 'b' },
        { path: 'password', after: 'b' },
        { path: 'title', before: 'x' },
        { path: 'profile', after: { ssn: '1', name: 'n' } },
      ],
      compileSensitive(['password', 'profile.ssn']),
    )
    expect(out).toEqual([
      { path: 'password', before: REDACTED, after: REDACTED },
      { path: 'password', after: REDACTED },
      { path: 'title', before: 'x' },
      { path: 'profile', after: { ssn: REDACTED, name: 'n' } },
    ])
    expect('before' in out[1]).toBe(false)
    expect('after' in out[2]).toBe(false)
  })
})

describe('redaction in the registry', () => {
  it('keeps a path sensitive once listed by a growing list, in events and confirmations', async () => {
    const tm = createToolmark()
    const calls: CallEvent[] = []
    tm.events.on('call', (e) => calls.push(e))
    const sensitive: string[] = []
    tm.register({
      name: 'save',
      description: 'Saves',
      input: z.object({ pin: z.string() }),
      sensitive: () => sensitive,
      run: () => ok(null),
    })
    await tm.call('save', { pin: '1111' })
    sensitive.push('pin')
    await tm.call('save', { pin: '2222' })
    expect(calls.map((c) => c.input)).toEqual([{ pin: '1111' }, { pin: REDACTED }])
  })

  it('passes the real, unredacted input to run', async () => {
    const tm = createToolmark()
    const run = vi.fn((input: { pin: string }) => ok(input.pin.length))
    tm.register({
      name: 'save',
      description: 'Saves',
      input: z.object({ pin: z.string() }),
      sensitive: ['pin'],
      run,
    })
    expect(await tm.call('save', { pin: '1234' })).toEqual({ status: 'ok', data: 4 })
    expect(run.mock.calls[0][0]).toEqual({ pin: '1234' })
  })
})

describe('keys masked at any depth', () => {
  it('mask a key wherever a malformed input puts it, in call events', async () => {
    const tm = createToolmark()
    const calls: CallEvent[] = []
    tm.events.on('call', (e) => calls.push(e))
    tm.register({
      name: 'pay',
      description: 'Pays',
      input: z.object({ card: z.object({ cvc: z.string() }) }),
      sensitive: ['**.cvc'],
      run: () => ok(null),
    })

    const result = await tm.call('pay', { Card: { nested: [{ cvc: '123' }] }, cvc: '456' })

    expect(result).toMatchObject({ status: 'invalid' })
    expect(calls[0].input).toEqual({ Card: { nested: [{ cvc: REDACTED }] }, cvc: REDACTED })
  })
})
