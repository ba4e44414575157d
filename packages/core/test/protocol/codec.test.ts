import { describe, expect, it } from 'vitest'
import { decodeMessage, encodeMessage } from '@toolmark/core/protocol'
import { DEFAULT_MESSAGE_LIMITS } from '../../src/protocol/bounds'
import type { ResultMessage } from '@toolmark/core/protocol'

const clientId = 'page-1'
const result = (data: unknown): ResultMessage => ({
  protocol: 1,
  type: 'result',
  clientId,
  id: 'c-1',
  result: { status: 'ok', data },
})
const callText = (input: string) =>
  `{"protocol":1,"type":"call","clientId":"${clientId}","id":"c-1","tool":"a","input":${input}}`

describe('decodeMessage', () => {
  it('parses and validates JSON text', () => {
    expect(decodeMessage(callText('{"x":1}'), 'toPage')).toEqual({
      ok: true,
      message: JSON.parse(callText('{"x":1}')),
    })
    expect(decodeMessage('{"protocol":1,', 'toPage')).toEqual({
      ok: false,
      path: '',
      reason: 'not JSON',
    })
  })

  it('refuses text over the byte limit before parsing it, counting UTF-8 bytes', () => {
    const limits = { maxBytes: 120, maxDepth: 64 }
    const padding = (n: number, ch: string) => `"${ch.repeat(n)}"`
    const base = callText('""').length - 2
    expect(decodeMessage(callText(padding(120 - base - 2, 'a')), 'toPage', limits).ok).toBe(true)
    expect(decodeMessage(callText(padding(120 - base - 1, 'a')), 'toPage', limits)).toMatchObject({
      reason: 'message too large',
    })
    // "é" is 2 bytes, "😀" 4 bytes in UTF-8 (2 UTF-16 units).
    expect(decodeMessage(callText(padding(30, 'é')), 'toPage', limits)).toMatchObject({
      reason: 'message too large',
    })
    expect(decodeMessage(callText(padding(9, '😀')), 'toPage', limits).ok).toBe(true)
    expect(decodeMessage(callText(padding(11, '😀')), 'toPage', limits)).toMatchObject({
      reason: 'message too large',
    })
  })

  it('refuses text nested past the depth limit without parsing it', () => {
    const deep = '['.repeat(2_000_000)
    expect(decodeMessage(deep, 'toPage')).toEqual({
      ok: false,
      path: '',
      reason: 'message too large',
    })
    const limits = { maxBytes: 10_000_000 }
    expect(decodeMessage(deep, 'toPage', limits)).toEqual({
      ok: false,
      path: '',
      reason: 'message too deep',
    })
    // Brackets inside strings do not count; escaped quotes do not end a string.
    expect(decodeMessage(callText(`"\\"${'['.repeat(200)}"`), 'toPage').ok).toBe(true)
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n)
    expect(decodeMessage(callText(nested(63)), 'toPage').ok).toBe(true)
    expect(decodeMessage(callText(nested(64)), 'toPage')).toMatchObject({
      reason: 'message too deep',
    })
  })

  it('walks non-text values within the limits and copies them', () => {
    const input = { list: [1, 2, 3] }
    const raw = { protocol: 1, type: 'call', clientId, id: 'c-1', tool: 'a', input }
    const check = decodeMessage(raw, 'toPage')
    expect(check.ok).toBe(true)
    input.list.push(4)
    expect(check.ok && check.message.type === 'call' && check.message.input).toEqual({
      list: [1, 2, 3],
    })
    const big = { ...raw, input: 'x'.repeat(2_000_000) }
    expect(decodeMessage(big, 'toPage')).toMatchObject({ ok: false, reason: 'message too large' })
    const wide = { ...raw, input: new Array(2_000_000).fill(0) }
    expect(decodeMessage(wide, 'toPage')).toMatchObject({ ok: false, reason: 'message too large' })
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(decodeMessage({ ...raw, input: cycle }, 'toPage')).toMatchObject({
      ok: false,
      reason: 'message too deep',
    })
    expect(decodeMessage({ ...raw, input: new Date() }, 'toPage').ok).toBe(false)
    expect(decodeMessage(42, 'toPage').ok).toBe(false)
  })

  it('uses larger default limits towards agents, which receive results', () => {
    expect(DEFAULT_MESSAGE_LIMITS.toPage).toEqual({ maxBytes: 1_048_576, maxDepth: 64 })
    expect(DEFAULT_MESSAGE_LIMITS.toAgent.maxBytes).toBeGreaterThan(1_048_576)
    const text = encodeMessage(result('x'.repeat(2_000_000)))!
    expect(decodeMessage(text, 'toAgent').ok).toBe(true)
  })
})

describe('encodeMessage', () => {
  it('applies JSON semantics: toJSON, Date as ISO string, undefined dropped', () => {
    const when = new Date(Date.UTC(2025, 0, 2, 3, 4, 5))
    const money = { toJSON: () => '12.50 EUR' }
    const text = encodeMessage(result({ when, money, gone: undefined, list: [undefined, 1] }))
    expect(JSON.parse(text!).result.data).toEqual({
      when: '2025-01-02T03:04:05.000Z',
      money: '12.50 EUR',
      list: [null, 1],
    })
  })

  it('keeps shared references that are not cycles', () => {
    const shared = { a: 1 }
    expect(JSON.parse(encodeMessage(result([shared, shared]))!).result.data).toEqual([
      { a: 1 },
      { a: 1 },
    ])
  })

  it('returns undefined for what JSON cannot carry faithfully', () => {
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    const bad = [
      cycle,
      { fn: () => 1 },
      [() => 1],
      10n,
      { n: 10n },
      Number.NaN,
      { n: Infinity },
      -Infinity,
      Symbol('s'),
      {
        toJSON() {
          throw new Error('boom')
        },
      },
    ]
    for (const data of bad) expect(encodeMessage(result(data))).toBeUndefined()
  })

  it('refuses results nested past the depth agents accept', () => {
    let deep: unknown = 1
    for (let i = 0; i < 200; i++) deep = [deep]
    expect(encodeMessage(result(deep))).toBeUndefined()
    expect(encodeMessage(result(deep), { maxDepth: 300 })).toBeDefined()
  })
})
