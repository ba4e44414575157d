import fc from 'fast-check'
import { z } from 'zod'
import { createToolmark, ok, type ToolResult } from '../src/index'

const STATUSES = ['ok', 'invalid', 'refused', 'needs_confirmation', 'cancelled', 'error']

const isDeepFrozen = (value: unknown, seen = new Set<unknown>()): boolean => {
  if (value === null || typeof value !== 'object' || seen.has(value)) return true
  seen.add(value)
  return (
    Object.isFrozen(value) &&
    Object.values(value as Record<string, unknown>).every((v) => isDeepFrozen(v, seen))
  )
}

const setup = () => {
  const tm = createToolmark({ dev: false })
  tm.register({
    name: 'tickets.search',
    description: 'Searches',
    input: z.object({ query: z.string(), limit: z.number().int().max(50).optional() }),
    hints: { readOnly: true },
    run: (input) => ok({ query: input.query, hits: [] }),
  })
  tm.register({
    name: 'tickets.close',
    description: 'Closes',
    input: z.object({ id: z.number() }),
    hints: { consequential: true },
    run: (input) => ok(input.id),
  })
  tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
  tm.register({
    name: 'echo',
    description: 'Echoes anything back',
    input: z.any(),
    run: (input) => ok(input as never),
  })
  return tm
}

const names = fc.oneof(
  fc.constantFrom('tickets.search', 'tickets.close', 'ping', 'echo', 'missing', '', '__proto__'),
  fc.string(),
  fc.anything(),
)
const callers = fc.oneof(
  fc.constantFrom('inapp', 'webmcp', 'mcp', 'test', 'human', undefined),
  fc.anything(),
)
const options = fc.oneof(
  fc.record({ caller: callers, rev: fc.oneof(fc.integer(), fc.anything()) }, { requiredKeys: [] }),
  fc.anything(),
)

describe('tm.call under arbitrary arguments', () => {
  it('never throws and always answers a frozen, cloneable result of one of the six statuses', async () => {
    const tm = setup()
    await fc.assert(
      fc.asyncProperty(names, fc.anything(), options, async (name, input, opts) => {
        let result: ToolResult
        try {
          result = await (tm.call as (...a: unknown[]) => Promise<ToolResult>)(name, input, opts)
        } catch (e) {
          throw new Error(`tm.call threw: ${String(e)}`, { cause: e })
        }
        expect(STATUSES).toContain(result.status)
        expect(isDeepFrozen(result)).toBe(true)
        expect(() => structuredClone(result)).not.toThrow()
      }),
      { numRuns: 500 },
    )
  })

  it('answers arbitrary JSON input to a typed tool with ok or invalid, never running on bad input', async () => {
    const tm = setup()
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (input) => {
        const result = await tm.call('tickets.search', input)
        const valid = z
          .object({ query: z.string(), limit: z.number().int().max(50).optional() })
          .safeParse(input).success
        expect(result.status).toBe(valid ? 'ok' : 'invalid')
      }),
      { numRuns: 300 },
    )
  })

  it('never lets input keys reach Object.prototype', async () => {
    const tm = setup()
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom('__proto__', 'constructor', 'prototype', 'a'),
          fc.jsonValue(),
        ),
        async (payload) => {
          const input = JSON.parse(JSON.stringify(payload))
          await tm.call('echo', input)
          await tm.call('tickets.search', input)
          expect(Object.keys(Object.prototype)).toEqual([])
        },
      ),
      { numRuns: 200 },
    )
  })
})
