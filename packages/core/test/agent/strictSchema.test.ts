import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { restoreOptionals, toStrictSchema } from '../../src/agent/strictSchema'

type Schema = Record<string, unknown>

const toJson = (schema: z.ZodType): Schema =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Schema

describe('toStrictSchema', () => {
  it('requires every property, makes optional ones nullable and closes every object', () => {
    const schema = toJson(
      z.object({
        query: z.string().max(200).describe('Words to look for'),
        view: z.enum(['open', 'closed']).optional(),
        page: z.object({ size: z.int().min(1).max(50).optional(), after: z.string() }).optional(),
        tags: z.array(z.object({ name: z.string(), color: z.string().optional() })).max(3),
      }),
    )
    expect(toStrictSchema(schema)).toEqual({
      type: 'object',
      properties: {
        // maxLength is left to the page: strict mode does not take it.
        query: { type: 'string', description: 'Words to look for' },
        view: { anyOf: [{ type: 'string', enum: ['open', 'closed'] }, { type: 'null' }] },
        page: {
          type: ['object', 'null'],
          properties: {
            size: { type: ['integer', 'null'], minimum: 1, maximum: 50 },
            after: { type: 'string' },
          },
          required: ['size', 'after'],
          additionalProperties: false,
        },
        tags: {
          type: 'array',
          maxItems: 3,
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, color: { type: ['string', 'null'] } },
            required: ['name', 'color'],
            additionalProperties: false,
          },
        },
      },
      required: ['query', 'view', 'page', 'tags'],
      additionalProperties: false,
    })
  })

  it('keeps $defs and $ref, and turns oneOf into anyOf', () => {
    const schema = toJson(
      z.object({
        contact: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('email'), to: z.email() }),
          z.object({ kind: z.literal('sms'), phone: z.string() }),
        ]),
      }),
    )
    const strict = toStrictSchema({
      ...schema,
      $defs: { id: { type: 'integer' } },
      properties: { ...(schema.properties as Schema), id: { $ref: '#/$defs/id' } },
      required: ['contact', 'id'],
    })!
    expect(strict.$defs).toEqual({ id: { type: 'integer' } })
    const contact = (strict.properties as Schema).contact as Schema
    expect(Object.keys(contact)).toEqual(['anyOf'])
    expect((contact.anyOf as Schema[])[0]).toMatchObject({
      additionalProperties: false,
      properties: { to: { type: 'string', format: 'email' } },
    })
  })

  it('gives up where strict mode would change the meaning', () => {
    const cannot: Record<string, z.ZodType> = {
      'an optional property that already accepts null': z.object({ note: z.string().nullish() }),
      'a record': z.object({ tags: z.record(z.string(), z.number()) }),
      'a tuple': z.object({ point: z.tuple([z.number(), z.number()]) }),
      'a root that is not an object': z.string(),
      'a root union': z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
      'an optional unknown': z.object({ anything: z.unknown().optional() }),
    }
    for (const [what, schema] of Object.entries(cannot)) {
      expect({ what, strict: toStrictSchema(toJson(schema)) }).toEqual({ what, strict: undefined })
    }
    expect(toStrictSchema({ type: 'object' })).toBeUndefined()
    expect(
      toStrictSchema({ type: 'object', properties: { a: { not: { type: 'null' } } } }),
    ).toBeUndefined()
    let deep: Schema = { type: 'string' }
    for (let i = 0; i < 11; i++) deep = { type: 'object', properties: { a: deep }, required: ['a'] }
    expect(toStrictSchema(deep)).toBeUndefined()
  })

  it('accepts a required nullable property as it is', () => {
    const strict = toStrictSchema(toJson(z.object({ note: z.string().nullable() })))
    expect(strict).toEqual({
      type: 'object',
      properties: { note: { type: ['string', 'null'] } },
      required: ['note'],
      additionalProperties: false,
    })
  })

  it('leaves out lookaround patterns and formats strict mode does not know', () => {
    const strict = toStrictSchema({
      type: 'object',
      properties: {
        a: { type: 'string', pattern: '^(?!x)\\w+$' },
        b: { type: 'string', pattern: '^\\d+$', format: 'iso-week' },
      },
      required: ['a', 'b'],
    })
    expect(strict?.properties).toEqual({
      a: { type: 'string' },
      b: { type: 'string', pattern: '^\\d+$' },
    })
  })
})

describe('restoreOptionals', () => {
  const schema = toJson(
    z.object({
      query: z.string(),
      view: z.enum(['open', 'closed']).optional(),
      note: z.string().nullable(),
      page: z.object({ size: z.int().optional(), after: z.string() }).optional(),
      tags: z.array(z.object({ name: z.string(), color: z.string().optional() })),
    }),
  )

  it('drops the nulls that stand for absent optionals, at any depth', () => {
    expect(
      restoreOptionals(schema, {
        query: 'printer',
        view: null,
        note: null,
        page: { size: null, after: 'T-1' },
        tags: [
          { name: 'a', color: null },
          { name: 'b', color: 'red' },
        ],
      }),
    ).toEqual({
      query: 'printer',
      note: null,
      page: { after: 'T-1' },
      tags: [{ name: 'a' }, { name: 'b', color: 'red' }],
    })
    expect(restoreOptionals(schema, { query: 'x', note: 'y', page: null, tags: [] })).toEqual({
      query: 'x',
      note: 'y',
      tags: [],
    })
  })

  it('follows the anyOf branch the value matches', () => {
    const union = toJson(
      z.object({
        contact: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('email'), to: z.string(), cc: z.string().optional() }),
          z.object({ kind: z.literal('sms'), phone: z.string(), at: z.string().optional() }),
        ]),
      }),
    )
    expect(restoreOptionals(union, { contact: { kind: 'sms', phone: '+1', at: null } })).toEqual({
      contact: { kind: 'sms', phone: '+1' },
    })
    expect(restoreOptionals(union, { contact: { kind: 'email', to: 'a@b.co', cc: null } })).toEqual(
      { contact: { kind: 'email', to: 'a@b.co' } },
    )
  })

  it('keeps keys named like Object.prototype members as plain data', () => {
    const restored = restoreOptionals(
      { type: 'object', properties: { a: { type: 'string' } } },
      JSON.parse('{"__proto__":{"polluted":true},"a":null}'),
    ) as Record<string, unknown>
    expect(Object.keys(restored)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(restored)).toBe(Object.prototype)
  })
})
