import fc from 'fast-check'
import { z } from 'zod'
import { createToolmark, ok } from '../src/index'

const fillInput = z.object({
  values: z.object({
    title: z.string().optional(),
    priority: z.enum(['low', 'high']).optional(),
  }),
  overwrite: z.boolean().optional(),
})

describe('manifest', () => {
  it('lists the tools sorted by name with rev', async () => {
    const tm = createToolmark()
    for (const name of ['zeta', 'alpha', 'mid.b', 'mid.a']) {
      tm.register({ name, description: `${name} tool`, run: () => ok(null) })
    }
    const manifest = tm.manifest()
    expect(manifest.rev).toBe(1)
    expect(manifest.tools.map((t) => t.name)).toEqual(['alpha', 'mid.a', 'mid.b', 'zeta'])
  })

  it('stays in name order across revisions that add, remove and replace tools', async () => {
    const tm = createToolmark()
    const names = () => tm.manifest().tools.map((t) => t.name)
    const handles = new Map<string, { dispose(): void }>()
    const add = (name: string) =>
      handles.set(name, tm.register({ name, description: name, run: () => ok(name) }))
    for (const name of ['m', 'c', 'x', 'a']) add(name)
    expect(names()).toEqual(['a', 'c', 'm', 'x'])

    add('b')
    add('z')
    await Promise.resolve()
    expect(names()).toEqual(['a', 'b', 'c', 'm', 'x', 'z'])

    // Same count as before, different set: one removed, one added.
    handles.get('m')!.dispose()
    add('n')
    await Promise.resolve()
    expect(names()).toEqual(['a', 'b', 'c', 'n', 'x', 'z'])

    // Replaced under the same name: the new registration's entry is listed.
    handles.get('c')!.dispose()
    tm.register({ name: 'c', description: 'the new c', run: () => ok('c') })
    handles.get('a')!.dispose()
    await Promise.resolve()
    expect(names()).toEqual(['b', 'c', 'n', 'x', 'z'])
    expect(tm.manifest().tools[1].description).toBe('the new c')
  })

  it('lists exactly the registered tools in name order after any sequence of changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.boolean(), fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g')), {
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 5 }),
        async (ops, every) => {
          const tm = createToolmark({ dev: false })
          const live = new Map<string, { dispose(): void }>()
          for (const [index, [add, name]] of ops.entries()) {
            if (add && !live.has(name)) {
              live.set(name, tm.register({ name, description: name, run: () => ok(null) }))
            } else if (!add) {
              live.get(name)?.dispose()
              live.delete(name)
            }
            if (index % every === 0) {
              await Promise.resolve()
              expect(tm.manifest().tools.map((t) => t.name)).toEqual([...live.keys()].sort())
            }
          }
          await Promise.resolve()
          expect(tm.manifest().tools.map((t) => t.name)).toEqual([...live.keys()].sort())
        },
      ),
    )
  })

  it('gives each summary entry name, llmName, title, description, true hints and a signature', () => {
    const tm = createToolmark()
    tm.register({
      name: 'ticket.fill',
      title: 'Fill the ticket form',
      description: 'Fills fields of the ticket form.',
      input: fillInput,
      hints: { untrustedContent: true, readOnly: false },
      run: () => ok(null),
    })
    expect(tm.manifest().tools).toEqual([
      {
        name: 'ticket.fill',
        llmName: 'ticket__fill',
        title: 'Fill the ticket form',
        description: 'Fills fields of the ticket form.',
        hints: { untrustedContent: true },
        signature: '{values:{title?:string,priority?:"low"|"high"},overwrite?:boolean}',
      },
    ])
  })

  it('omits title when there is none and renders a tool without input as {}', () => {
    const tm = createToolmark()
    tm.register({ name: 'ping', description: 'Pings', run: () => ok(null) })
    const [entry] = tm.manifest().tools
    expect('title' in entry).toBe(false)
    expect(entry.signature).toBe('{}')
    expect(entry.hints).toEqual({})
  })

  it('omits the signature from the summary when it exceeds the budget, and keeps it in full', () => {
    const tm = createToolmark({ limits: { signatureBudget: 40 } })
    tm.register({ name: 'fill', description: 'Fills', input: fillInput, run: () => ok(null) })
    tm.register({
      name: 'small',
      description: 'Small',
      input: z.object({ id: z.string() }),
      run: () => ok(null),
    })
    const summary = tm.manifest().tools
    expect('signature' in summary[0]).toBe(false)
    expect(summary[1].signature).toBe('{id:string}')
    const full = tm.manifest({ detail: 'full' }).tools
    expect(full[0].signature).toContain('overwrite?:boolean')
  })

  it('joins alternatives with a bare | and brackets a list of them', () => {
    const tm = createToolmark()
    tm.register({
      name: 'tag',
      description: 'Tags',
      input: z.object({
        tags: z.array(z.enum(['red', 'blue'])),
        ids: z.array(z.number()),
        note: z.string().nullable(),
      }),
      run: () => ok(null),
    })
    expect(tm.manifest().tools[0].signature).toBe(
      '{tags:("red"|"blue")[],ids:number[],note:string|null}',
    )
  })

  it('leaves $schema out of full entries and describe answers, whatever the schema came from', () => {
    const tm = createToolmark()
    tm.register({
      name: 'zod',
      description: 'Zod',
      input: z.object({ id: z.string() }),
      run: () => ok(null),
    })
    const override = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { id: { type: 'string' } },
    }
    tm.register({ name: 'own', description: 'Own', inputSchema: override, run: () => ok(null) })
    for (const name of ['zod', 'own']) {
      expect(tm.describe(name)?.inputSchema).not.toHaveProperty('$schema')
      expect(tm.describe(name)?.inputSchema).toMatchObject({
        properties: { id: { type: 'string' } },
      })
    }
    for (const entry of tm.manifest({ detail: 'full' }).tools) {
      expect(JSON.stringify(entry)).not.toContain('$schema')
    }
    // The app's own object is never changed.
    expect(override.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
  })

  it('keeps signatures within the default budget of 240 characters', () => {
    const tm = createToolmark()
    const shape: Record<string, z.ZodString> = {}
    for (let i = 0; i < 40; i++) shape[`field${i}`] = z.string()
    tm.register({ name: 'big', description: 'Big', input: z.object(shape), run: () => ok(null) })
    tm.register({ name: 'small', description: 'Small', input: fillInput, run: () => ok(null) })
    for (const entry of tm.manifest().tools) {
      if (entry.signature !== undefined) expect(entry.signature.length).toBeLessThanOrEqual(240)
    }
    expect(tm.manifest().tools[0].signature).toBeUndefined()
  })

  it('adds inputSchema only with detail full', () => {
    const tm = createToolmark()
    tm.register({
      name: 'get',
      description: 'Gets',
      input: z.object({ id: z.string() }),
      run: () => ok(null),
    })
    expect('inputSchema' in tm.manifest().tools[0]).toBe(false)
    expect(tm.manifest({ detail: 'full' }).tools[0].inputSchema).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
    })
  })

  it('returns the same frozen object until something changes (cached per rev)', async () => {
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', run: () => ok(null) })
    const first = tm.manifest()
    expect(tm.manifest()).toBe(first)
    expect(Object.isFrozen(first)).toBe(true)
    expect(Object.isFrozen(first.tools)).toBe(true)
    expect(Object.isFrozen(first.tools[0])).toBe(true)
    expect(Object.isFrozen(first.tools[0].hints)).toBe(true)
    const full = tm.manifest({ detail: 'full' })
    expect(tm.manifest({ detail: 'full' })).toBe(full)
    tm.register({ name: 'b', description: 'B', run: () => ok(null) })
    const second = tm.manifest()
    expect(second).not.toBe(first)
    expect(second.tools.map((t) => t.name)).toEqual(['a', 'b'])
    // Unchanged tools keep their entry object across revisions.
    expect(second.tools[0]).toBe(first.tools[0])
  })

  it('differs per caller: destructive tools are hidden from webmcp and mcp by default', () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    tm.register({ name: 'read', description: 'Reads', hints: { readOnly: true }, run: () => ok(1) })
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      run: () => ok(1),
    })
    tm.register({
      name: 'delete',
      description: 'Deletes',
      hints: { destructive: true },
      run: () => ok(1),
    })
    const of = (caller: 'inapp' | 'webmcp' | 'mcp' | 'test' | 'human') =>
      tm.manifest({ caller }).tools.map((t) => t.name)
    expect(of('inapp')).toEqual(['close', 'delete', 'read'])
    expect(of('test')).toEqual(['close', 'delete', 'read'])
    expect(of('human')).toEqual(['close', 'delete', 'read'])
    expect(of('webmcp')).toEqual(['close', 'read'])
    expect(of('mcp')).toEqual(['close', 'read'])
  })

  it('defaults to caller inapp and summary detail; an unknown caller sees nothing', () => {
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', run: () => ok(null) })
    expect(tm.manifest()).toBe(tm.manifest({ caller: 'inapp', detail: 'summary' }))
    expect(tm.manifest({ caller: 'robot' as never }).tools).toEqual([])
    expect(tm.manifest('nonsense' as never).tools.map((t) => t.name)).toEqual(['a'])
  })

  it('carries hints.untrustedContent in every manifest', () => {
    const tm = createToolmark()
    tm.register({
      name: 'search',
      description: 'Searches',
      hints: { readOnly: true, untrustedContent: true },
      run: () => ok([]),
    })
    for (const caller of ['inapp', 'webmcp', 'mcp', 'test'] as const) {
      for (const detail of ['summary', 'full'] as const) {
        expect(tm.manifest({ caller, detail }).tools[0].hints).toEqual({
          readOnly: true,
          untrustedContent: true,
        })
      }
    }
  })
})

describe('describe', () => {
  it('returns the full entry of a tool visible to the caller', () => {
    const tm = createToolmark()
    tm.register({
      name: 'get',
      title: 'Get a ticket',
      description: 'Gets a ticket',
      input: z.object({ id: z.string() }),
      hints: { readOnly: true },
      run: () => ok(null),
    })
    expect(tm.describe('get')).toEqual({
      name: 'get',
      llmName: 'get',
      title: 'Get a ticket',
      description: 'Gets a ticket',
      hints: { readOnly: true },
      signature: '{id:string}',
      inputSchema: expect.objectContaining({ type: 'object' }),
    })
    expect(tm.describe('get')).toBe(tm.manifest({ detail: 'full' }).tools[0])
  })

  it('returns undefined for an unknown, hidden or not-allowed tool, or an unknown caller', () => {
    const tm = createToolmark()
    tm.register({
      name: 'delete',
      description: 'Deletes',
      hints: { destructive: true },
      run: () => ok(1),
    })
    tm.register(
      { name: 'hidden', description: 'Hidden', run: () => ok(1) },
      { scope: tm.scope('s', { when: false }) },
    )
    expect(tm.describe('missing')).toBeUndefined()
    expect(tm.describe('s.hidden')).toBeUndefined()
    expect(tm.describe('delete', { caller: 'mcp' })).toBeUndefined()
    expect(tm.describe('delete', { caller: 'robot' as never })).toBeUndefined()
    expect(tm.describe(42 as never)).toBeUndefined()
    expect(tm.describe('delete')?.name).toBe('delete')
  })
})
