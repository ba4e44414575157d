import { z } from 'zod'
import { createToolmark, ok, type ErrorEvent, type StandardSchemaV1 } from '../src/index'

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
    expect(tm.describe('a')?.signature).toBe('{ custom?: number }')
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
    expect(tm.describe('a')?.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
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
    expect(entry?.signature).toBe('{ when: any, note: string }')
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
