import fc from 'fast-check'
import { it } from 'vitest'
import { z } from 'zod'
import {
  createToolmark,
  ok,
  type Caller,
  type Policy,
  type Toolmark,
  type ToolResult,
} from '@toolmark/core'
import { bridge } from '@toolmark/core/bridge'
import { createFormTools } from '@toolmark/core/forms'
import { memoryForm, same } from './support/memoryForm'
import { prototypeSnapshot } from './support/results'
import { Tally, describe, seedFor } from './support/row'

const RUNS_PER_ROUTE = 1_000

const FORBIDDEN = ['__proto__', 'constructor', 'prototype'] as const
const AGENTS: Caller[] = ['inapp', 'webmcp', 'mcp', 'test']
const CLASSES = ['destructive', 'consequential', 'readOnly', 'none'] as const

/** What a real pollution would have added: any of these readable on a fresh object is a leak. */
const MARK = 'polluted_by_fuzz'
const leaked = () =>
  MARK in {} || 'allow' in {} || 'inapp' in {} || 'mcp' in {} || 'queuePerScope' in {}

/**
 * Puts `{ [forbidden]: payload }` into a JSON value at the object `at` picks, as JSON text
 * parsed back: the way hostile input arrives (JSON.parse makes `__proto__` an own key).
 */
function inject(value: unknown, key: string, payload: unknown, at: number): unknown {
  const objects: Record<string, unknown>[] = []
  const collect = (v: unknown) => {
    if (v === null || typeof v !== 'object') return
    if (!Array.isArray(v)) objects.push(v as Record<string, unknown>)
    for (const child of Object.values(v)) collect(child)
  }
  const copy = JSON.parse(JSON.stringify(value ?? {}))
  collect(copy)
  const target = objects.length > 0 ? objects[at % objects.length] : copy
  const text = JSON.stringify(payload)
  // Rebuild the chosen object's JSON with the extra key written out, then parse everything.
  const marker = `"${MARK}_slot"`
  Object.defineProperty(target, `${MARK}_slot`, { value: 0, enumerable: true })
  return JSON.parse(JSON.stringify(copy).replace(`${marker}:0`, `"${key}":${text}`))
}

const payload = fc.oneof(
  fc.constant({ [MARK]: true }),
  fc.constant({ prototype: { [MARK]: true } }),
  fc.constant({ allow: ['destructive'], inapp: 'inline', queuePerScope: 1 }),
  fc.constant({ mcp: { allow: [...CLASSES] } }),
)
const forbidden = fc.constantFrom(...FORBIDDEN)

/** Every own-property name on the objects a value holds, and whether each object is plain. */
function plainThroughout(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value !== 'object' || seen.has(value)) return true
  seen.add(value)
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false
  return Object.values(value).every((v) => plainThroughout(v, seen))
}

/** Whether a caller's policy entry, or its `tools`, has a forbidden key of its own. */
function hasForbiddenKey(entry: unknown): boolean {
  if (entry === null || typeof entry !== 'object') return false
  const keys = Object.keys(entry)
  const tools = (entry as Record<string, unknown>).tools
  const inTools =
    tools !== null &&
    typeof tools === 'object' &&
    Object.keys(tools).some((k) => (FORBIDDEN as readonly string[]).includes(k))
  return inTools || keys.some((k) => (FORBIDDEN as readonly string[]).includes(k))
}

/** Visible tool names per agent caller. */
const visibility = (tm: Toolmark) =>
  AGENTS.map((caller) =>
    tm
      .manifest({ caller })
      .tools.map((t) => t.name)
      .join(','),
  )

function toolsOn(tm: Toolmark) {
  tm.register({
    name: 'tickets.list',
    description: 'Lists',
    hints: { readOnly: true },
    run: () => ok([]),
  })
  tm.register({
    name: 'tickets.close',
    description: 'Closes',
    hints: { consequential: true },
    run: () => ok(1),
  })
  tm.register({
    name: 'tickets.delete',
    description: 'Deletes',
    hints: { destructive: true },
    run: () => ok(1),
  })
  tm.register({ name: 'notes.add', description: 'Adds', run: () => ok(1) })
  // A dialog is mounted: confirmable tools are visible to inline callers the policy allows.
  tm.confirmations.attachPresenter()
  return tm
}

/** Runs `fn` while Object.prototype carries `props` (as a polluting library would leave it). */
function whilePolluted<T>(props: Record<string, unknown>, fn: () => T): T {
  const keys = Object.keys(props)
  for (const key of keys) (Object.prototype as Record<string, unknown>)[key] = props[key]
  try {
    return fn()
  } finally {
    for (const key of keys) delete (Object.prototype as Record<string, unknown>)[key]
  }
}

const callerPolicy = fc.record(
  {
    allow: fc.subarray([...CLASSES]),
    tools: fc.record(
      {
        allow: fc.subarray(['tickets.*', 'notes.add', 'tickets.list']),
        deny: fc.subarray(['tickets.delete', 'notes.*']),
      },
      { requiredKeys: [] },
    ),
    rateLimit: fc.constant({ calls: 100, perMs: 1_000 }),
  },
  { requiredKeys: [] },
)
const policy = fc.record(
  { inapp: callerPolicy, webmcp: callerPolicy, mcp: callerPolicy, test: callerPolicy },
  { requiredKeys: [] },
)
/** What a pollution of Object.prototype could try to grant through policy and options. */
const pollution = fc.constantFrom<Record<string, unknown>>(
  { mcp: { allow: [...CLASSES] }, webmcp: { allow: [...CLASSES] } },
  { allow: [...CLASSES] },
  { tools: { allow: ['tickets.*'] }, deny: [] },
  { inapp: 'inline', test: 'inline' },
  { queuePerScope: 1, pendingConfirmations: 1, callTimeoutMs: 1, dev: true },
  {
    policy: { mcp: { allow: [...CLASSES] } },
    limits: { queuePerScope: 1 },
    confirm: { inapp: 'inline' },
  },
)

it('no prototype-pollution path is accepted, and Object.prototype stays untouched', async (context) => {
  const seed = seedFor('pollution')
  const tally = new Tally(seed)
  const before = prototypeSnapshot()
  const counts = { fills: 0, inputs: 0, policies: 0, options: 0, messages: 0 }
  const check = (route: string, holds: boolean, what: () => string) => {
    tally.check(holds, () => `${route}: ${what()}`)
    tally.check(!leaked(), () => `${route}: Object.prototype was polluted by ${what()}`)
  }

  // 1. Fill paths: a forbidden segment anywhere in a fill is refused and writes nothing.
  const fillValues = fc.record(
    {
      title: fc.string({ maxLength: 5 }),
      customer: fc.record({
        name: fc.string({ maxLength: 5 }),
        address: fc.record({ city: fc.string({ maxLength: 5 }) }),
      }),
      items: fc.oneof(
        fc.array(fc.record({ product: fc.constant('Paper'), qty: fc.constant(1) }), {
          minLength: 1,
          maxLength: 2,
        }),
        fc.record({
          $append: fc.array(fc.record({ product: fc.constant('Toner'), qty: fc.constant(2) }), {
            minLength: 1,
            maxLength: 2,
          }),
        }),
      ),
    },
    { requiredKeys: [] },
  )
  const fillSchema = z.object({
    title: z.string(),
    customer: z.object({ name: z.string(), address: z.object({ city: z.string() }) }),
    items: z.array(z.object({ product: z.string(), qty: z.number() })),
  })
  await fc.assert(
    fc.asyncProperty(
      fillValues,
      forbidden,
      payload,
      fc.nat(),
      fc.boolean(),
      async (values, key, load, at, wrapped) => {
        tally.runs++
        counts.fills++
        const tm = createToolmark({ dev: false })
        const form = memoryForm({
          title: '',
          customer: { name: '', address: { city: '' } },
          items: [],
        })
        createFormTools(tm, form.adapter, { name: 'f', description: 'A form', schema: fillSchema })
        const input = wrapped
          ? { values: inject(values, key, load, at) }
          : inject({ values }, key, load, at)
        const start = structuredClone(form.values)
        try {
          const result = await tm.call('f.fill', input)
          check(
            'fill',
            result.status !== 'ok' && same(form.values, start) && form.writes.length === 0,
            () => `${describe(input)} → ${describe(result)}`,
          )
        } catch (error) {
          tally.threw(`fill ${describe(input)}`, error)
        }
      },
    ),
    { numRuns: RUNS_PER_ROUTE, seed },
  )

  // 2. Tool inputs: whatever the schema, a run never sees a swapped prototype.
  const seenByRun: unknown[] = []
  const tm = createToolmark({ dev: false })
  const record = (input: unknown) => {
    seenByRun.push(input)
    return ok(null)
  }
  tm.register({ name: 'any', description: 'Any', input: z.any(), run: record })
  tm.register({ name: 'obj', description: 'Object', input: z.object({ a: z.any() }), run: record })
  tm.register({
    name: 'loose',
    description: 'Loose',
    input: z.looseObject({ a: z.any().optional() }),
    run: record,
  })
  tm.register({
    name: 'rec',
    description: 'Record',
    input: z.record(z.string(), z.any()),
    run: record,
  })
  tm.register({
    name: 'sens',
    description: 'Sensitive',
    input: z.any(),
    sensitive: ['__proto__', 'constructor.prototype', '**.a'],
    run: record,
  })
  tm.events.on('call', (event) => seenByRun.push(event.input))
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('any', 'obj', 'loose', 'rec', 'sens'),
      fc.jsonValue({ maxDepth: 3 }),
      forbidden,
      payload,
      fc.nat(),
      async (name, value, key, load, at) => {
        tally.runs++
        counts.inputs++
        const input = inject({ a: value }, key, load, at)
        seenByRun.length = 0
        try {
          const result: ToolResult = await tm.call(name, input, { caller: 'test' })
          check(
            'input',
            seenByRun.every((v) => plainThroughout(v)),
            () => `${name} ${describe(input)} → ${describe(result)}`,
          )
        } catch (error) {
          tally.threw(`input ${describe(input)}`, error)
        }
      },
    ),
    { numRuns: RUNS_PER_ROUTE, seed },
  )

  // 3. Policies: forbidden keys grant nothing, and neither does a polluted Object.prototype.
  const clean = (p: Policy | undefined) =>
    visibility(toolsOn(createToolmark({ dev: false, policy: p })))
  fc.assert(
    fc.property(policy, forbidden, payload, fc.nat(), pollution, (p, key, load, at, props) => {
      tally.runs++
      counts.policies++
      const expected = clean(p)
      // Object.prototype polluted: the same tools for everyone.
      const polluted = whilePolluted(props, () =>
        visibility(toolsOn(createToolmark({ dev: false, policy: p }))),
      )
      check(
        'policy',
        describe(polluted) === describe(expected),
        () =>
          `pollution ${describe(props)} changed ${describe(p)}: ${describe(polluted)} vs ${describe(expected)}`,
      )
      // A forbidden key in the policy: at the top it names no caller (ignored); inside a caller's
      // entry it makes that entry invalid, and that caller gets nothing (fail closed).
      const injected = inject(p, key, load, at) as Record<string, unknown>
      const got = visibility(toolsOn(createToolmark({ dev: false, policy: injected as Policy })))
      const broken = AGENTS.map((caller) => hasForbiddenKey(injected[caller]))
      const want = expected.map((names, i) => (broken[i] ? '' : names))
      check(
        'policy',
        describe(got) === describe(want),
        () => `${describe(injected)} gave ${describe(got)}, expected ${describe(want)}`,
      )
      // The same through setPolicy.
      const later = toolsOn(createToolmark({ dev: false }))
      later.setPolicy(injected as Policy)
      check(
        'setPolicy',
        describe(visibility(later)) === describe(want),
        () => `setPolicy(${describe(injected)})`,
      )
    }),
    { numRuns: RUNS_PER_ROUTE, seed },
  )

  // 4. Options: limits and confirmation modes come from own properties only.
  await fc.assert(
    fc.asyncProperty(
      forbidden,
      payload,
      pollution,
      fc.constantFrom('limits', 'confirm', 'top'),
      async (key, load, props, where) => {
        tally.runs++
        counts.options++
        const base: Record<string, unknown> = {
          dev: false,
          limits: { queuePerScope: 7 },
          confirm: {},
        }
        const options =
          where === 'top'
            ? (inject(base, key, load, 0) as Record<string, unknown>)
            : { ...base, [where]: inject(base[where], key, load, 0) }
        const made = whilePolluted(props, () => {
          const registry = createToolmark(options as never)
          registry.register({
            name: 'close',
            description: 'Closes',
            hints: { consequential: true },
            run: () => ok(1),
          })
          return registry
        })
        const limitsKept =
          made.limits.queuePerScope === 7 &&
          made.limits.pendingConfirmations === 100 &&
          made.limits.callTimeoutMs === 120_000
        const asked = await made.call('close', {}, { caller: 'inapp' })
        check(
          'options',
          limitsKept && asked.status === 'needs_confirmation' && made.dev === false,
          () =>
            `${describe(options)} with ${describe(props)}: limits ${describe(made.limits)}, call ${describe(asked)}`,
        )
      },
    ),
    { numRuns: RUNS_PER_ROUTE, seed },
  )

  // 5. Protocol messages: a forbidden key at the top is dropped; inside an input it is data.
  const page = toolsOn(createToolmark({ dev: false }))
  page.register({
    name: 'echo',
    description: 'Echoes',
    input: z.any(),
    run: (input) => ok(plainThroughout(input)),
  })
  let deliver!: (raw: unknown) => void
  const sent: Record<string, any>[] = []
  const stop = page.use(
    bridge({
      transport: {
        send: (text) => sent.push(JSON.parse(text)),
        onMessage: (listener) => {
          deliver = listener
          return () => {}
        },
      },
    }),
  )
  let n = 0
  const answeredTop: string[] = []
  await fc.assert(
    fc.asyncProperty(
      forbidden,
      payload,
      fc.nat(),
      fc.boolean(),
      fc.jsonValue({ maxDepth: 2 }),
      async (key, load, at, top, value) => {
        tally.runs++
        counts.messages++
        const id = `m${n++}`
        const message = {
          protocol: 1,
          type: 'call',
          clientId: page.clientId,
          id,
          tool: 'echo',
          input: { a: value },
        }
        const hostile = top
          ? JSON.stringify(message).replace('{', `{"${key}":${JSON.stringify(load)},`)
          : JSON.stringify({ ...message, input: inject(message.input, key, load, at) })
        try {
          deliver(hostile)
        } catch (error) {
          tally.threw(`message ${hostile}`, error)
        }
        for (let i = 0; i < 4; i++) await Promise.resolve()
        await new Promise((resolve) => setTimeout(resolve, 0))
        const answer = sent.find((m) => m.type === 'result' && m.id === id)
        if (top && answer) answeredTop.push(hostile)
        check(
          'message',
          top
            ? answer === undefined
            : answer?.result?.status === 'ok' && answer.result.data === true,
          () => `${hostile} → ${describe(answer)}`,
        )
      },
    ),
    { numRuns: RUNS_PER_ROUTE, seed },
  )
  stop()

  tally.check(prototypeSnapshot() === before, () => 'a built-in prototype changed')
  const thousands = (count: number) => count.toLocaleString('en-US')
  const row = tally.report(context, {
    property: 'prototype-pollution paths (`__proto__`, `constructor`, `prototype`)',
    unit: 'attempts',
    holds: `0 accepted: ${thousands(counts.fills)} fills refused with the form unchanged, ${thousands(counts.inputs)} tool inputs reached \`run\` with plain prototypes only, ${thousands(counts.policies)} policies and ${thousands(counts.options)} option sets (with and without a polluted Object.prototype) granted nothing, ${thousands(counts.messages)} protocol messages (top-level keys dropped); Object.prototype untouched`,
  })
  if (row.throws + row.violations > 0) throw new Error(row.examples.join('\n'))
})
