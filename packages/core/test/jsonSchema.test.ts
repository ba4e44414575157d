import { z } from 'zod'
import {
  createToolmark,
  ok,
  type ErrorEvent,
  type StandardJsonSchemaOptions,
  type StandardSchemaV1,
} from '../src/index'
import { jsonSchemaOf } from '../src/schema/jsonSchema'
import { webmcp } from '../src/webmcp'
import { createFakeModelContext, settle } from './webmcp/fakeModelContext'

/** A Standard Schema without Standard JSON Schema (like an older validation library). */
const bareSchema = (): StandardSchemaV1<{ id: string }> => ({
  '~standard': {
    version: 1,
    vendor: 'bare',
    validate: (value) =>
      typeof (value as { id?: unknown })?.id === 'string'
        ? { value: value as { id: string } }
        : { issues: [{ message: 'id is required', path: ['id'] }] },
  },
})

describe('JSON Schema resolution', () => {
  it('uses inputSchema first, over the schema’s own JSON Schema', () => {
    const tm = createToolmark()
    const override = { type: 'object', properties: { custom: { type: 'number' } } }
    tm.register({
      name: 'a',
      description: 'A',
      input: z.object({ id: z.string() }),
      inputSchema: override,
      run: () => ok(null),
    })
    expect(tm.describe('a')?.inputSchema).toEqual(override)
    expect(tm.describe('a')?.signature).toBe('{custom?:number}')
  })

  it('uses zod’s Standard JSON Schema (draft 2020-12) next', () => {
    const converter = vi.fn(() => ({ type: 'object', title: 'from converter' }))
    const tm = createToolmark({ jsonSchema: converter })
    tm.register({
      name: 'a',
      description: 'A',
      input: z.object({ id: z.string(), count: z.number().optional() }),
      run: () => ok(null),
    })
    // Without `$schema`: the dialect is always draft 2020-12, and the keyword only costs bytes.
    expect(tm.describe('a')?.inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, count: { type: 'number' } },
      required: ['id'],
    })
    expect(converter).not.toHaveBeenCalled()
  })

  it('uses the jsonSchema converter option for a schema without Standard JSON Schema', () => {
    const schema = bareSchema()
    const converter = vi.fn(() => ({ type: 'object', properties: { id: { type: 'string' } } }))
    const tm = createToolmark({ jsonSchema: converter })
    tm.register({ name: 'a', description: 'A', input: schema, run: () => ok(null) })
    expect(tm.describe('a')?.inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
    })
    expect(converter).toHaveBeenCalledWith(schema)
  })

  it('throws in development when no JSON Schema can be had, naming the three fixes', () => {
    const tm = createToolmark({ dev: true })
    expect(() =>
      tm.register({ name: 'a', description: 'A', input: bareSchema(), run: () => ok(null) }),
    ).toThrow(/use zod ≥ 4.2, pass inputSchema, or give createToolmark a jsonSchema converter/)
  })

  it('rejects such a tool in production with an invalid_tool event', () => {
    const tm = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({ name: 'a', description: 'A', input: bareSchema(), run: () => ok(null) })
    expect(errors.map((e) => e.code)).toEqual(['invalid_tool'])
    expect(tm.manifest().tools).toEqual([])
  })

  it('gives a tool without input the empty-object schema', () => {
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', run: () => ok(null) })
    expect(tm.describe('a')?.inputSchema).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    })
  })

  it('renders types JSON cannot carry (dates) as anything rather than failing', () => {
    const tm = createToolmark()
    tm.register({
      name: 'a',
      description: 'A',
      input: z.object({ when: z.date(), note: z.string() }),
      run: () => ok(null),
    })
    const entry = tm.describe('a')
    expect(entry?.inputSchema).toMatchObject({ properties: { note: { type: 'string' } } })
    expect(entry?.signature).toBe('{when:any,note:string}')
  })

  it('reports a converter that throws as json_schema_failed and keeps the tool usable', async () => {
    const tm = createToolmark({
      jsonSchema: () => {
        throw new Error('cannot convert')
      },
    })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({ name: 'a', description: 'A', input: bareSchema(), run: () => ok('ran') })
    const entry = tm.describe('a')
    expect(entry).toBeDefined()
    expect('inputSchema' in entry!).toBe(false)
    expect('signature' in entry!).toBe(false)
    expect(errors.map((e) => [e.code, e.tool])).toEqual([['json_schema_failed', 'a']])
    expect(await tm.call('a', { id: 'x' })).toEqual({ status: 'ok', data: 'ran' })
  })

  it('freezes the resolved schema and never shares the app’s override object', () => {
    const tm = createToolmark()
    const override = { type: 'object', properties: { a: { type: 'string' } } }
    tm.register({ name: 'a', description: 'A', inputSchema: override, run: () => ok(null) })
    const schema = tm.describe('a')!.inputSchema!
    expect(schema).not.toBe(override)
    expect(Object.isFrozen(schema)).toBe(true)
    expect(Object.isFrozen(override)).toBe(false)
  })

  it('resolves each schema once, however many manifests are built', () => {
    const input = z.object({ id: z.string() })
    const spy = vi.spyOn(input['~standard'].jsonSchema!, 'input')
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', input, run: () => ok(null) })
    tm.manifest()
    tm.manifest({ detail: 'full' })
    tm.register({ name: 'b', description: 'B', run: () => ok(null) })
    tm.manifest()
    tm.describe('a')
    expect(spy).toHaveBeenCalledTimes(1)
  })
})

describe('one conversion per schema object', () => {
  it('converts a schema shared by 1,000 tools once, for manifests, describe and WebMCP alike', async () => {
    const input = z.object({ id: z.string(), note: z.string().optional() })
    const spy = vi.spyOn(input['~standard'].jsonSchema!, 'input')
    const tm = createToolmark()
    for (let i = 0; i < 1000; i++) {
      tm.register({ name: `t${i}`, description: `Tool ${i}.`, input, run: () => ok(i) })
    }
    const summary = tm.manifest()
    const full = tm.manifest({ detail: 'full' })
    const ctx = createFakeModelContext()
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    expect(spy).toHaveBeenCalledTimes(1)
    expect(ctx.tools.size).toBe(1000)
    expect(new Set(full.tools.map((entry) => entry.inputSchema)).size).toBe(1)
    expect(summary.tools[999].signature).toBe('{id:string,note?:string}')
    expect(tm.describe('t500')?.inputSchema).toBe(full.tools[0].inputSchema)
  })

  it('shares the conversion across registries and with jsonSchemaOf', () => {
    const input = z.object({ id: z.string() })
    const spy = vi.spyOn(input['~standard'].jsonSchema!, 'input')
    const first = createToolmark()
    const second = createToolmark()
    first.register({ name: 'a', description: 'A', input, run: () => ok(null) })
    second.register({ name: 'b', description: 'B', input, run: () => ok(null) })

    const schema = first.describe('a')!.inputSchema
    expect(second.describe('b')!.inputSchema).toBe(schema)
    expect(jsonSchemaOf(input).schema).toBe(schema)
    expect(spy).toHaveBeenCalledTimes(1)
  })

  it('converts distinct schema objects separately, even when they say the same', () => {
    const a = z.object({ id: z.string() })
    const b = z.object({ id: z.string() })
    const spyA = vi.spyOn(a['~standard'].jsonSchema!, 'input')
    const spyB = vi.spyOn(b['~standard'].jsonSchema!, 'input')
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', input: a, run: () => ok(null) })
    tm.register({ name: 'b', description: 'B', input: b, run: () => ok(null) })

    const schemaA = tm.describe('a')!.inputSchema
    const schemaB = tm.describe('b')!.inputSchema
    expect(schemaA).not.toBe(schemaB)
    expect(schemaA).toEqual(schemaB)
    expect(spyA).toHaveBeenCalledTimes(1)
    expect(spyB).toHaveBeenCalledTimes(1)
  })

  it('keeps a converter’s conversions apart from another converter’s', () => {
    const schema = bareSchema()
    const one = vi.fn(() => ({ type: 'object', title: 'one' }))
    const two = vi.fn(() => ({ type: 'object', title: 'two' }))
    const first = createToolmark({ jsonSchema: one })
    const second = createToolmark({ jsonSchema: two })
    for (let i = 0; i < 3; i++) {
      first.register({ name: `a${i}`, description: 'A', input: schema, run: () => ok(null) })
      second.register({ name: `b${i}`, description: 'B', input: schema, run: () => ok(null) })
    }
    expect(first.manifest({ detail: 'full' }).tools.map((t) => t.inputSchema?.title)).toEqual([
      'one',
      'one',
      'one',
    ])
    expect(second.manifest({ detail: 'full' }).tools.map((t) => t.inputSchema?.title)).toEqual([
      'two',
      'two',
      'two',
    ])
    expect(one).toHaveBeenCalledTimes(1)
    expect(two).toHaveBeenCalledTimes(1)
  })

  it('converts a throwing schema once and reports it once, however many tools and revisions use it', async () => {
    const converter = vi.fn(() => {
      throw new Error('cannot convert')
    })
    const schema = bareSchema()
    const tm = createToolmark({ jsonSchema: converter })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    for (let i = 0; i < 100; i++) {
      tm.register({ name: `t${i}`, description: 'T', input: schema, run: () => ok(i) })
    }
    tm.manifest()
    for (let r = 0; r < 3; r++) {
      const handle = tm.register({
        name: `extra${r}`,
        description: 'E',
        input: schema,
        run: () => ok(r),
      })
      await Promise.resolve()
      tm.manifest({ detail: 'full' })
      handle.dispose()
      await Promise.resolve()
      tm.manifest()
    }

    expect(converter).toHaveBeenCalledTimes(1)
    expect(errors.map((e) => [e.code, e.tool])).toEqual([['json_schema_failed', 't0']])
    expect(tm.describe('t99')).not.toHaveProperty('inputSchema')
    expect(await tm.call('t99', { id: 'x' })).toEqual({ status: 'ok', data: 99 })
  })

  it('tries a throwing Standard JSON Schema once (and once more for unrepresentable types)', () => {
    const input = bareSchema()
    const convert = vi.fn((_options: StandardJsonSchemaOptions): Record<string, unknown> => {
      throw new Error('no')
    })
    const withJsonSchema = {
      '~standard': { ...input['~standard'], jsonSchema: { input: convert, output: convert } },
    } as StandardSchemaV1<{ id: string }>
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({ name: 'a', description: 'A', input: withJsonSchema, run: () => ok(null) })
    tm.register({ name: 'b', description: 'B', input: withJsonSchema, run: () => ok(null) })
    tm.manifest({ detail: 'full' })
    tm.describe('b')

    expect(convert.mock.calls.map(([options]) => options)).toEqual([
      { target: 'draft-2020-12' },
      { target: 'draft-2020-12', libraryOptions: { unrepresentable: 'any' } },
    ])
    expect(errors.map((e) => e.code)).toEqual(['json_schema_failed'])
  })

  it('keeps the JSON Schema it made of an object later mutated, for every tool using it', () => {
    const override: Record<string, unknown> = {
      type: 'object',
      properties: { a: { type: 'string' } },
    }
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', inputSchema: override, run: () => ok(null) })
    tm.manifest()
    override.properties = { b: { type: 'number' } }
    tm.register({ name: 'b', description: 'B', inputSchema: override, run: () => ok(null) })

    expect(tm.describe('a')?.signature).toBe('{a?:string}')
    expect(tm.describe('b')?.signature).toBe('{a?:string}')
  })
})
