import { jsonSchema } from 'ai'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CLIENT_SCHEMA_CHECK, jsonSchemaCheck } from '../../src/schema/jsonSchemaCheck'
import { readToolmarkTools, toolsFromManifest } from '@toolmark/core/ai-sdk'
import type { JsonSchema } from '@toolmark/core'

const EVIL = '^(a+)+$'
const evilText = `${'a'.repeat(30)}!`
const range = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i))

/** The `validate` a chat server gets for a posted schema, through the real route. */
async function serverValidate(schema: JsonSchema) {
  const body = {
    messages: [],
    toolmark: {
      tools: [{ name: 'x', llmName: 'x', description: 'X.', hints: {}, inputSchema: schema }],
    },
  }
  const read = await readToolmarkTools(
    new Request('http://localhost/api/chat', { method: 'POST', body: JSON.stringify(body) }),
  )
  if (!read.ok) throw new Error(read.error.message)
  let validate: ((value: unknown) => { success: boolean }) | undefined
  toolsFromManifest(read.manifest, {
    jsonSchema: (posted, options) => {
      validate = options.validate
      return jsonSchema(posted, options)
    },
  })
  return validate!
}

/** `depth` definitions, each a 2-way `anyOf` of `$ref`s to the next, over `leaf`. */
function chain(depth: number, leaf: JsonSchema): JsonSchema {
  const $defs: Record<string, JsonSchema> = { leaf }
  for (let i = 0; i < depth; i++) {
    const next = i + 1 === depth ? '#/$defs/leaf' : `#/$defs/d${i + 1}`
    $defs[`d${i}`] = { anyOf: [{ $ref: next }, { $ref: next }] }
  }
  return { type: 'object', properties: { q: { $ref: '#/$defs/d0' } }, $defs }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a chat server never runs a regular expression a client wrote', () => {
  const routes: [string, JsonSchema][] = [
    [
      'a $ref to an unknown keyword',
      { type: 'object', properties: { q: { $ref: '#/x-evil' } }, 'x-evil': { pattern: EVIL } },
    ],
    ...(['enum', 'const', 'default', 'examples'] as const).map((keyword): [string, JsonSchema] => [
      `a $ref into ${keyword}`,
      {
        type: 'object',
        properties: {
          q: { $ref: `#/properties/p/${keyword}/0` },
          p: { [keyword]: [{ type: 'string', pattern: EVIL }] },
        },
      },
    ]),
    [
      'a $ref into draft-7 dependencies',
      {
        type: 'object',
        properties: { q: { $ref: '#/dependencies/x' } },
        dependencies: { x: { type: 'string', pattern: EVIL } },
      },
    ],
    [
      'a pattern inside $defs',
      {
        type: 'object',
        properties: { q: { $ref: '#/$defs/s' } },
        $defs: { s: { type: 'string', pattern: EVIL } },
      },
    ],
    [
      'patternProperties and propertyNames',
      {
        type: 'object',
        patternProperties: { [EVIL]: { type: 'number' } },
        propertyNames: { pattern: EVIL },
        additionalProperties: false,
      },
    ],
  ]

  it.each(routes)('through %s', async (_route, schema) => {
    const test = vi.spyOn(RegExp.prototype, 'test')
    const exec = vi.spyOn(RegExp.prototype, 'exec')
    const validate = await serverValidate(schema)
    test.mockClear()
    exec.mockClear()
    const verdict = validate({ q: evilText })
    // The value would fail each pattern: passing proves the pattern was never applied.
    expect(verdict.success).toBe(true)
    const ranOn = [...test.mock.calls, ...exec.mock.calls].map(([text]) => text)
    expect(ranOn).not.toContain(evilText)
    expect(ranOn).not.toContain('q')
  })

  it('still applies every other keyword the $defs hold', async () => {
    const validate = await serverValidate({
      type: 'object',
      properties: { q: { $ref: '#/$defs/s' }, n: { $ref: '#/definitions/n' }, self: { $ref: '#' } },
      $defs: { s: { type: 'string', maxLength: 3, pattern: EVIL } },
      definitions: { n: { type: 'integer' } },
    })
    expect(validate({ q: 'abc', n: 1, self: { q: 'x' } }).success).toBe(true)
    expect(validate({ q: 'abcd' }).success).toBe(false)
    expect(validate({ n: 1.5 }).success).toBe(false)
    expect(validate({ self: { q: 'abcd' } }).success).toBe(false)
  })

  it('resolves a client $ref only into $defs, definitions or the root', () => {
    const root: JsonSchema = {
      $defs: { a: { type: 'integer', properties: { deep: { type: 'integer' } } } },
      definitions: { b: { type: 'integer' } },
      properties: { p: { type: 'integer' } },
      'x-c': { type: 'integer' },
    }
    const client = (ref: string) =>
      jsonSchemaCheck({ $ref: ref }, { ...CLIENT_SCHEMA_CHECK, root })('text').length
    const server = (ref: string) => jsonSchemaCheck({ $ref: ref }, { root })('text').length
    expect(client('#/$defs/a')).toBe(1)
    expect(client('#/definitions/b')).toBe(1)
    for (const ref of ['#/properties/p', '#/x-c', '#/$defs/a/properties/deep']) {
      expect(client(ref)).toBe(0)
      expect(server(ref)).toBe(1)
    }
  })

  it('keeps patterns in the default check, for schemas the server owns', () => {
    expect(jsonSchemaCheck({ type: 'string', pattern: '^a$' })('b')).toEqual([
      { path: '', message: 'Does not match the pattern' },
    ])
    expect(jsonSchemaCheck({ type: 'string', pattern: '^a$' }, { patterns: false })('b')).toEqual(
      [],
    )
  })

  it('does not refuse a property a pattern would have matched when patterns are off', () => {
    const check = jsonSchemaCheck(
      {
        type: 'object',
        patternProperties: { '^x-': { type: 'number' } },
        additionalProperties: false,
      },
      { patterns: false },
    )
    expect(check({ 'x-a': 1, other: 2 })).toEqual([])
  })
})

describe('validation is bounded by work, not visits', () => {
  it('charges an enum by its length and the size of what it compares', () => {
    const check = jsonSchemaCheck({ enum: range(20_000, (i) => i) })
    check('x')
    expect(check.lastSteps).toBeGreaterThanOrEqual(20_000)
    const objects = jsonSchemaCheck({ const: range(1_000, (i) => ({ k: i })) })
    objects(range(1_000, (i) => ({ k: i })))
    expect(objects.lastSteps).toBeGreaterThanOrEqual(3_000)
  })

  it('charges each required entry and each issue', () => {
    const check = jsonSchemaCheck({ type: 'object', required: range(1_000, (i) => `n${i}`) })
    const issues = check({})
    expect(check.lastSteps).toBeGreaterThanOrEqual(2_000)
    expect(issues).toHaveLength(50)
  })

  it('caps the issues kept inside a branch', () => {
    const leaf: JsonSchema = { type: 'object', required: range(500, (i) => `n${i}`) }
    const check = jsonSchemaCheck({ anyOf: [leaf, leaf] }, { maxIssues: 5 })
    expect(check({})).toHaveLength(5)
    // Both branches were charged in full; only 5 issues were copied out.
    expect(check.lastSteps).toBeGreaterThanOrEqual(2_000)
    expect(check.lastSteps).toBeLessThan(2_100)
  })

  const shapes: [string, JsonSchema, unknown][] = [
    [
      'an anyOf chain over enum [0..19999]',
      chain(20, { enum: range(20_000, (i) => i) }),
      { q: 'x' },
    ],
    [
      'an anyOf chain over required of 1,000 names',
      chain(20, { type: 'object', required: range(1_000, (i) => `n${i}`) }),
      { q: {} },
    ],
    ['required of 20,000 names', { type: 'object', required: range(20_000, (i) => `n${i}`) }, {}],
    [
      'an anyOf chain over a large const',
      chain(20, { const: range(5_000, (i) => ({ k: i })) }),
      { q: range(5_000, (i) => ({ k: i === 4_999 ? -1 : i })) },
    ],
    [
      'an anyOf chain over maxLength and a 1 MB string',
      chain(20, { type: 'string', maxLength: 1 }),
      { q: '€'.repeat(1_000_000) },
    ],
  ]

  it.each(shapes)('stops %s within the client budget', async (_name, schema, value) => {
    // Each posted schema is one readToolmarkTools accepts.
    const validate = await serverValidate(schema)
    expect(validate(value).success).toBe(false)
    const check = jsonSchemaCheck(schema, CLIENT_SCHEMA_CHECK)
    expect(check(value)).toEqual([{ path: '', message: 'Too large to check' }])
    expect(check.lastSteps).toBeLessThanOrEqual(CLIENT_SCHEMA_CHECK.maxSteps + 1)
  })

  it('checks ordinary inputs well inside the client budget', () => {
    const check = jsonSchemaCheck(
      {
        type: 'object',
        properties: {
          title: { type: 'string', maxLength: 200 },
          priority: { enum: ['low', 'normal', 'high'] },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 20 },
        },
        required: ['title'],
        additionalProperties: false,
      },
      CLIENT_SCHEMA_CHECK,
    )
    expect(check({ title: 'Printer', priority: 'high', tags: range(20, (i) => `t${i}`) })).toEqual(
      [],
    )
    expect(check.lastSteps).toBeLessThan(200)
  })
})
