// Call overhead and manifest caching of @toolmark/core, measured in one run.
//
//   node --expose-gc bench/call.mjs
//
// (`--expose-gc` only steadies the first-manifest figures: it collects the garbage of building
// each registry before its manifest is timed.)
//
// Core is bundled as an app ships it (bench/coreBundle.mjs); zod is imported from node_modules as
// an app would. bench/call-parts.mjs runs the first part alone on changed bundles: it sets
// TOOLMARK_BENCH_CORE (a bundle file to import instead) and TOOLMARK_BENCH_ONLY=call.

import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { buildCore, importSource } from './coreBundle.mjs'

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** µs per operation of `iterations` sequential (awaited) operations. */
async function batch(fn, iterations) {
  const start = performance.now()
  for (let i = 0; i < iterations; i++) await fn(i)
  return ((performance.now() - start) * 1000) / iterations
}

/**
 * Times several variants in interleaved rounds, so a busy machine slows them all alike, and
 * returns the median µs per operation of each.
 */
async function compare(variants, { iterations, rounds }) {
  const samples = variants.map(() => [])
  for (const { fn } of variants) await batch(fn, iterations) // warm up
  for (let r = 0; r < rounds; r++) {
    for (let v = 0; v < variants.length; v++)
      samples[v].push(await batch(variants[v].fn, iterations))
  }
  return samples.map(median)
}

function timeSync(fn, { iterations, rounds }) {
  for (let i = 0; i < iterations; i++) fn(i)
  const perOp = []
  for (let r = 0; r < rounds; r++) {
    const start = performance.now()
    for (let i = 0; i < iterations; i++) fn(i)
    perOp.push(((performance.now() - start) * 1000) / iterations)
  }
  return median(perOp)
}

const fmt = (us) => (us < 10 ? us.toFixed(2) : us.toFixed(1)).padStart(8) + ' µs'
const ratio = (a, b) => `${(a / b).toFixed(2)}×`

const given = process.env.TOOLMARK_BENCH_CORE
const { createToolmark, ok } = given
  ? await import(pathToFileURL(given).href)
  : await importSource(await buildCore())

// --- 1. tm.call vs schema.parse + run ---------------------------------------------------------

const input = z.object({ id: z.string(), limit: z.number().int().optional() })
const run = (args) => ok({ id: args.id, count: args.limit ?? 10 })
const tm = createToolmark({ dev: false })
tm.register({
  name: 'tickets.get',
  description: 'Gets a ticket by id.',
  input,
  hints: { readOnly: true },
  run,
})
const args = { id: 'T-42', limit: 5 }
const check = await tm.call('tickets.get', args)
if (check.status !== 'ok') throw new Error(`unexpected result ${JSON.stringify(check)}`)

let listened = 0
const tmListened = createToolmark({ dev: false })
tmListened.register({
  name: 'tickets.get',
  description: 'Gets',
  input,
  hints: { readOnly: true },
  run,
})
tmListened.events.on('call', () => listened++)
tmListened.events.on('result', () => listened++)

// The floor under tm.call, in the steps no pipeline can skip: validate with the Standard Schema,
// one hop (a run never starts inside tm.call's frame), run, then the result as tm.call must hand
// it out: a copy of every object, deep-frozen. `frozenLiteral` writes that copy out for this one
// result shape, the lower bound; `frozenCopy` is the generic copy tm.call has to make, since it
// cannot know a tool's result shape (the same steps as its own: keys, one store per key, freeze).
const validate = input['~standard'].validate
const NOT_PLAIN = Symbol('not plain')
function frozenCopy(value) {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' ? NOT_PLAIN : value
  }
  const proto = Object.getPrototypeOf(value)
  if (proto === Array.prototype) {
    const out = new Array(value.length)
    for (let i = 0; i < value.length; i++) {
      const item = frozenCopy(value[i])
      if (item === NOT_PLAIN) return NOT_PLAIN
      out[i] = item
    }
    return Object.freeze(out)
  }
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN
  const out = {}
  const keys = Object.keys(value)
  for (let i = 0; i < keys.length; i++) {
    const item = frozenCopy(value[keys[i]])
    if (item === NOT_PLAIN) return NOT_PLAIN
    out[keys[i]] = item
  }
  return Object.freeze(out)
}
const frozenResult = (result) => {
  const keys = Object.keys(result)
  if (keys.length !== 2 || keys[0] !== 'status' || keys[1] !== 'data') return frozenCopy(result)
  return Object.freeze({ status: result.status, data: frozenCopy(result.data) })
}
const frozenLiteral = (result) =>
  Object.freeze({
    status: result.status,
    data: Object.freeze({ id: result.data.id, count: result.data.count }),
  })
const asyncRun = async (a) => ok({ id: a.id, count: a.limit ?? 10 })
const tmAsync = createToolmark({ dev: false })
tmAsync.register({
  name: 'tickets.get',
  description: 'Gets a ticket by id.',
  input,
  hints: { readOnly: true },
  run: asyncRun,
})

const [
  direct,
  directAwaited,
  floorHop,
  floorLiteral,
  floorGeneric,
  viaCall,
  viaCallListened,
  directAsync,
  viaCallAsync,
] = await compare(
  [
    { fn: () => run(input.parse(args)) },
    { fn: async () => run(input.parse(args)) },
    { fn: () => Promise.resolve(validate(args)).then((checked) => run(checked.value)) },
    {
      fn: () =>
        Promise.resolve(validate(args)).then((checked) => frozenLiteral(run(checked.value))),
    },
    {
      fn: () => Promise.resolve(validate(args)).then((checked) => frozenResult(run(checked.value))),
    },
    { fn: () => tm.call('tickets.get', args, { caller: 'inapp' }) },
    { fn: () => tmListened.call('tickets.get', args) },
    { fn: () => asyncRun(input.parse(args)) },
    { fn: () => tmAsync.call('tickets.get', args, { caller: 'inapp' }) },
  ],
  { iterations: 20_000, rounds: 15 },
)

console.log(`@toolmark/core call benchmark (node ${process.version}, production mode)`)
console.log('')
console.log('tm.call of a read-only tool with a small zod input')
console.log(`  schema.parse + run (direct)            ${fmt(direct)}`)
console.log(`  schema.parse + run, awaited            ${fmt(directAwaited)}`)
console.log(`  tm.call                                ${fmt(viaCall)}`)
console.log(`  tm.call, call + result listeners       ${fmt(viaCallListened)}`)
console.log(`  ratio tm.call / direct                 ${ratio(viaCall, direct).padStart(11)}`)
console.log(
  `  ratio tm.call / direct, awaited        ${ratio(viaCall, directAwaited).padStart(11)}`,
)
console.log('')
console.log('the floor: the steps any tm.call must take')
console.log(`  ~standard.validate + one hop + run     ${fmt(floorHop)}`)
console.log(`  … + frozen copy written for this shape ${fmt(floorLiteral)}`)
console.log(`  … + generic frozen copy (the floor)    ${fmt(floorGeneric)}`)
console.log(`  ratio floor / direct                   ${ratio(floorGeneric, direct).padStart(11)}`)
console.log(`  ratio tm.call / floor                  ${ratio(viaCall, floorGeneric).padStart(11)}`)
console.log('')
console.log('the same tool with an async run')
console.log(`  schema.parse + async run (direct)      ${fmt(directAsync)}`)
console.log(`  tm.call                                ${fmt(viaCallAsync)}`)
console.log(
  `  ratio tm.call / direct, async          ${ratio(viaCallAsync, directAsync).padStart(11)}`,
)
console.log('')
if (process.env.TOOLMARK_BENCH_ONLY === 'call') process.exit(0)

// --- 2. manifest() for 500 tools: first call vs repeated ---------------------------------------

/** A fresh schema object (never converted before: conversions are cached per schema object). */
const toolInput = () =>
  z.object({ id: z.string(), note: z.string().optional(), level: z.enum(['a', 'b']) })

/** `count` tools; `schemas` fresh schema objects shared round-robin (default: one per tool). */
function registry(count, schemas = count) {
  const shared = Array.from({ length: schemas }, toolInput)
  const registry = createToolmark({ dev: false })
  for (let i = 0; i < count; i++) {
    registry.register({
      name: `section${i % 10}.tool${i}`,
      description: `Tool number ${i}.`,
      input: shared[i % schemas],
      hints: i % 3 === 0 ? { readOnly: true } : {},
      run: () => ok(i),
    })
  }
  return registry
}

/** Median µs of the first `manifest()` of fresh registries, in interleaved rounds. */
function firstManifests(variants, rounds) {
  const samples = variants.map(() => [])
  for (let r = 0; r < rounds; r++) {
    variants.forEach((make, v) => {
      const fresh = make()
      // With --expose-gc, garbage left by building the registry is not charged to its manifest.
      globalThis.gc?.()
      const start = performance.now()
      fresh()
      samples[v].push((performance.now() - start) * 1000)
    })
  }
  return samples.map(median)
}

// The floor of a first manifest: one Standard JSON Schema conversion per schema object.
const convert = (count) => () => {
  const schemas = Array.from({ length: count }, toolInput)
  return () => {
    for (const schema of schemas) schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' })
  }
}
const manifestOf = (count, schemas) => () => {
  const fresh = registry(count, schemas)
  return () => fresh.manifest()
}
const [first, firstShared, firstDistinct250, tenConversions, conversions500] = firstManifests(
  [manifestOf(500, 500), manifestOf(500, 10), manifestOf(250, 250), convert(10), convert(500)],
  15,
)

// After a change: per-tool entries are kept, only the list is rebuilt.
const changing = registry(500)
changing.manifest()
const afterChangeRuns = []
for (let r = 0; r < 21; r++) {
  changing.register({ name: `extra${r}`, description: 'Extra', run: () => ok(r) })
  const start = performance.now()
  changing.manifest()
  afterChangeRuns.push((performance.now() - start) * 1000)
}
const afterChange = median(afterChangeRuns)

const warm500 = registry(500)
warm500.manifest()
const repeated500 = timeSync(() => warm500.manifest(), { iterations: 200_000, rounds: 9 })
const warm50 = registry(50)
warm50.manifest()
const repeated50 = timeSync(() => warm50.manifest(), { iterations: 200_000, rounds: 9 })

// --- 3. what each speed trick of the call pipeline avoids ------------------------------------
//
// Each row times, on its own, the work a trick keeps off the path of a call that does not need
// it, beside the cost of a whole tm.call: a trick earns its place when what it avoids is a real
// share of a call.

let sink
const sinks = []
const linked = { head: undefined, tail: undefined }
const linkAdd = (node) => {
  node.prev = linked.tail
  if (linked.tail) linked.tail.next = node
  else linked.head = node
  linked.tail = node
}
const linkDelete = (node) => {
  if (node.prev) node.prev.next = node.next
  else linked.head = node.next
  if (node.next) node.next.prev = node.prev
  else linked.tail = node.prev
  node.prev = node.next = undefined
}
const calls = new Set()
const sampleResult = ok({ id: 'T-42', count: 5 })
const frozenSample = Object.freeze({ status: 'ok', data: Object.freeze({ id: 'T-42', count: 5 }) })
const emptyLines = [[], []]
const tricks = [
  [
    'an AbortController and its signal (made only for runs that read ctx.signal)',
    () => new AbortController().signal,
  ],
  [
    'one CSPRNG read per id (ids come from a pooled read, minted on first use)',
    () => crypto.getRandomValues(new Uint8Array(16)),
  ],
  [
    'Set add + delete of a new call object (calls are linked through themselves)',
    () => {
      const c = {}
      calls.add(c)
      calls.delete(c)
      return c
    },
  ],
  [
    '  … the linked list instead',
    () => {
      const c = { prev: undefined, next: undefined }
      linkAdd(c)
      linkDelete(c)
      return c
    },
  ],
  [
    'setTimeout + clearTimeout (a deadline is armed only for a run still pending a tick later)',
    () => clearTimeout(setTimeout(() => {}, 1e6)),
  ],
  [
    'structuredClone + deepFreeze of an ok result (plain results take a one-pass frozen copy)',
    () => Object.freeze(structuredClone(sampleResult)),
  ],
  [
    "Object.isFrozen of a run's result (a run's result settles as normalized already)",
    () => Object.isFrozen(frozenSample),
  ],
  [
    'a closure per hop (the call itself is the value the hop passes on)',
    (i) => {
      const call = { i }
      return () => call
    },
  ],
  [
    'shift() on both empty lines per slot release (the queue checks their lengths first)',
    () => emptyLines[0].shift() ?? emptyLines[1].shift(),
  ],
]
const trickCosts = tricks.map(([, fn]) =>
  timeSync(
    (i) => {
      sink = fn(i)
      if ((i & 1023) === 0) sinks.push(sink)
    },
    { iterations: 50_000, rounds: 7 },
  ),
)
sinks.length = 0

// --- report ----------------------------------------------------------------------------------

console.log(
  `what each speed trick avoids (µs per call that does not need it; a tm.call costs ${viaCall.toFixed(2)} µs)`,
)
tricks.forEach(([label], i) => console.log(`  ${label.padEnd(92)} ${fmt(trickCosts[i])}`))
console.log('')
console.log('manifest() of 500 tools (summary)')
console.log(`  first call, 500 distinct schemas       ${fmt(first)}`)
console.log(`  first call, 250 tools, 250 schemas     ${fmt(firstDistinct250)}`)
console.log(
  `  ratio 500 / 250 distinct               ${ratio(first, firstDistinct250).padStart(11)}  (linear: ≈ 2×)`,
)
console.log(`  500 conversions (one per schema)       ${fmt(conversions500)}`)
console.log(`  ratio 500 distinct / 500 conversions   ${ratio(first, conversions500).padStart(11)}`)
console.log(`  first call, 500 tools sharing 10       ${fmt(firstShared)}`)
console.log(`  10 conversions (one per schema)        ${fmt(tenConversions)}`)
console.log(
  `  ratio shared first / 10 conversions    ${ratio(firstShared, tenConversions).padStart(11)}`,
)
console.log(`  after a change (entries cached)        ${fmt(afterChange)}`)
console.log(`  repeated, same rev, 500 tools          ${fmt(repeated500)}`)
console.log(`  repeated, same rev, 50 tools           ${fmt(repeated50)}`)
console.log(`  ratio first / repeated                 ${ratio(first, repeated500).padStart(11)}`)
console.log(
  `  ratio repeated 500 / repeated 50       ${ratio(repeated500, repeated50).padStart(11)}  (O(1) per rev: ≈ 1×)`,
)
if (listened === 0) throw new Error('listeners never ran')
