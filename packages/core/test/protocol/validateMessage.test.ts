import { describe, expect, it } from 'vitest'
import { PROTOCOL_VERSION, validateMessage } from '@toolmark/core/protocol'

const clientId = 'page-1'
const call = { protocol: 1, type: 'call', clientId, id: 'c-1', tool: 'tickets.close', input: {} }

describe('validateMessage', () => {
  it('declares protocol version 1', () => {
    expect(PROTOCOL_VERSION).toBe(1)
  })

  it('returns the typed message when it is valid', () => {
    const check = validateMessage(call, 'toPage')
    expect(check).toEqual({ ok: true, message: call })
  })

  it('reports the path and reason of the first problem', () => {
    expect(validateMessage({ ...call, rev: -1 }, 'toPage')).toEqual({
      ok: false,
      path: 'rev',
      reason: 'expected a non-negative integer',
    })
    expect(validateMessage({ ...call, extra: 1 }, 'toPage')).toMatchObject({
      ok: false,
      path: 'extra',
      reason: 'unexpected key',
    })
    const manifest = {
      protocol: 1,
      type: 'manifest',
      clientId,
      rev: 1,
      tools: [{ name: 'a', llmName: 'a', description: '', hints: { readOnly: 1 } }],
    }
    expect(validateMessage(manifest, 'toAgent')).toMatchObject({
      ok: false,
      path: 'tools.0.hints.readOnly',
    })
  })

  it('rejects a message sent in the wrong direction', () => {
    expect(validateMessage(call, 'toAgent')).toMatchObject({ ok: false, path: 'type' })
    expect(
      validateMessage({ protocol: 1, type: 'progress', clientId, id: 'c', done: 1 }, 'toPage'),
    ).toMatchObject({ ok: false, path: 'type' })
  })

  it('rejects values that are not plain JSON data anywhere in the message', () => {
    const bad: unknown[] = [
      () => 1,
      new Date(0),
      new Map(),
      undefined,
      Number.NaN,
      Infinity,
      10n,
      Symbol('s'),
      [1, , 3], // eslint-disable-line no-sparse-arrays
      new (class Point {
        x = 1
      })(),
    ]
    for (const input of bad) {
      expect(validateMessage({ ...call, input }, 'toPage').ok).toBe(false)
      expect(validateMessage({ ...call, input: { nested: [input] } }, 'toPage').ok).toBe(false)
    }
    expect(validateMessage({ ...call, input: Object.create(null) }, 'toPage').ok).toBe(true)
  })

  it('rejects nesting deeper than the limit, cycles included', () => {
    let deep: unknown = {}
    for (let i = 0; i < 70; i++) deep = { a: deep }
    expect(validateMessage({ ...call, input: deep }, 'toPage')).toMatchObject({
      ok: false,
      reason: 'message too deep',
    })
    expect(validateMessage({ ...call, input: deep }, 'toPage', { maxDepth: 100 }).ok).toBe(true)
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(validateMessage({ ...call, input: cycle }, 'toPage')).toMatchObject({
      ok: false,
      reason: 'message too deep',
    })
  })

  it('never throws, whatever it is given', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom')
        },
        ownKeys() {
          throw new Error('boom')
        },
      },
    )
    const getter = Object.defineProperty({ ...call }, 'input', {
      enumerable: true,
      get() {
        throw new Error('boom')
      },
    })
    for (const value of [hostile, getter, null, 1, 'call', [], Object.create(null)]) {
      expect(() => validateMessage(value, 'toPage')).not.toThrow()
      expect(validateMessage(value, 'toPage').ok).toBe(false)
    }
    expect(validateMessage(call, 'sideways' as never)).toEqual({
      ok: false,
      path: '',
      reason: 'unknown direction',
    })
  })

  it('accepts "*" as clientId only in hello', () => {
    expect(validateMessage({ protocol: 1, type: 'hello', clientId: '*' }, 'toPage').ok).toBe(true)
    expect(validateMessage({ ...call, clientId: '*' }, 'toPage').ok).toBe(false)
    expect(
      validateMessage(
        { protocol: 1, type: 'manifest', clientId: '*', rev: 0, tools: [] },
        'toAgent',
      ).ok,
    ).toBe(false)
  })

  it('checks every status of a result', () => {
    const result = (value: unknown) =>
      validateMessage(
        { protocol: 1, type: 'result', clientId, id: 'c-1', result: value },
        'toAgent',
      ).ok
    expect(result({ status: 'ok', data: [1, 'a', null] })).toBe(true)
    expect(result({ status: 'invalid', issues: [] })).toBe(true)
    expect(result({ status: 'invalid', issues: [{ path: 1, message: 'm' }] })).toBe(false)
    expect(result({ status: 'refused', code: 'stale', message: 'm', rev: 2 })).toBe(true)
    expect(result({ status: 'refused', code: 'stale', message: 'm', rev: '2' })).toBe(false)
    expect(result({ status: 'needs_confirmation', confirmId: 'k', summary: 's' })).toBe(true)
    expect(
      result({ status: 'needs_confirmation', confirmId: 'k', summary: 's', changes: {} }),
    ).toBe(false)
    expect(result({ status: 'cancelled', by: 'policy' })).toBe(true)
    expect(result({ status: 'error' })).toBe(false)
    expect(result('ok')).toBe(false)
  })
})
