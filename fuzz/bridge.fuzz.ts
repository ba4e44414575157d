import Ajv2020 from 'ajv/dist/2020'
import fc from 'fast-check'
import { it } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok, type ErrorEvent } from '@toolmark/core'
import { bridge, type Transport } from '@toolmark/core/bridge'
import { decodeMessage, directionSchemas } from '@toolmark/core/protocol'
import { prototypeSnapshot, shapeProblem } from './support/results'
import { Tally, describe, seedFor } from './support/row'

const MESSAGES = 10_000
const MAX_BYTES = 4_096
const MAX_DEPTH = 16

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** The published JSON Schema, compiled by an independent validator: the oracle for "valid". */
const schemaValid = new Ajv2020({ strict: true }).compile(directionSchemas.toPage)

it('the bridge survives hostile protocol messages and answers only valid ones, once', async (context) => {
  const seed = seedFor('bridge')
  const tally = new Tally(seed)
  const tm = createToolmark({
    dev: false,
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
  tm.register({
    name: 'tickets.close',
    description: 'Closes',
    input: z.object({ id: z.number() }),
    hints: { consequential: true },
    run: (input) => ok(input),
  })
  const errors: ErrorEvent[] = []
  tm.events.on('error', (event) => errors.push(event))
  // Confirmations the agent's calls asked for: hostile messages try to answer them.
  const asked: string[] = []
  let approvals = 0
  tm.events.on('confirm', (event) => {
    if (event.status === 'pending') asked.push(event.entry.id)
    if (event.status === 'approved') approvals++
  })
  let deliver!: (raw: unknown) => void
  const sent: any[] = []
  const transport: Transport = {
    send: (text) => sent.push(JSON.parse(text)),
    onMessage: (listener) => {
      deliver = listener
      return () => {}
    },
  }
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown) => unhandled.push(reason)
  process.on('unhandledRejection', onUnhandled)
  await settle()
  const stop = tm.use(bridge({ transport }))
  const before = prototypeSnapshot()

  const anything = fc.anything({
    maxDepth: 3,
    key: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor')),
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
  const tool = fc.constantFrom('echo', 'tickets.count', 'tickets.close', 'missing', 'a..b', '')
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
    // A call that asks a person (the confirmations hostile messages then try to answer).
    fc.record({
      protocol: fc.constant(1),
      type: fc.constant('call'),
      clientId: fc.constant(clientId),
      id: fc.uuid(),
      tool: fc.constant('tickets.close'),
      input: fc.record({ id: fc.integer() }),
    }),
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
        .tuple(fc.oneof(fc.string({ maxLength: 8 }), fc.constant('__proto__')), anything)
        .map(([key, value]) => {
          const copy = { ...message }
          Object.defineProperty(copy, key, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          })
          return copy
        }),
      fc.tuple(fc.constantFrom(...Object.keys(message)), anything).map(([key, value]) => ({
        ...message,
        [key]: value,
      })),
      fc.constantFrom(0, 2, '1', null, 1.5).map((protocol) => ({ ...message, protocol })),
      fc
        .constantFrom('manifest', 'result', 'confirmed', 'progress', 'ping', 'approve', '__proto__')
        .map((type) => ({ ...message, type })),
      fc.nat({ max: 40 }).map((depth) => {
        let input: unknown = 1
        for (let i = 0; i < depth; i++) input = [input]
        return { ...message, input }
      }),
      fc.nat({ max: 8_000 }).map((n) => ({ ...message, input: 'x'.repeat(n) })),
      fc.constant([message]),
    )
  const mutated = valid.chain(mutate)
  /** An agent answering a confirmation itself: no message type does that. */
  const selfApproval = fc
    .record({
      type: fc.constantFrom('approve', 'confirm', 'confirmed', 'reject', 'call'),
      pick: fc.nat(),
      id,
    })
    .map(({ type, pick, id: messageId }) => ({
      protocol: 1,
      type,
      clientId,
      id: messageId,
      confirmId: asked.length > 0 ? asked[pick % asked.length] : 'cf_unknown',
      result: { status: 'ok', data: null },
    }))
  const raw = fc.oneof(
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
    { weight: 2, arbitrary: mutated },
    selfApproval.map((m) => JSON.stringify(m)),
    anything,
  )

  let invalidMessages = 0
  let hellos = 0
  const answerable = new Map<string, number>()
  const classify = (value: unknown) => {
    const check = decodeMessage(value, 'toPage', { maxBytes: MAX_BYTES, maxDepth: MAX_DEPTH })
    // Differential: within the bounds, the hand-written validator and the published JSON Schema
    // agree on what is valid.
    if (typeof value === 'string' && value.length < MAX_BYTES / 4) {
      let parsed: { value: unknown } | undefined
      try {
        parsed = { value: JSON.parse(value) }
      } catch {}
      if (parsed && !/(\[|\{)(\s*(\[|\{)){15}/.test(value)) {
        const agreed = check.ok === schemaValid(parsed.value)
        tally.check(agreed, () => `validator and JSON Schema disagree on ${value}`)
      }
    }
    if (!check.ok) {
      invalidMessages++
      return
    }
    const m = check.message
    if (m.type === 'hello') {
      if (m.clientId === clientId || m.clientId === '*') hellos++
      return
    }
    if (m.clientId !== clientId || m.type === 'cancel') return
    answerable.set(m.id, (answerable.get(m.id) ?? 0) + 1)
  }

  fc.assert(
    fc.property(raw, (value) => {
      tally.runs++
      classify(value)
      try {
        deliver(value)
      } catch (error) {
        tally.threw(`delivering ${describe(value)}`, error)
      }
    }),
    { numRuns: MESSAGES, seed },
  )
  // Let every call settle (a confirmation answered later sends `confirmed`, not `result`).
  for (let i = 0; i < 10; i++) await settle()
  tally.check(
    asked.length > 0,
    () => 'no call asked for a confirmation: the run proves nothing about them',
  )
  tally.check(approvals === 0, () => `${approvals} confirmations were approved by messages`)
  await tm.confirmations.rejectMany('all')
  for (let i = 0; i < 5; i++) await settle()

  const results = sent.filter((m) => m.type === 'result')
  const answers = new Map<string, number>()
  for (const m of results) answers.set(m.id, (answers.get(m.id) ?? 0) + 1)
  let answeredInvalid = 0
  let answeredTwice = 0
  let unanswered = 0
  for (const [answered, times] of answers) {
    if (!answerable.has(answered)) answeredInvalid++
    else if (times > answerable.get(answered)!) answeredTwice++
  }
  for (const [asked, times] of answerable) if (times === 1 && answers.get(asked) !== 1) unanswered++
  tally.check(
    answeredInvalid === 0,
    () => `${answeredInvalid} answers to messages that were not valid calls`,
  )
  tally.check(answeredTwice === 0, () => `${answeredTwice} ids answered more often than asked`)
  tally.check(unanswered === 0, () => `${unanswered} valid calls never answered`)
  for (const m of [...results, ...sent.filter((s) => s.type === 'confirmed')]) {
    const problem = shapeProblem(m.result)
    tally.check(problem === undefined, () => `sent ${describe(m)}: ${problem}`)
  }
  const manifests = sent.filter((m) => m.type === 'manifest').length
  tally.check(manifests === 1 + hellos, () => `${manifests} manifests for ${hellos} hellos`)
  const dropped = errors.filter((e) => e.code === 'invalid_message')
  const crashes = dropped.filter((e) => e.cause !== undefined).length
  tally.check(crashes === 0, () => `${crashes} messages made the bridge fail (caught)`)
  tally.check(
    dropped.length >= invalidMessages,
    () => `${invalidMessages} invalid, ${dropped.length} dropped`,
  )
  const unexpected = errors.filter(
    (e) => e.code !== 'invalid_message' && e.code !== 'result_not_serializable',
  )
  tally.check(unexpected.length === 0, () => `unexpected error events: ${describe(unexpected)}`)
  tally.check(unhandled.length === 0, () => `unhandled rejections: ${describe(unhandled)}`)
  tally.check(prototypeSnapshot() === before, () => 'a built-in prototype changed')

  // Still serving after the storm.
  const last = sent.length
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
  tally.check(
    describe(sent.slice(last)) ===
      describe([
        {
          protocol: 1,
          type: 'result',
          clientId,
          id: 'after-fuzz',
          result: { status: 'ok', data: { a: 1 } },
        },
      ]),
    () => `after the run the bridge answered ${describe(sent.slice(last))}`,
  )
  stop()
  process.off('unhandledRejection', onUnhandled)

  const row = tally.report(context, {
    property: 'hostile protocol messages to the bridge',
    unit: 'messages',
    holds: `0 crashes; ${invalidMessages.toLocaleString('en-US')} invalid ones dropped unanswered; ${answerable.size.toLocaleString('en-US')} calls and describes answered exactly once; ${asked.length} confirmations asked, none approved by any message; validator = published JSON Schema`,
  })
  if (row.throws + row.violations > 0) throw new Error(row.examples.join('\n'))
})
