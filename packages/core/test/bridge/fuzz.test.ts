import Ajv2020 from 'ajv/dist/2020'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { ErrorEvent } from '@toolmark/core'
import { bridge } from '@toolmark/core/bridge'
import type { Transport } from '@toolmark/core/bridge'
import { decodeMessage, directionSchemas } from '@toolmark/core/protocol'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** The schema, compiled by an independent validator: the fuzz oracle for "valid". */
const schemaValid = new Ajv2020({ strict: true }).compile(directionSchemas.toPage)

const MAX_BYTES = 4_096
const MAX_DEPTH = 16

function parse(raw: unknown): { json: true; value: unknown } | { json: false } {
  if (typeof raw === 'string') {
    try {
      return { json: true, value: JSON.parse(raw) }
    } catch {
      return { json: false }
    }
  }
  return { json: false }
}

describe('bridge under fuzzing', () => {
  it('survives 10 000 random and mutated messages, answers only valid ones, and still works', async () => {
    const tm = createToolmark({
      dev: true,
      limits: { messageBytes: MAX_BYTES, messageDepth: MAX_DEPTH },
    })
    const clientId = tm.clientId
    tm.register({
      name: 'echo',
      description: 'Echoes',
      input: z.unknown(),
      run: (input) => ok(input),
    })
    tm.register({ name: 'tickets.count', description: 'Counts', run: () => ok(1) })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    let deliver!: (raw: unknown) => void
    const sent: any[] = []
    const transport: Transport = {
      send: (text) => sent.push(JSON.parse(text)),
      onMessage: (listener) => {
        deliver = listener
        return () => {}
      },
    }
    await settle() // let the registrations' revision pass before attaching
    const stop = tm.use(bridge({ transport }))

    const anything = fc.anything({
      maxDepth: 3,
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      withUnicodeString: true,
    })
    const id = fc.oneof({ arbitrary: fc.uuid(), weight: 4 }, fc.string({ maxLength: 6 }))
    const tool = fc.constantFrom('echo', 'tickets.count', 'missing', 'tickets..count', '')
    const address = fc.oneof(
      { arbitrary: fc.constant(clientId), weight: 4 },
      fc.constantFrom('page_other', '*', ''),
    )
    const valid = fc.oneof(
      fc.record({ protocol: fc.constant(1), type: fc.constant('hello'), clientId: address }),
      fc.record(
        {
          protocol: fc.constant(1),
          type: fc.constant('call'),
          clientId: address,
          id,
          tool,
          input: fc.jsonValue({ maxDepth: 4 }),
          rev: fc.nat(),
        },
        { requiredKeys: ['protocol', 'type', 'clientId', 'id', 'tool', 'input'] },
      ),
      fc.record({
        protocol: fc.constant(1),
        type: fc.constant('describe'),
        clientId: address,
        id,
        tool,
      }),
      fc.record({ protocol: fc.constant(1), type: fc.constant('cancel'), clientId: address, id }),
    )
    const mutate = (message: Record<string, unknown>) =>
      fc.oneof(
        { arbitrary: fc.constant(message), weight: 6 },
        fc.constantFrom(...Object.keys(message)).map((key) => {
          const copy = { ...message }
          delete copy[key]
          return copy
        }),
        fc
          .tuple(fc.string({ maxLength: 8 }), anything)
          .map(([key, value]) => ({ ...message, [key]: value })),
        fc.tuple(fc.constantFrom(...Object.keys(message)), anything).map(([key, value]) => ({
          ...message,
          [key]: value,
        })),
        fc.constantFrom(0, 2, '1', null, 1.5).map((protocol) => ({ ...message, protocol })),
        fc
          .constantFrom('manifest', 'result', 'confirmed', 'progress', 'ping', 'approve')
          .map((type) => ({
            ...message,
            type,
          })),
        fc.nat({ max: 40 }).map((depth) => {
          let input: unknown = 1
          for (let i = 0; i < depth; i++) input = [input]
          return { ...message, input }
        }),
        fc.nat({ max: 8_000 }).map((n) => ({ ...message, input: 'x'.repeat(n) })),
        fc.constant([message]),
      )
    const mutated = valid.chain(mutate)
    const raw = fc.oneof(
      // Text on the wire: mostly messages, some garbage.
      {
        weight: 5,
        arbitrary: mutated.map((m) => {
          try {
            return JSON.stringify(m) ?? 'undefined'
          } catch {
            return '{'
          }
        }),
      },
      fc.string({ maxLength: 64 }),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      // Values a custom transport might hand over as they are.
      { weight: 2, arbitrary: mutated },
      anything,
    )

    let invalidInputs = 0
    let repeated = 0
    let hellos = 0
    const answerable = new Map<string, number>()
    const record = (value: unknown) => {
      const check = decodeMessage(value, 'toPage', { maxBytes: MAX_BYTES, maxDepth: MAX_DEPTH })
      // Differential check: for JSON text within the limits, the hand-written validator and the
      // published JSON Schema must agree.
      const parsed = parse(value)
      if (parsed.json && typeof value === 'string' && value.length < MAX_BYTES / 4) {
        const shallow = !/(\[|\{)(\s*(\[|\{)){15}/.test(value)
        if (shallow) expect(check.ok, value).toBe(schemaValid(parsed.value))
      }
      if (!check.ok) {
        invalidInputs++
        return
      }
      const m = check.message
      if (m.type === 'hello') {
        if (m.clientId === clientId || m.clientId === '*') hellos++
        return
      }
      if (m.clientId !== clientId || m.type === 'cancel') return
      const seen = answerable.get(m.id) ?? 0
      if (seen > 0) repeated++
      answerable.set(m.id, seen + 1)
    }

    fc.assert(
      fc.property(raw, (value) => {
        record(value)
        expect(() => deliver(value)).not.toThrow()
      }),
      { numRuns: 10_000, seed: 20_250_101 },
    )
    for (let i = 0; i < 5; i++) await settle()

    const results = sent.filter((m) => m.type === 'result')
    const answers = new Map<string, number>()
    for (const m of results) answers.set(m.id, (answers.get(m.id) ?? 0) + 1)
    // Nothing invalid, and nothing for another page, got an answer.
    for (const [answered, times] of answers) {
      expect(answerable.has(answered), answered).toBe(true)
      expect(times).toBeLessThanOrEqual(answerable.get(answered)!)
    }
    // Every id used once got exactly one answer.
    for (const [asked, times] of answerable) if (times === 1) expect(answers.get(asked)).toBe(1)
    expect(sent.filter((m) => m.type === 'manifest')).toHaveLength(1 + hellos)
    const dropped = errors.filter((e) => e.code === 'invalid_message').length
    expect(dropped).toBeGreaterThanOrEqual(invalidInputs)
    expect(dropped).toBeLessThanOrEqual(invalidInputs + repeated)
    expect(invalidInputs).toBeGreaterThan(3_000)
    expect(answerable.size).toBeGreaterThan(300)
    expect(
      errors.filter((e) => e.code !== 'invalid_message' && e.code !== 'result_not_serializable'),
    ).toEqual([])

    // Still serving.
    const before = sent.length
    deliver(
      JSON.stringify({
        protocol: 1,
        type: 'call',
        clientId,
        id: 'after-fuzz',
        tool: 'echo',
        input: { a: 1 },
      }),
    )
    for (let i = 0; i < 3; i++) await settle()
    expect(sent.slice(before)).toEqual([
      {
        protocol: 1,
        type: 'result',
        clientId,
        id: 'after-fuzz',
        result: { status: 'ok', data: { a: 1 } },
      },
    ])
    stop()
  }, 60_000)
})
