import fc from 'fast-check'
import { z } from 'zod'
import { jsonSchemaCheck } from '@toolmark/core/agent'

type Schema = Record<string, unknown>

const toJson = (schema: z.ZodType): Schema =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Schema

describe('jsonSchemaCheck, keyword by keyword', () => {
  it('checks types, including integer and lists of types', () => {
    const check = jsonSchemaCheck({ type: 'integer' })
    expect(check(3)).toEqual([])
    expect(check(3.5)).toEqual([{ path: '', message: 'Expected an integer, received number' }])
    expect(check('3')).toEqual([{ path: '', message: 'Expected an integer, received string' }])
    const nullable = jsonSchemaCheck({ type: ['string', 'null'] })
    expect(nullable(null)).toEqual([])
    expect(nullable('a')).toEqual([])
    expect(nullable(1)).toEqual([
      { path: '', message: 'Expected a string or null, received number' },
    ])
    expect(jsonSchemaCheck({ type: 'number' })(Infinity)).toHaveLength(1)
    expect(jsonSchemaCheck({ type: 'object' })([])).toEqual([
      { path: '', message: 'Expected an object, received array' },
    ])
  })

  it('reports every problem of an object at its dot path', () => {
    const check = jsonSchemaCheck({
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 3 },
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' } },
            required: ['name'],
            additionalProperties: false,
          },
        },
      },
      required: ['title'],
    })
    expect(check({ title: 'Printer', items: [{ name: 'a' }] })).toEqual([])
    expect(check({ items: [{ name: 'a' }, { name: 2, extra: true }, {}] })).toEqual([
      { path: 'title', message: 'Required' },
      { path: 'items.1.name', message: 'Expected a string, received number' },
      { path: 'items.1.extra', message: 'Unexpected property' },
      { path: 'items.2.name', message: 'Required' },
    ])
    expect(check({ title: 'ab' })).toEqual([
      { path: 'title', message: 'Expected at least 3 characters' },
    ])
  })

  it('treats a property holding undefined as absent, like JSON does', () => {
    const check = jsonSchemaCheck({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    })
    expect(check({ a: undefined })).toEqual([{ path: 'a', message: 'Required' }])
    expect(check({ a: 'x', b: undefined })).toEqual([])
  })

  it('checks additionalProperties as a schema, patternProperties and propertyNames', () => {
    const check = jsonSchemaCheck({
      type: 'object',
      properties: { id: { type: 'integer' } },
      patternProperties: { '^x-': { type: 'string' } },
      additionalProperties: { type: 'number' },
      propertyNames: { maxLength: 5 },
    })
    expect(check({ id: 1, 'x-a': 'y', n: 2 })).toEqual([])
    expect(check({ 'x-a': 1, n: 'two', toolong: 1 })).toEqual([
      { path: 'x-a', message: 'Expected a string, received number' },
      { path: 'n', message: 'Expected a number, received string' },
      { path: 'toolong', message: 'This property name is not allowed' },
    ])
  })

  it('checks tuples with prefixItems, and array sizes', () => {
    const check = jsonSchemaCheck(toJson(z.tuple([z.string(), z.number()])))
    expect(check(['a', 1])).toEqual([])
    expect(check(['a'])).toEqual([{ path: '', message: 'Expected at least 2 items' }])
    expect(check(['a', 1, 2])).toEqual([
      { path: '', message: 'Expected at most 2 items' },
      { path: '2', message: 'No value is allowed here' },
    ])
    expect(check([1, 'a'])).toEqual([
      { path: '0', message: 'Expected a string, received number' },
      { path: '1', message: 'Expected a number, received string' },
    ])
    expect(jsonSchemaCheck({ type: 'array', uniqueItems: true })([1, { a: 1 }, { a: 1 }])).toEqual([
      { path: '2', message: 'Repeats item 1' },
    ])
  })

  it('checks enum and const by deep equality', () => {
    const check = jsonSchemaCheck({ enum: ['low', 'high', { a: [1] }] })
    expect(check('low')).toEqual([])
    expect(check({ a: [1] })).toEqual([])
    expect(check('mid')).toEqual([
      { path: '', message: 'Expected one of "low", "high", {"a":[1]}' },
    ])
    expect(jsonSchemaCheck({ const: 'a' })('b')).toEqual([{ path: '', message: 'Expected "a"' }])
  })

  it('checks anyOf, oneOf, allOf and not', () => {
    const union = jsonSchemaCheck(
      toJson(
        z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('email'), to: z.email() }),
          z.object({ kind: z.literal('sms'), phone: z.string().regex(/^\+\d+$/) }),
        ]),
      ),
    )
    expect(union({ kind: 'sms', phone: '+4412' })).toEqual([])
    // The closest branch explains the problem.
    expect(union({ kind: 'sms', phone: 'call me' })).toEqual([
      { path: 'phone', message: 'Does not match the pattern' },
    ])
    const one = jsonSchemaCheck({ oneOf: [{ type: 'integer' }, { type: 'number' }] })
    expect(one(1.5)).toEqual([])
    expect(one(1)).toEqual([{ path: '', message: 'Matches more than one of the allowed shapes' }])
    const all = jsonSchemaCheck({ allOf: [{ minimum: 1 }, { maximum: 3 }] })
    expect(all(2)).toEqual([])
    expect(all(4)).toEqual([{ path: '', message: 'Expected a number of at most 3' }])
    expect(jsonSchemaCheck({ not: { type: 'null' } })(null)).toEqual([
      { path: '', message: 'Matches a shape that is not allowed' },
    ])
  })

  it('checks number bounds and multipleOf without floating point noise', () => {
    const check = jsonSchemaCheck({ exclusiveMinimum: 0, maximum: 1, multipleOf: 0.1 })
    expect(check(0.3)).toEqual([])
    expect(check(0)).toEqual([{ path: '', message: 'Expected a number greater than 0' }])
    expect(check(0.35)).toEqual([{ path: '', message: 'Expected a multiple of 0.1' }])
    expect(jsonSchemaCheck({ exclusiveMaximum: 10, minimum: 1 })(10)).toEqual([
      { path: '', message: 'Expected a number less than 10' },
    ])
  })

  it('resolves $ref to $defs and to the root (recursive schemas)', () => {
    type Tree = { name: string; children?: Tree[] }
    const tree: z.ZodType<Tree> = z.object({
      name: z.string(),
      get children() {
        return z.array(tree).optional()
      },
    })
    const check = jsonSchemaCheck(toJson(tree))
    expect(check({ name: 'a', children: [{ name: 'b', children: [] }] })).toEqual([])
    expect(check({ name: 'a', children: [{ name: 'b', children: [{}] }] })).toEqual([
      { path: 'children.0.children.0.name', message: 'Required' },
    ])
    const defs = jsonSchemaCheck({
      $defs: { id: { type: 'integer', minimum: 1 } },
      type: 'object',
      properties: { id: { $ref: '#/$defs/id' } },
    })
    expect(defs({ id: 0 })).toEqual([{ path: 'id', message: 'Expected a number of at least 1' }])
  })

  it('ignores format and keywords it does not know: its verdict is only ever looser', () => {
    const check = jsonSchemaCheck({
      type: 'string',
      format: 'email',
      contentMediaType: 'text/plain',
      if: { const: 'x' },
      then: false,
    })
    expect(check('not an email')).toEqual([])
    expect(check('x')).toEqual([])
    expect(jsonSchemaCheck({ $ref: 'https://example.com/schema' })(1)).toEqual([])
    expect(jsonSchemaCheck({ type: 'string', pattern: '(' })('anything')).toEqual([])
  })

  it('counts the looser of UTF-16 units and code points for string lengths', () => {
    const emoji = '\u{1F600}'
    // Two code points, four UTF-16 units: a page counting either way accepts it.
    expect(jsonSchemaCheck({ maxLength: 2 })(emoji + emoji)).toEqual([])
    expect(jsonSchemaCheck({ minLength: 4 })(emoji + emoji)).toEqual([])
    expect(jsonSchemaCheck({ maxLength: 1 })(emoji + emoji)).toHaveLength(1)
  })

  it('supports boolean schemas', () => {
    expect(jsonSchemaCheck(true)({ anything: 1 })).toEqual([])
    expect(jsonSchemaCheck(false)(1)).toEqual([{ path: '', message: 'No value is allowed here' }])
  })
})

describe('jsonSchemaCheck on hostile input', () => {
  it('stops at maxDepth instead of recursing into a deep value', () => {
    let deep: unknown = 'leaf'
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const nested: Schema = { type: 'array' }
    nested.items = { $ref: '#' }
    const issues = jsonSchemaCheck(nested, { maxDepth: 64 })(deep)
    expect(issues).toHaveLength(1)
    expect(issues[0].message).toBe('Nested too deeply')
    expect(issues[0].path.split('.')).toHaveLength(65)
  })

  it('ends a $ref loop and an exploding anyOf with one issue at the root', () => {
    const loop = jsonSchemaCheck({ $defs: { a: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' })
    expect(loop(1)).toEqual([{ path: '', message: 'The schema nests too deeply to check' }])
    // Each level doubles the work: 2^40 visits without a budget.
    let exploding: Schema = { type: 'string' }
    for (let i = 0; i < 40; i++) exploding = { anyOf: [exploding, exploding] }
    const started = Date.now()
    expect(jsonSchemaCheck(exploding)(1)).toEqual([{ path: '', message: 'Too large to check' }])
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('bounds the work on a huge value', () => {
    const check = jsonSchemaCheck(
      { type: 'array', items: { type: 'integer' }, uniqueItems: true },
      { maxSteps: 10_000 },
    )
    expect(check(Array.from({ length: 50_000 }, (_, i) => i))).toEqual([
      { path: '', message: 'Too large to check' },
    ])
    expect(check(Array.from({ length: 50 }, (_, i) => i))).toEqual([])
  })

  it('caps the number of issues', () => {
    const check = jsonSchemaCheck({ type: 'array', items: { type: 'string' } }, { maxIssues: 3 })
    expect(check(Array.from({ length: 100 }, () => 1))).toHaveLength(3)
  })

  it('reads only own properties of schemas and values', () => {
    const check = jsonSchemaCheck(
      JSON.parse(
        '{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}',
      ),
    )
    // `constructor` and `toString` are inherited by every object, never declared.
    expect(check({ constructor: 1 })).toEqual([
      { path: 'constructor', message: 'Unexpected property' },
    ])
    expect(check(JSON.parse('{"__proto__":1}'))).toEqual([
      { path: '__proto__', message: 'Expected a string, received number' },
    ])
    expect(jsonSchemaCheck({ $ref: '#/constructor' })(1)).toEqual([])
  })

  it('never throws, even on values that are not plain data', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap')
        },
      },
    )
    expect(jsonSchemaCheck({ type: 'object', properties: {} })(hostile)).toEqual([
      { path: '', message: 'Could not be checked' },
    ])
    expect(jsonSchemaCheck({ type: 'string' })(() => 1)).toHaveLength(1)
    expect(jsonSchemaCheck(null as never)(1)).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------
// Agreement with zod: for random values near each schema's shape, our verdict on zod's JSON
// Schema equals zod's own safeParse.
// ---------------------------------------------------------------------------------------------

/** The helpdesk's ticket form (create and edit), as the example declares it. */
const ticketInput = z.object({
  title: z.string().min(3).max(120).describe('Short summary of the problem'),
  requester: z.email(),
  category: z.enum(['hardware', 'software', 'access', 'network', 'other']),
  priority: z.enum(['low', 'normal', 'high', 'urgent']),
  description: z.string().max(4000),
})

const SCHEMAS: Record<string, z.ZodType> = {
  'ticket form': ticketInput,
  'ticket patch': ticketInput.partial().extend({ status: z.enum(['open', 'pending']).optional() }),
  'ticket id': z.object({ id: z.number().int().positive() }),
  search: z.object({
    query: z.string().max(200),
    view: z.enum(['active', 'open', 'pending', 'closed', 'all']).optional(),
    limit: z.int().min(1).max(50).optional(),
  }),
  'nullable and strict': z.strictObject({
    note: z.string().nullable(),
    assignee: z.string().nullish(),
    score: z.number().gte(0).lt(10).multipleOf(0.5),
  }),
  'discriminated union': z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('email'), to: z.email() }),
    z.object({ kind: z.literal('sms'), phone: z.string().regex(/^\+\d{3,}$/) }),
  ]),
  'tuple and record': z.object({
    point: z.tuple([z.number(), z.number()]),
    tags: z.record(z.string(), z.number().int()),
    list: z.array(z.string().min(1)).min(1).max(3),
  }),
  union: z.union([z.string().max(3), z.number().int(), z.boolean(), z.null()]),
}

/** Values near a JSON Schema's shape: mostly the right types, often at or past a bound. */
function near(schema: Schema, root: Schema, depth = 0): fc.Arbitrary<unknown> {
  const junk = fc.oneof(
    fc.constant(null),
    fc.integer({ min: -3, max: 3 }),
    fc.string({ maxLength: 4 }),
    fc.boolean(),
    fc.constant({}),
    fc.constant([]),
  )
  if (depth > 4) return junk
  const shaped = shapedNear(schema, root, depth)
  return shaped ? fc.oneof({ arbitrary: shaped, weight: 19 }, { arbitrary: junk, weight: 1 }) : junk
}

function shapedNear(schema: Schema, root: Schema, depth: number): fc.Arbitrary<unknown> | null {
  if (typeof schema.$ref === 'string') {
    const target =
      schema.$ref === '#'
        ? root
        : ((root.$defs as Record<string, Schema>)[schema.$ref.replace('#/$defs/', '')] ?? {})
    return near(target, root, depth + 1)
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum, 'other')
  if ('const' in schema) return fc.constantFrom(schema.const, 'other')
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (branches) return fc.oneof(...branches.map((b) => near(b, root, depth + 1)))
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  const options = types.map((type): fc.Arbitrary<unknown> | null => {
    switch (type) {
      case 'string': {
        if (schema.format === 'email') {
          return fc.oneof(fc.emailAddress(), fc.constantFrom('a@b.co', 'bad@', '@x.io', 'x@y'))
        }
        if (typeof schema.pattern === 'string') {
          return fc.oneof(fc.stringMatching(new RegExp(schema.pattern)), fc.string())
        }
        const max = typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, 10) + 2 : 6
        return fc.string({ maxLength: max })
      }
      case 'integer':
      case 'number': {
        const low = typeof schema.minimum === 'number' ? Math.max(schema.minimum, -1e6) : -20
        const high = typeof schema.maximum === 'number' ? Math.min(schema.maximum, 1e6) : 20
        return fc.oneof(
          fc.integer({ min: Math.floor(low) - 2, max: Math.ceil(Math.min(high, low + 60)) + 2 }),
          // Decimals as a model writes them (zod's own multipleOf is inconsistent on denormals).
          fc
            .integer({ min: Math.floor(low - 2) * 1000, max: Math.ceil(high + 2) * 1000 })
            .map((n) => n / 1000),
          fc.integer({ min: -4, max: 24 }).map((n) => n / 2),
        )
      }
      case 'boolean':
        return fc.boolean()
      case 'null':
        return fc.constant(null)
      case 'array': {
        if (Array.isArray(schema.prefixItems)) {
          const items = (schema.prefixItems as Schema[]).map((s) => near(s, root, depth + 1))
          return fc.oneof(
            fc.tuple(...items),
            fc.tuple(...items).map((t) => t.slice(1)),
            fc.tuple(...items, fc.integer()),
          )
        }
        const item = schema.items ? near(schema.items as Schema, root, depth + 1) : junk()
        return fc.array(item, { maxLength: 4 })
      }
      case 'object': {
        const properties = (schema.properties ?? {}) as Record<string, Schema>
        const record = fc.record(
          Object.fromEntries(
            Object.entries(properties).map(([key, s]) => [key, near(s, root, depth + 1)]),
          ),
          { requiredKeys: [] },
        )
        const extra = fc.dictionary(
          fc.constantFrom('extra', 'other', 'tag'),
          near(
            isSchema(schema.additionalProperties) ? schema.additionalProperties : {},
            root,
            depth + 1,
          ),
          { maxKeys: 2 },
        )
        // Mostly every property present, sometimes some missing, sometimes extra keys.
        const full = fc.record(
          Object.fromEntries(
            Object.entries(properties).map(([key, s]) => [key, near(s, root, depth + 1)]),
          ),
        )
        return fc.oneof(
          full,
          record,
          fc.tuple(full, extra).map(([a, b]) => ({ ...b, ...a })),
        )
      }
      default:
        return null
    }
  })
  const usable = options.filter((o): o is fc.Arbitrary<unknown> => o !== null)
  return usable.length ? fc.oneof(...usable) : null
}

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const junk = () =>
  fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 3 }), fc.boolean())

describe('jsonSchemaCheck agrees with zod', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`on random values for the ${name} schema`, () => {
      const json = toJson(schema)
      const check = jsonSchemaCheck(json)
      let valid = 0
      fc.assert(
        fc.property(near(json, json), (value) => {
          const ours = check(value).length === 0
          const theirs = schema.safeParse(value).success
          if (theirs) valid++
          expect({ value, ours }).toEqual({ value, ours: theirs })
        }),
        { numRuns: 1_500, seed: 20_261_202 },
      )
      // The generator reaches both verdicts, so agreement means something.
      expect(valid).toBeGreaterThan(40)
      expect(valid).toBeLessThan(1_450)
    })
  }
})
