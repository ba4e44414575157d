import fc from 'fast-check'
import { it } from 'vitest'
import { z } from 'zod'
import {
  cancelled,
  createToolmark,
  errorResult,
  invalid,
  ok,
  refuse,
  type StandardSchemaV1,
  type ToolDefinition,
  type Toolmark,
  type ToolResult,
} from '@toolmark/core'
import { prototypeSnapshot, resultProblem } from './support/results'
import { Tally, describe, randomFrom, seedFor } from './support/row'

const CALLS = 100_000
const BATCH = 4

/** Anything an exception carries: it must never reach a result (seed: details go to events). */
const LEAK = 'LEAK-7f3a'
const leaky = () => new Error(`${LEAK} database password is hunter2`)

const hang = () => new Promise<never>(() => {})
/** Settles after a few microtask hops: late, but without a timer per call. */
const later = async <T>(value: T): Promise<T> => {
  for (let i = 0; i < 3; i++) await Promise.resolve()
  return value
}

/** A Standard Schema whose validation settles after a hop, or never ("hanging validator"). */
const asyncSchema = (mode: 'later' | 'never'): StandardSchemaV1 => ({
  '~standard': {
    version: 1,
    vendor: 'fuzz',
    validate: (value) =>
      mode === 'never'
        ? hang()
        : later(
            typeof value === 'object' && value !== null && !Array.isArray(value)
              ? { value }
              : { issues: [{ message: 'Expected an object', path: [] }] },
          ),
    jsonSchema: { input: () => ({ type: 'object' }) },
  },
})

/** What a tool returns for one call: every way a `run` can misbehave, chosen by the input. */
function misbehave(input: unknown, pick: number): unknown {
  const frozenOk = Object.freeze({ status: 'ok', data: Object.freeze({ n: 1 }) })
  const cyclic: Record<string, unknown> = { a: 1 }
  cyclic.self = cyclic
  const throwingGetter = {
    status: 'ok',
    get data() {
      throw leaky()
    },
  }
  const hostileProxy = new Proxy(
    {},
    {
      get() {
        throw leaky()
      },
      ownKeys() {
        throw leaky()
      },
      getPrototypeOf() {
        throw leaky()
      },
    },
  )
  const cases: (() => unknown)[] = [
    () => input,
    () => ok(input),
    () => ({ status: 'ok', data: input, secret: LEAK }),
    () => ({ status: 'refused', code: 'x', message: 'no', rev: 1.5 }),
    () => ({ status: 'refused', code: 'x', message: 'no', extra: LEAK }),
    () => invalid([{ path: 'a', message: 'bad', detail: LEAK } as never]),
    () => invalid([{ path: 1, message: 'bad' } as never]),
    () => ({ status: 'needs_confirmation', confirmId: 'x', summary: 's', leak: LEAK }),
    () => ({ status: 'cancelled', by: 'someone' }),
    () => cancelled('signal'),
    () => errorResult('Tool said no'),
    () => ({ status: 'error' }),
    () => ok(() => LEAK),
    () => ok({ f: Symbol(LEAK) }),
    () => ok(cyclic),
    () => ok(new Date(0)),
    () => ok(new Map([[1, { a: 1 }]])),
    () => ok(new Uint8Array([1, 2, 3])),
    () => ok(new WeakMap()),
    () => ok(10n),
    () => throwingGetter,
    () => hostileProxy,
    () => new Proxy(ok(1), {}),
    () => frozenOk,
    () => Promise.resolve(ok(input)),
    () => Promise.reject(leaky()),
    () => later(refuse('later', 'after a hop')),
    () => {
      throw leaky()
    },
    () => {
      throw LEAK
    },
    () => {
      throw { toString: () => LEAK, message: LEAK }
    },
    () => undefined,
    () => null,
    () => ({ then: (resolve: (v: unknown) => void) => resolve(ok('thenable')) }),
    () => ({
      then: () => {
        throw leaky()
      },
    }),
  ]
  return cases[pick % cases.length]()
}

/** A registry with tools of every behaviour, each in its own scope (scopes run in parallel). */
function setup(dev: boolean, random: () => number) {
  const tm = createToolmark({
    dev,
    limits: { abortGraceMs: 2, callTimeoutMs: 50 },
  })
  const reg = <TInput, TOutput>(scope: string, def: ToolDefinition<TInput, TOutput>) =>
    tm.register(def, { scope: tm.scope(scope) })

  reg('plain', {
    name: 'echo',
    description: 'Echoes anything',
    input: z.any(),
    run: (input) => ok(input),
  })
  reg('typed', {
    name: 'search',
    description: 'Searches',
    input: z.object({ query: z.string(), limit: z.number().int().max(50).optional() }),
    hints: { readOnly: true, untrustedContent: true },
    run: (input) => ok({ query: input.query, hits: [] }),
  })
  reg('odd', {
    name: 'misbehave',
    description: 'Returns whatever it likes',
    input: z.any(),
    run: (input) => misbehave(input, Math.floor(random() * 1_000)) as ToolResult,
  })
  reg('slow', {
    name: 'hang',
    description: 'Never answers and ignores its signal',
    timeoutMs: 3,
    run: () => hang(),
  })
  reg('slow2', {
    name: 'sleepy',
    description: 'Answers after a hop, honouring its signal',
    input: z.any(),
    run: (input, ctx) =>
      new Promise<ToolResult>((resolve) => {
        void later(input).then((value) => resolve(ok(value)))
        ctx.signal.addEventListener('abort', () => resolve(cancelled('signal')))
      }),
  })
  reg('async', {
    name: 'validated',
    description: 'Validates asynchronously',
    input: asyncSchema('later'),
    run: (input) => ok(input),
  })
  reg('async2', {
    name: 'stuck',
    description: 'Has a validator that never settles',
    input: asyncSchema('never'),
    timeoutMs: 3,
    run: () => ok('never reached'),
  })
  reg('gated', {
    name: 'checked',
    description: 'Checks a precondition',
    input: z.any(),
    check: (input) => {
      const n = random()
      if (n < 0.3) return refuse('not_found', 'Nothing there')
      if (n < 0.4) throw leaky()
      if (n < 0.5) return Promise.resolve(undefined)
      if (n < 0.55) return input as never
      return undefined
    },
    run: (input) => ok(input),
  })
  reg('asks', {
    name: 'close',
    description: 'Closes something a person cares about',
    input: z.object({ id: z.number() }),
    hints: { consequential: true },
    summary: ({ id }) => `Close #${id}`,
    sensitive: ['secret'],
    run: (input, ctx) => {
      ctx.registerUndo(() => misbehave(input, Math.floor(random() * 1_000)) as ToolResult)
      ctx.progress({ done: 1, total: 2 })
      return ok(input)
    },
  })
  reg('asks2', {
    name: 'delete',
    description: 'Deletes for good',
    input: z.object({ id: z.number() }),
    hints: { destructive: true },
    summary: ({ id }) => `Delete #${id}`,
    run: (input) => ok(input),
  })
  reg('ctx', {
    name: 'inside',
    description: 'Uses every part of its context',
    input: z.any(),
    run: async (input, ctx) => {
      ctx.progress({ done: Number.NaN, message: LEAK } as never)
      ctx.registerUndo(random() < 0.5 ? () => ok('undone') : (LEAK as never))
      const answer = await ctx.confirm(
        random() < 0.5 ? { summary: 'Go on?' } : (input as { summary: string }),
      )
      return ok({ approved: answer.approved })
    },
  })
  return tm
}

/** Answers every confirmation a presenter would see: approve, reject or an edited input. */
function respond(tm: Toolmark, random: () => number) {
  const seen = new Set<string>()
  const detach = tm.confirmations.attachPresenter()
  const answer = async (id: string, mode: string) => {
    const n = random()
    // A deferred entry may be left pending (eviction ends it); an inline caller is waiting.
    if (mode === 'deferred' && n < 0.15) return
    if (n < 0.5) await tm.confirmations.approve(id)
    else if (n < 0.75) await tm.confirmations.reject(id, 'no')
    else {
      const edited = await tm.confirmations.approve(id, {
        input: random() < 0.5 ? { id: 9 } : { id: 'nine' },
      })
      if (edited.status === 'invalid') await tm.confirmations.reject(id)
    }
  }
  const unsubscribe = tm.confirmations.subscribe(() => {
    for (const entry of tm.confirmations.list()) {
      if (seen.has(entry.id)) continue
      seen.add(entry.id)
      queueMicrotask(() => void answer(entry.id, entry.mode))
    }
  })
  return () => {
    unsubscribe()
    detach()
  }
}

const NAMES = [
  'plain.echo',
  'typed.search',
  'odd.misbehave',
  'slow2.sleepy',
  'async.validated',
  'gated.checked',
  'asks.close',
  'asks2.delete',
  'ctx.inside',
]
/** Names no tool has. */
const UNKNOWN = ['missing', '', '__proto__', 'constructor', 'plain.echo.', 'plain']
/** Tools that only a deadline ends (a few ms each): rare, so the run stays short. */
const HANGING = ['slow.hang', 'async2.stuck']

const hostileKey = fc.oneof(
  { arbitrary: fc.string({ maxLength: 8 }), weight: 6 },
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'then', 'id', 'query'),
)
const anything = fc.anything({
  maxDepth: 3,
  maxKeys: 5,
  key: hostileKey,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
})
const input = fc.oneof(
  { arbitrary: anything, weight: 4 },
  fc.record({ query: fc.string(), limit: fc.integer({ min: -5, max: 60 }) }, { requiredKeys: [] }),
  fc.record({ id: fc.oneof(fc.integer(), fc.string()), secret: fc.string() }),
  fc.constant(undefined),
  fc.constant({}),
)
/** How a call is stopped from outside: not at all, already, after a hop, or never-abortable junk. */
const signal = fc.constantFrom(
  'none',
  'none',
  'none',
  'none',
  'none',
  'aborted',
  'abort-soon',
  'fake',
)
const call = fc.record({
  name: fc.oneof(
    { arbitrary: fc.constantFrom(...NAMES), weight: 85 },
    { arbitrary: fc.constantFrom(...HANGING), weight: 1 },
    { arbitrary: fc.constantFrom(...UNKNOWN), weight: 6 },
    { arbitrary: fc.string(), weight: 4 },
    { arbitrary: anything, weight: 4 },
  ),
  input,
  caller: fc.oneof(
    { arbitrary: fc.constantFrom('inapp', 'webmcp', 'mcp', 'test', 'human'), weight: 8 },
    fc.constantFrom(undefined, 'admin', '', '__proto__'),
    anything,
  ),
  rev: fc.oneof(fc.constant(undefined), fc.integer({ min: -1, max: 40 }), anything),
  signal,
  options: fc.constantFrom('object', 'object', 'object', 'none', 'junk'),
})
/** Something else a page or a person does meanwhile. */
const other = fc.oneof(
  fc.record({ kind: fc.constant('undo' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('undo-junk' as const), id: anything }),
  fc.record({ kind: fc.constant('answer' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('stop' as const) }),
)

type Call = typeof call extends fc.Arbitrary<infer A> ? A : never
type Other = typeof other extends fc.Arbitrary<infer A> ? A : never

it('tm.call never throws and always answers a frozen, cloneable result of one status', async (context) => {
  const seed = seedFor('calls')
  const tally = new Tally(seed)
  const random = randomFrom(seed)
  const registries = [setup(false, random), setup(true, random)]
  const stops = registries.map((tm) => respond(tm, random))
  const callIds: string[] = []
  for (const tm of registries) {
    tm.events.on('call', (event) => {
      callIds.push(event.callId)
      if (callIds.length > 500) callIds.splice(0, 250)
    })
    // A throwing listener must change nothing for the caller.
    tm.events.on('result', () => {
      throw leaky()
    })
  }
  const before = prototypeSnapshot()
  const warn = console.warn
  console.warn = () => {}
  let others = 0
  const statuses = new Map<string, number>()

  /** Checks one result: shape, frozen, cloneable, and no exception text in it. */
  const inspect = (what: string, result: ToolResult) => {
    const key = String(result?.status)
    statuses.set(key, (statuses.get(key) ?? 0) + 1)
    const problem = resultProblem(result)
    tally.check(problem === undefined, () => `${what} → ${problem}: ${describe(result)}`)
    const text = describe(result)
    tally.check(!text.includes(LEAK), () => `${what} → leaked an exception: ${text}`)
  }

  const perform = async (tm: Toolmark, c: Call): Promise<void> => {
    const what = `call ${describe(c.name)} as ${describe(c.caller)} with ${describe(c.input)}`
    tally.runs++
    try {
      const controller = new AbortController()
      if (c.signal === 'aborted') controller.abort()
      if (c.signal === 'abort-soon') queueMicrotask(() => controller.abort())
      const signal =
        c.signal === 'fake'
          ? ({ aborted: 'no', addEventListener: LEAK } as never)
          : c.signal === 'none'
            ? undefined
            : controller.signal
      const options =
        c.options === 'none'
          ? undefined
          : c.options === 'junk'
            ? c.rev
            : { caller: c.caller, rev: c.rev, signal }
      const pending = (tm.call as (...args: unknown[]) => Promise<ToolResult>)(
        c.name,
        c.input,
        options,
      )
      inspect(what, await pending)
    } catch (error) {
      tally.threw(what, error)
    }
  }

  const meanwhile = async (tm: Toolmark, o: Other): Promise<void> => {
    others++
    const what = `${o.kind} ${describe(o)}`
    try {
      if (o.kind === 'undo') {
        inspect(what, await tm.undo(callIds[o.pick % Math.max(1, callIds.length)]))
      } else if (o.kind === 'undo-junk') {
        inspect(what, await tm.undo(o.id as string))
      } else if (o.kind === 'answer') {
        const pending = tm.confirmations.list()
        const id = pending.length > 0 ? pending[o.pick % pending.length].id : String(o.pick)
        const answer = o.pick % 2 === 0 ? tm.confirmations.approve(id) : tm.confirmations.reject(id)
        inspect(what, await answer)
      } else {
        tm.cancelAll()
      }
    } catch (error) {
      tally.threw(what, error)
    }
  }

  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(call, { minLength: BATCH, maxLength: BATCH }),
        fc.option(other, { freq: 3 }),
        fc.nat(1),
        async (calls, extra, which) => {
          const tm = registries[which]
          // A batch is sent at once: calls overlap in the queues, confirmations and undo.
          await Promise.all([
            ...calls.map((c) => perform(tm, c)),
            ...(extra === null ? [] : [meanwhile(tm, extra)]),
          ])
        },
      ),
      { numRuns: CALLS / BATCH, seed },
    )
  } finally {
    console.warn = warn
    stops.forEach((stop) => stop())
  }
  tally.check(prototypeSnapshot() === before, () => 'a built-in prototype changed')

  const total = [...statuses.values()].reduce((a, b) => a + b, 0)
  const mix = [...statuses]
    .sort((a, b) => b[1] - a[1])
    .map(([status, n]) => `${status} ${((100 * n) / total).toFixed(n / total < 0.01 ? 1 : 0)} %`)
    .join(', ')
  const row = tally.report(context, {
    property: '`tm.call` with random inputs × tool behaviours',
    unit: 'calls',
    holds: `every result one of the six statuses with only its own keys, deep-frozen, cloneable, no exception text (${mix}); plus ${others.toLocaleString('en-US')} undos, answers and Stops in the same batches`,
  })
  if (row.throws + row.violations > 0) throw new Error(row.examples.join('\n'))
})
