import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark } from '../../src/index'
import { createFormMemory, createFormTools } from '../../src/forms'
import { memoryForm } from './memoryForm'

const ticketSchema = z.object({
  title: z.string().min(1, 'Give the ticket a title'),
  priority: z.enum(['low', 'normal', 'high']),
  estimate: z.number().int().min(0).optional(),
  due: z.coerce.date().optional(),
  urgent: z.boolean(),
  note: z.string().nullable(),
  customer: z.object({ name: z.string(), email: z.email().or(z.literal('')) }),
  items: z.array(z.object({ product: z.string().min(1), qty: z.number().int().min(1) })),
})

const ticketDefaults = () => ({
  title: '',
  priority: 'normal',
  estimate: undefined,
  due: undefined,
  urgent: false,
  note: null,
  customer: { name: '', email: '' },
  items: [] as { product: string; qty: number }[],
})

function setup(options: { limits?: { fillNodes?: number } } = {}) {
  const tm = createToolmark({ limits: options.limits })
  const form = memoryForm(ticketDefaults())
  const tools = createFormTools(tm, form.adapter, {
    name: 'ticket',
    description: 'The new-ticket form.',
    schema: ticketSchema,
  })
  return { tm, form, tools }
}

describe('ticket.fill', () => {
  it('writes a partial fill and returns the changes sorted by path', async () => {
    const { tm, form } = setup()

    const result = await tm.call('ticket.fill', {
      values: { title: 'Printer on fire', customer: { name: 'Ada' }, priority: 'high' },
    })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'customer.name', after: 'Ada' },
          { path: 'priority', before: 'normal', after: 'high' },
          { path: 'title', after: 'Printer on fire' },
        ],
        skipped: [],
      },
    })
    expect(form.values).toMatchObject({
      title: 'Printer on fire',
      priority: 'high',
      customer: { name: 'Ada', email: '' },
    })
    expect(form.adapter.setValues).toHaveBeenCalledTimes(1)
    expect(form.adapter.setValues.mock.calls[0][1]).toEqual({ source: 'agent' })
  })

  it('leaves absent and undefined fields alone', async () => {
    const { tm, form } = setup()
    form.type('title', 'Mine')

    const result = await tm.call('ticket.fill', {
      values: { title: undefined, customer: { email: 'ada@example.com' } },
    })

    expect(result).toEqual({
      status: 'ok',
      data: { changes: [{ path: 'customer.email', after: 'ada@example.com' }], skipped: [] },
    })
    expect(form.values.title).toBe('Mine')
    expect(form.values.customer.name).toBe('')
  })

  it('clears a field with null, to the empty value its type allows', async () => {
    const { tm, form } = setup()
    await tm.call('ticket.fill', {
      values: {
        title: 'T',
        note: 'n',
        urgent: true,
        estimate: 3,
        items: [{ product: 'Toner', qty: 1 }],
        customer: { name: 'Ada', email: 'ada@example.com' },
      },
    })

    const result = await tm.call('ticket.fill', {
      values: { note: null, urgent: null, estimate: null, items: null, customer: null },
    })

    expect(result).toMatchObject({ status: 'ok' })
    expect(form.values).toMatchObject({
      title: 'T',
      note: null,
      urgent: false,
      estimate: undefined,
      items: [],
      customer: { name: '', email: '' },
    })
    expect((result as { data: { changes: unknown } }).data.changes).toEqual([
      { path: 'customer.email', before: 'ada@example.com' },
      { path: 'customer.name', before: 'Ada' },
      { path: 'estimate', before: 3 },
      { path: 'items', before: [{ product: 'Toner', qty: 1 }], after: [] },
      { path: 'note', before: 'n' },
      { path: 'urgent', before: true, after: false },
    ])
  })

  it('skips a field the user edited unless overwrite is true', async () => {
    const { tm, form } = setup()
    form.type('title', 'Typed by a person')

    const skipped = await tm.call('ticket.fill', {
      values: { title: 'From the agent', urgent: true },
    })

    expect(skipped).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'urgent', before: false, after: true }],
        skipped: [{ path: 'title', reason: 'user_edited' }],
      },
    })
    expect(form.values.title).toBe('Typed by a person')

    const overwritten = await tm.call('ticket.fill', {
      values: { title: 'From the agent' },
      overwrite: true,
    })

    expect(overwritten).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'title', before: 'Typed by a person', after: 'From the agent' }],
        skipped: [],
      },
    })
    expect(form.values.title).toBe('From the agent')
  })

  it('lets the agent rewrite its own earlier value', async () => {
    const { tm, form } = setup()
    await tm.call('ticket.fill', { values: { title: 'First draft' } })
    // A form library marks the field dirty: it differs from its default.
    form.touch('title')

    const result = await tm.call('ticket.fill', { values: { title: 'Second draft' } })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'title', before: 'First draft', after: 'Second draft' }],
        skipped: [],
      },
    })
    expect(form.values.title).toBe('Second draft')
  })

  it('treats a field the user changed after the agent wrote it as a user edit', async () => {
    const { tm, form, tools } = setup()
    await tm.call('ticket.fill', { values: { title: 'Agent title' } })
    form.type('title', 'Agent title, fixed by a person')

    const result = await tm.call('ticket.fill', { values: { title: 'Agent again' } })

    expect(result).toMatchObject({
      status: 'ok',
      data: { changes: [], skipped: [{ path: 'title', reason: 'user_edited' }] },
    })
    expect(tools.editedPaths()).toEqual(['title'])
  })

  it('does not count a field the user only visited as an edit', async () => {
    const { tm, form, tools } = setup()
    form.touch('customer.name')

    const result = await tm.call('ticket.fill', { values: { customer: { name: 'Ada' } } })

    expect(result).toMatchObject({ status: 'ok', data: { skipped: [] } })
    expect(form.values.customer.name).toBe('Ada')
    expect(tools.editedPaths()).toEqual([])
  })

  it('validates the merged form, counting only issues on the fields it touches', async () => {
    const { tm, form } = setup()

    // `title` is required and still empty, but this fill does not touch it.
    const result = await tm.call('ticket.fill', {
      values: { customer: { email: 'ada@example.com' } },
    })

    expect(result).toMatchObject({ status: 'ok' })
    expect(form.values.customer.email).toBe('ada@example.com')
  })

  it('writes nothing when any value is invalid, and names each bad path', async () => {
    const { tm, form } = setup()

    const result = await tm.call('ticket.fill', {
      values: {
        priority: 'urgent',
        estimate: 'three',
        urgent: 'yes',
        customer: { name: 'Ada', email: 'not-an-email' },
      },
    })

    expect(result.status).toBe('invalid')
    const paths = (result as { issues: { path: string }[] }).issues.map((i) => i.path)
    expect(paths).toEqual([
      'values.customer.email',
      'values.estimate',
      'values.priority',
      'values.urgent',
    ])
    expect(form.adapter.setValues).not.toHaveBeenCalled()
    expect(form.values).toEqual(ticketDefaults())
  })

  it('reports the schema’s own message when a fill empties a required field', async () => {
    const { tm, form } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer on fire' } })

    const result = await tm.call('ticket.fill', { values: { title: null, urgent: true } })

    expect(result).toEqual({
      status: 'invalid',
      issues: [{ path: 'values.title', message: 'Give the ticket a title' }],
    })
    expect(form.values).toMatchObject({ title: 'Printer on fire', urgent: false })
  })

  it('rejects fields the schema does not declare', async () => {
    const { tm, form } = setup()

    const result = await tm.call('ticket.fill', {
      values: { title: 'T', assignee: 'bob', customer: { phone: '555' } },
      extra: true,
    })

    expect(result).toEqual({
      status: 'invalid',
      issues: [
        { path: 'extra', message: 'Unknown key' },
        { path: 'values.assignee', message: 'Not a field of this form' },
        { path: 'values.customer.phone', message: 'Not a field of this form' },
      ],
    })
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })

  it('rejects an envelope of the wrong shape', async () => {
    const { tm } = setup()

    expect(await tm.call('ticket.fill', { values: 'title=T' })).toEqual({
      status: 'invalid',
      issues: [{ path: 'values', message: 'Expected an object of fields to set' }],
    })
    expect(await tm.call('ticket.fill', { values: {}, overwrite: 'yes' })).toEqual({
      status: 'invalid',
      issues: [{ path: 'overwrite', message: 'Expected a boolean' }],
    })
    expect(await tm.call('ticket.fill', ['title'])).toMatchObject({
      status: 'invalid',
      issues: [{ path: '' }],
    })
  })

  it('rejects __proto__, prototype and constructor segments and pollutes nothing', async () => {
    const { tm, form } = setup()
    const attacks = [
      JSON.parse('{"values":{"__proto__":{"polluted":true}}}'),
      JSON.parse('{"values":{"customer":{"__proto__":{"polluted":true}}}}'),
      { values: { constructor: { prototype: { polluted: true } } } },
      { values: { items: [JSON.parse('{"__proto__":{"polluted":true}}')] } },
      { values: { customer: { prototype: 'x' } } },
    ]

    const results = await Promise.all(attacks.map((input) => tm.call('ticket.fill', input)))

    expect(results.map((r) => r.status)).toEqual(Array(5).fill('invalid'))
    expect(results.map((r) => (r as { issues: { path: string }[] }).issues[0].path)).toEqual([
      'values.__proto__',
      'values.customer.__proto__',
      'values.constructor',
      'values.items.0.__proto__',
      'values.customer.prototype',
    ])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })

  it('rejects values whose prototype is not a plain object', async () => {
    const { tm, form } = setup()

    const result = await tm.call('ticket.fill', {
      values: { __proto__: { title: 'hidden' } },
    })

    expect(result).toMatchObject({ status: 'invalid', issues: [{ path: 'values' }] })
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })

  it('rejects an input over the node budget', async () => {
    const { tm, form } = setup()
    const items = Array.from({ length: 3_400 }, (_, i) => ({ product: `p${i}`, qty: 1 }))

    const result = await tm.call('ticket.fill', { values: { items } })

    expect(result).toEqual({
      status: 'invalid',
      issues: [{ path: 'values', message: 'Too large: a fill takes at most 10000 values' }],
    })
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })

  it('takes the node budget from limits.fillNodes', async () => {
    const { tm } = setup({ limits: { fillNodes: 5 } })

    expect(
      await tm.call('ticket.fill', { values: { title: 'a', note: 'b', urgent: true } }),
    ).toMatchObject({ status: 'ok' })
    expect(
      await tm.call('ticket.fill', {
        values: {
          items: [
            { product: 'a', qty: 1 },
            { product: 'b', qty: 2 },
          ],
        },
      }),
    ).toMatchObject({ status: 'invalid', issues: [{ path: 'values' }] })
  })

  it('rejects values JSON cannot carry', async () => {
    const { tm, form } = setup()

    const result = await tm.call('ticket.fill', {
      values: { estimate: Number.NaN, title: () => 'x', note: new Map() },
    })

    expect(result).toMatchObject({ status: 'invalid' })
    expect((result as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      'values.estimate',
      'values.title',
      'values.note',
    ])
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })
})

describe('ticket.fill with arrays', () => {
  it('replaces an array with a new value', async () => {
    const { tm, form } = setup()
    await tm.call('ticket.fill', { values: { items: [{ product: 'Toner', qty: 1 }] } })

    const result = await tm.call('ticket.fill', {
      values: { items: [{ product: 'Paper', qty: 5 }] },
    })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          {
            path: 'items',
            before: [{ product: 'Toner', qty: 1 }],
            after: [{ product: 'Paper', qty: 5 }],
          },
        ],
        skipped: [],
      },
    })
    expect(form.values.items).toEqual([{ product: 'Paper', qty: 5 }])
  })

  it('appends with $append and removes with $remove', async () => {
    const { tm, form } = setup()
    await tm.call('ticket.fill', {
      values: {
        items: [
          { product: 'A', qty: 1 },
          { product: 'B', qty: 2 },
        ],
      },
    })

    await tm.call('ticket.fill', { values: { items: { $append: [{ product: 'C', qty: 3 }] } } })
    expect(form.values.items.map((i: { product: string }) => i.product)).toEqual(['A', 'B', 'C'])

    const removed = await tm.call('ticket.fill', { values: { items: { $remove: [0, 2] } } })
    expect(form.values.items).toEqual([{ product: 'B', qty: 2 }])
    expect(removed).toMatchObject({
      status: 'ok',
      data: { changes: [{ path: 'items', after: [{ product: 'B', qty: 2 }] }] },
    })
  })

  it('appends to a list the user edited, but does not replace it', async () => {
    const { tm, form } = setup()
    await tm.call('ticket.fill', { values: { items: [{ product: 'A', qty: 1 }] } })
    form.type('items.0.qty', 4)

    const appended = await tm.call('ticket.fill', {
      values: { items: { $append: [{ product: 'B', qty: 1 }] } },
    })
    const replaced = await tm.call('ticket.fill', { values: { items: [] } })
    const removed = await tm.call('ticket.fill', { values: { items: { $remove: [0] } } })

    expect(appended).toMatchObject({ status: 'ok', data: { skipped: [] } })
    expect(replaced).toMatchObject({
      data: { skipped: [{ path: 'items', reason: 'user_edited' }] },
    })
    expect(removed).toMatchObject({ data: { skipped: [{ path: 'items', reason: 'user_edited' }] } })
    expect(form.values.items).toEqual([
      { product: 'A', qty: 4 },
      { product: 'B', qty: 1 },
    ])
  })

  it('rejects bad array operations and writes nothing', async () => {
    const { tm, form } = setup()
    const bad = [
      { items: { $append: 'C' } },
      { items: { $remove: [-1, 1.5, '0'] } },
      { items: { $remove: [3] } },
      { items: { $insert: [] } },
      { items: { $append: [], $remove: [] } },
      { items: { product: 'A' } },
      { customer: { $append: [{ name: 'x' }] } },
      { items: [{ product: 'A', qty: 1, colour: 'red' }] },
      { items: 'A' },
    ]

    const results = await Promise.all(bad.map((values) => tm.call('ticket.fill', { values })))

    expect(results.map((r) => r.status)).toEqual(Array(bad.length).fill('invalid'))
    expect(
      results.map((r) => (r as { issues: { path: string }[] }).issues.map((i) => i.path)),
    ).toEqual([
      ['values.items.$append'],
      ['values.items.$remove.0', 'values.items.$remove.1', 'values.items.$remove.2'],
      ['values.items.$remove.0'],
      ['values.items'],
      ['values.items'],
      ['values.items'],
      ['values.customer.$append'],
      ['values.items.0.colour'],
      ['values.items'],
    ])
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })

  it('reports issues of appended items at their $append paths', async () => {
    const { tm, form } = setup()
    await tm.call('ticket.fill', { values: { items: [{ product: 'A', qty: 1 }] } })

    const result = await tm.call('ticket.fill', {
      values: {
        items: {
          $append: [
            { product: 'B', qty: 1 },
            { product: '', qty: 0 },
          ],
        },
      },
    })

    expect(result).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'values.items.$append.1.product' }, { path: 'values.items.$append.1.qty' }],
    })
    expect(form.values.items).toHaveLength(1)
  })

  it('does not let the user’s unfinished rows block an append', async () => {
    const { tm, form } = setup()
    form.type('items', [{ product: '', qty: 1 }])

    const result = await tm.call('ticket.fill', {
      values: { items: { $append: [{ product: 'B', qty: 1 }] } },
    })

    expect(result).toMatchObject({ status: 'ok' })
    expect(form.values.items).toHaveLength(2)
  })
})

describe('ticket.fill with every kind of field', () => {
  it('fills numbers, dates as ISO strings, booleans and selects', async () => {
    const { tm, form } = setup()

    const result = await tm.call('ticket.fill', {
      values: { estimate: 8, due: '2030-01-31', urgent: true, priority: 'low' },
    })

    expect(result).toMatchObject({ status: 'ok' })
    expect(form.values).toMatchObject({
      estimate: 8,
      due: '2030-01-31',
      urgent: true,
      priority: 'low',
    })
    expect(await tm.call('ticket.fill', { values: { due: 'the thirty-first' } })).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'values.due' }],
    })
    expect(await tm.call('ticket.fill', { values: { estimate: 1.5 } })).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'values.estimate' }],
    })
  })

  it('accepts a Date from an in-page caller', async () => {
    const { tm, form } = setup()
    const due = new Date('2030-02-01T00:00:00Z')

    const result = await tm.call('ticket.fill', { values: { due } })

    expect(result).toMatchObject({ status: 'ok' })
    expect(form.values.due).toEqual(due)
  })

  it('writes nothing and reports no change when values already match', async () => {
    const { tm, form } = setup()

    const result = await tm.call('ticket.fill', { values: { priority: 'normal', title: null } })

    expect(result).toEqual({ status: 'ok', data: { changes: [], skipped: [] } })
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })
})

describe('ticket.fill input schema', () => {
  it('describes values as a partial of the form, with array operations', () => {
    const { tm } = setup()

    const entry = tm.describe('ticket.fill')!
    const values = (entry.inputSchema!.properties as Record<string, any>).values

    expect(entry.hints).toEqual({ untrustedContent: true })
    expect(entry.inputSchema).toMatchObject({ required: ['values'], additionalProperties: false })
    expect(values.required).toBeUndefined()
    expect(values.additionalProperties).toBe(false)
    // null clears any field: said once, in the description, not on every field.
    expect(values.properties.title.type).toBe('string')
    expect(values.description).toMatch(/null clears it/)
    // A field the form itself allows to be null keeps saying so.
    expect(values.properties.note.type).toEqual(['string', 'null'])
    expect(values.properties.customer.required).toBeUndefined()
    expect(values.properties.items.anyOf.map((s: any) => s.type)).toEqual([
      'array',
      'object',
      'object',
    ])
    expect(values.properties.items.anyOf[1].required).toEqual(['$append'])
    expect(values.properties.items.anyOf[0].items.required).toEqual(['product', 'qty'])
    expect(values.description).toMatch(/\$append/)
    expect(entry.description).toMatch(/null clears\. Lists take a new list, \{"\$append"/)
    expect(entry.inputSchema!.$schema).toBeUndefined()
  })

  it('fits a small form’s signature in the summary manifest', () => {
    const tm = createToolmark()
    const form = memoryForm({ title: '', priority: 'low' })
    createFormTools(tm, form.adapter, {
      name: 'todo',
      description: 'A to-do.',
      schema: z.object({ title: z.string(), priority: z.enum(['low', 'high']) }),
    })

    const entry = tm.manifest().tools.find((t) => t.name === 'todo.fill')!

    expect(entry.signature).toBe(
      '{values:{title?:string,priority?:"low"|"high"},overwrite?:boolean}',
    )
    // Array operations are explained only to forms that have lists.
    expect(entry.description).toMatch(/null clears/)
    expect(entry.description).not.toMatch(/\$append|\$remove/)
    expect(JSON.stringify(tm.describe('todo.fill'))).not.toMatch(/\$append|\$remove/)
  })

  it('gives a five-field form with two long enums a complete signature within 240 characters', () => {
    const tm = createToolmark()
    const form = memoryForm({
      title: '',
      requester: '',
      category: 'other',
      priority: 'normal',
      description: '',
    })
    createFormTools(tm, form.adapter, {
      name: 'ticket',
      description: 'The new-ticket form.',
      schema: z.object({
        title: z.string().min(3).max(120),
        requester: z.email(),
        category: z.enum(['hardware', 'software', 'access', 'network', 'other']),
        priority: z.enum(['low', 'normal', 'high', 'urgent']),
        description: z.string().max(4000),
      }),
    })

    const entry = tm.manifest().tools.find((t) => t.name === 'ticket.fill')!

    expect(entry.signature).toBe(
      '{values:{title?:string,requester?:string,category?:"hardware"|"software"|"access"|"network"|"other",priority?:"low"|"normal"|"high"|"urgent",description?:string},overwrite?:boolean}',
    )
    expect(entry.signature!.length).toBeLessThanOrEqual(240)
  })
})

describe('ticket.fill memory', () => {
  it('remembers the agent’s writes across registrations that share a memory', async () => {
    const tm = createToolmark()
    const form = memoryForm(ticketDefaults())
    const memory = createFormMemory()
    const options = {
      name: 'ticket',
      description: 'The new-ticket form.',
      schema: ticketSchema,
      memory,
    }
    const first = createFormTools(tm, form.adapter, options)
    await tm.call('ticket.fill', { values: { title: 'Draft' } })
    form.touch('title')
    first.dispose()

    createFormTools(tm, form.adapter, options)
    const result = await tm.call('ticket.fill', { values: { title: 'Better draft' } })

    expect(result).toMatchObject({ status: 'ok', data: { skipped: [] } })
    expect(form.values.title).toBe('Better draft')
  })
})

describe('ticket.fill with an asynchronous schema', () => {
  it('skips a field the user typed into while the schema ran', async () => {
    const tm = createToolmark()
    const form = memoryForm({ title: '', note: '' })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slowSchema = z.object({
      title: z.string().refine(async () => {
        await gate
        return true
      }),
      note: z.string(),
    })
    createFormTools(tm, form.adapter, { name: 't', description: 'T.', schema: slowSchema })

    const pending = tm.call('t.fill', { values: { title: 'Agent', note: 'Agent note' } })
    await new Promise((r) => setTimeout(r, 0))
    form.type('title', 'Person')
    release()
    const result = await pending

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'note', after: 'Agent note' }],
        skipped: [{ path: 'title', reason: 'user_edited' }],
      },
    })
    expect(form.values).toEqual({ title: 'Person', note: 'Agent note' })
  })
})

describe('ticket.fill with an adapter that has no default values', () => {
  it('counts every dirty field as a user edit, except the agent’s own values', async () => {
    const tm = createToolmark()
    const form = memoryForm({ title: '', note: '' })
    const { defaultValues: _defaults, ...adapter } = form.adapter
    createFormTools(tm, adapter, {
      name: 't',
      description: 'T.',
      schema: z.object({ title: z.string(), note: z.string() }),
    })
    await tm.call('t.fill', { values: { title: 'Agent' } })
    form.touch('title')
    form.touch('note')

    const result = await tm.call('t.fill', { values: { title: 'Agent again', note: 'Agent note' } })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'title', before: 'Agent', after: 'Agent again' }],
        skipped: [{ path: 'note', reason: 'user_edited' }],
      },
    })
  })
})
