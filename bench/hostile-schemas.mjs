// Worst-case validation time of hostile chat tool schemas on the server, measured in one run.
//
//   node bench/hostile-schemas.mjs
//
// Every schema below is posted as a chat request's tool list and accepted by `readToolmarkTools`
// (its default bounds: 256 KiB, depth 32); `toolsFromManifest` builds the `validate` the AI SDK
// calls, and each value is validated through it, as a server does for a model's arguments. The
// baseline is the same route with a one-property schema and a small value. Each shape runs 15
// times after a warm-up, timed in CPU time; the median and the slowest run are reported, with
// the steps the check charged (`jsonSchemaCheck` with `CLIENT_SCHEMA_CHECK`, its bound 20 000).
// Goal: every worst case ≤ 50 ms.

import { buildCore, importSource } from './coreBundle.mjs'

const { readToolmarkTools, toolsFromManifest } = await importSource(await buildCore('ai-sdk'))
// The client options are not exported (the docs state them); they come from their source module.
const { CLIENT_SCHEMA_CHECK, jsonSchemaCheck } = await importSource(
  await buildCore('schema/jsonSchemaCheck.ts'),
)

const EVIL = '^(a+)+$'
const evilText = `${'a'.repeat(28)}!`
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i))

/** `depth` definitions, each a 2-way `anyOf` of `$ref`s to the next, over `leaf`. */
function chain(depth, leaf, wrap = (ref) => ref) {
  const $defs = { leaf }
  for (let i = 0; i < depth; i++) {
    const next = i + 1 === depth ? '#/$defs/leaf' : `#/$defs/d${i + 1}`
    $defs[`d${i}`] = { anyOf: [wrap({ $ref: next }), wrap({ $ref: next })] }
  }
  return { type: 'object', properties: { q: { $ref: '#/$defs/d0' } }, $defs }
}

const shapes = [
  {
    name: 'pattern through a $ref to an unknown keyword',
    schema: {
      type: 'object',
      properties: { q: { $ref: '#/x-evil' } },
      'x-evil': { type: 'string', pattern: EVIL },
    },
    value: { q: evilText },
  },
  ...['enum', 'default', 'examples', 'const'].map((keyword) => ({
    name: `pattern through a $ref into \`${keyword}\``,
    schema: {
      type: 'object',
      properties: {
        q: { $ref: `#/properties/p/${keyword}/0` },
        p: { [keyword]: [{ type: 'string', pattern: EVIL }] },
      },
    },
    value: { q: evilText },
  })),
  {
    name: 'pattern through a $ref into draft-7 `dependencies`',
    schema: {
      type: 'object',
      properties: { q: { $ref: '#/dependencies/x' } },
      dependencies: { x: { type: 'string', pattern: EVIL } },
    },
    value: { q: evilText },
  },
  {
    name: 'pattern in $defs, patternProperties, propertyNames',
    schema: {
      type: 'object',
      properties: { q: { $ref: '#/$defs/s' } },
      patternProperties: { [EVIL]: { type: 'string' } },
      propertyNames: { pattern: EVIL },
      $defs: { s: { type: 'string', pattern: EVIL } },
    },
    value: { q: evilText, [evilText]: 'x' },
  },
  {
    name: 'anyOf chain of 20 over enum [0..19999]',
    schema: chain(20, { enum: range(20_000, (i) => i) }),
    value: { q: 'x' },
  },
  {
    name: 'anyOf chain of 20 over required of 1,000 names',
    schema: chain(20, { type: 'object', required: range(1_000, (i) => `n${i}`) }),
    value: { q: {} },
  },
  {
    name: 'required of 20,000 names',
    schema: { type: 'object', required: range(20_000, (i) => `n${i}`) },
    value: {},
  },
  {
    name: 'anyOf chain of 20 over required of 20,000 names',
    schema: chain(20, { type: 'object', required: range(18_000, (i) => `n${i}`) }),
    value: { q: {} },
  },
  {
    name: 'anyOf chain of 20 over a large const, against a large value',
    schema: chain(20, { const: range(5_000, (i) => ({ k: i })) }),
    value: { q: range(5_000, (i) => ({ k: i === 4_999 ? -1 : i })) },
  },
  {
    name: 'oneOf chain of 20, every branch failing with many issues',
    schema: chain(20, {
      type: 'object',
      properties: Object.fromEntries(range(400, (i) => [`p${i}`, { type: 'integer' }])),
    }),
    value: { q: Object.fromEntries(range(400, (i) => [`p${i}`, 'x'])) },
  },
  {
    name: 'uniqueItems over 5,000 equal objects',
    schema: { type: 'object', properties: { q: { type: 'array', uniqueItems: true } } },
    value: { q: range(5_000, () => ({ a: [1, 2, 3] })) },
  },
  {
    name: 'self-$ref at the root, 10,000-deep value',
    schema: { type: 'object', properties: { q: { $ref: '#' } } },
    value: range(10_000, () => 0).reduce((inner) => ({ q: inner }), {}),
  },
  {
    name: 'maxLength over a 1 MB string through a chain of 20',
    schema: chain(20, { type: 'string', maxLength: 1 }),
    value: { q: '€'.repeat(1_000_000) },
  },
]

const baseline = {
  name: 'baseline: one string property, small value',
  schema: { type: 'object', properties: { q: { type: 'string' } } },
  value: { q: 'hello' },
}

async function validatorFor(schema) {
  const body = {
    messages: [],
    toolmark: {
      tools: [{ name: 'x', llmName: 'x', description: 'x', hints: {}, inputSchema: schema }],
    },
  }
  const read = await readToolmarkTools(
    new Request('http://localhost/chat', { method: 'POST', body: JSON.stringify(body) }),
  )
  if (!read.ok) throw new Error(`readToolmarkTools refused the schema: ${read.error.message}`)
  let validate
  toolsFromManifest(read.manifest, {
    jsonSchema: (_schema, options) => {
      validate = options.validate
      return {}
    },
  })
  return { validate, schema: read.manifest.tools[0].inputSchema }
}

/**
 * The median and the slowest of `runs` validations (after one warm-up), in CPU time (user +
 * system, ms): on a shared machine wall time also counts the time other processes held the core.
 */
function worst(validate, value, runs = 15) {
  validate(value)
  const times = []
  let verdict
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage()
    verdict = validate(value)
    const used = process.cpuUsage(start)
    times.push((used.user + used.system) / 1000)
  }
  times.sort((a, b) => a - b)
  return { median: times[Math.floor(runs / 2)], max: times[runs - 1], verdict }
}

const rows = []
const base = await validatorFor(baseline.schema)
const baseTime = worst(base.validate, baseline.value, 201).median
for (const shape of shapes) {
  const { validate, schema } = await validatorFor(shape.schema)
  const { median, max, verdict } = worst(validate, shape.value)
  const check = jsonSchemaCheck(schema, CLIENT_SCHEMA_CHECK)
  check(shape.value)
  const outcome = verdict.success ? 'valid' : verdict.error.issues.map((i) => i.message)[0]
  rows.push({ name: shape.name, median, max, steps: check.lastSteps, outcome })
}

const pad = (text, n) => String(text).padEnd(n)
console.log(
  `${pad('shape', 62)} ${pad('median ms', 10)} ${pad('max ms', 8)} ${pad('steps', 6)} verdict`,
)
console.log(`${pad(baseline.name, 62)} ${pad(baseTime.toFixed(4), 10)}`)
for (const row of rows) {
  console.log(
    `${pad(row.name, 62)} ${pad(row.median.toFixed(2), 10)} ${pad(row.max.toFixed(2), 8)} ${pad(row.steps, 6)} ${row.outcome}`,
  )
}
const top = Math.max(...rows.map((row) => row.median))
const slowest = Math.max(...rows.map((row) => row.max))
console.log(
  `\nworst case ${top.toFixed(2)} ms median, ${slowest.toFixed(2)} ms slowest single run ` +
    `(${(top / baseTime).toFixed(0)}× the baseline's ${baseTime.toFixed(4)} ms); ` +
    `goal ≤ 50 ms: ${top <= 50 ? 'met' : 'NOT met'}`,
)
if (rows.some((row) => row.steps > CLIENT_SCHEMA_CHECK.maxSteps + 1)) {
  console.log('a check spent more than its step bound')
  process.exitCode = 1
}
