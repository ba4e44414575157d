import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark } from '../../src/index'
import {
  createFormMemory,
  createFormTools,
  createWizardTools,
  formProvenance,
  formSteps,
} from '../../src/forms'
import { memoryForm } from './memoryForm'

const ticketSchema = z.object({
  title: z.string(),
  code: z.string(),
  address: z.object({ city: z.string(), street: z.string() }),
})

/** A ticket form whose adapter says which fields nobody may change now (`locked`). */
function setup() {
  const tm = createToolmark()
  const form = memoryForm({ title: '', code: 'T-1', address: { city: '', street: '' } })
  const locked = new Set<string>()
  const adapter = Object.assign(form.adapter, { readOnlyPaths: () => [...locked] })
  const memory = createFormMemory()
  createFormTools(tm, adapter, {
    name: 'ticket',
    description: 'The new-ticket form.',
    schema: ticketSchema,
    memory,
  })
  const ids: string[] = []
  tm.events.on('result', (e) => ids.push(e.callId))
  return { tm, form, locked, memory, lastCallId: () => ids[ids.length - 1] }
}

describe('fields the form does not let change (readOnlyPaths)', () => {
  it('skips a read-only field as readonly, even with overwrite, and writes the rest', async () => {
    const { tm, form, locked } = setup()
    locked.add('code')

    const result = await tm.call('ticket.fill', {
      values: { title: 'Printer', code: 'T-2' },
      overwrite: true,
    })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'title', after: 'Printer' }],
        skipped: [{ path: 'code', reason: 'readonly' }],
      },
    })
    expect(form.values.code).toBe('T-1')
    expect([...form.adapter.setValues.mock.calls[0][0].keys()]).toEqual(['title'])
  })

  it('reads them at every fill: a field locked after the tools were made is left alone', async () => {
    const { tm, form, locked } = setup()
    await tm.call('ticket.fill', { values: { code: 'T-2' } })
    expect(form.values.code).toBe('T-2')

    locked.add('code')
    const result = await tm.call('ticket.fill', { values: { code: 'T-3' } })

    expect(result).toEqual({
      status: 'ok',
      data: { changes: [], skipped: [{ path: 'code', reason: 'readonly' }] },
    })
    expect(form.values.code).toBe('T-2')
    expect(form.adapter.setValues).toHaveBeenCalledTimes(1)
  })

  it('does not list a read-only field whose value already matches', async () => {
    const { tm, locked } = setup()
    locked.add('code')

    const result = await tm.call('ticket.fill', { values: { code: 'T-1' } })

    expect(result).toEqual({ status: 'ok', data: { changes: [], skipped: [] } })
  })

  it('clears the fields of an object but its read-only one', async () => {
    const { tm, form, locked } = setup()
    form.type('address.street', 'Main St')
    form.type('address.city', 'Lyon')
    locked.add('address.city')

    const result = await tm.call('ticket.fill', { values: { address: null }, overwrite: true })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'address.street', before: 'Main St' }],
        skipped: [{ path: 'address.city', reason: 'readonly' }],
      },
    })
    expect(form.values.address).toEqual({ city: 'Lyon', street: '' })
  })

  it('skips a field below a read-only object', async () => {
    const { tm, form, locked } = setup()
    locked.add('address')

    const result = await tm.call('ticket.fill', { values: { address: { city: 'Lyon' } } })

    expect(result).toEqual({
      status: 'ok',
      data: { changes: [], skipped: [{ path: 'address.city', reason: 'readonly' }] },
    })
    expect(form.values.address.city).toBe('')
  })

  it('leaves a field alone that turned read-only while an asynchronous schema ran', async () => {
    const tm = createToolmark()
    const form = memoryForm({ title: '', note: '' })
    const locked: string[] = []
    const adapter = Object.assign(form.adapter, { readOnlyPaths: () => locked })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slowSchema = z.object({
      title: z.string().refine(async () => {
        await gate
        return true
      }),
      note: z.string(),
    })
    createFormTools(tm, adapter, { name: 't', description: 'T.', schema: slowSchema })

    const pending = tm.call('t.fill', { values: { title: 'Agent', note: 'Agent note' } })
    await new Promise((r) => setTimeout(r, 0))
    locked.push('title')
    release()

    expect(await pending).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'note', after: 'Agent note' }],
        skipped: [{ path: 'title', reason: 'readonly' }],
      },
    })
    expect(form.values).toEqual({ title: '', note: 'Agent note' })
  })

  it('undo leaves a field alone that turned read-only since the fill, and restores the rest', async () => {
    const { tm, form, locked, lastCallId } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer', code: 'T-2' } })
    const fill = lastCallId()
    locked.add('code')

    const undone = await tm.undo(fill)

    expect(undone).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'title', before: 'Printer' }],
        skipped: [{ path: 'code', reason: 'readonly' }],
      },
    })
    expect(form.values).toMatchObject({ title: '', code: 'T-2' })
  })

  it('revertField leaves a field alone that turned read-only', async () => {
    const { tm, form, locked, memory } = setup()
    await tm.call('ticket.fill', { values: { code: 'T-2' } }, { caller: 'inapp' })
    locked.add('code')

    const outcome = await formProvenance(memory).revertField('code')

    expect(outcome).toEqual({ status: 'skipped', path: 'code', reason: 'readonly' })
    expect(form.values.code).toBe('T-2')
    expect(formProvenance(memory).getSnapshot().has('code')).toBe(true)
  })

  it('maps read-only paths onto the steps of one form split into steps', async () => {
    const tm = createToolmark()
    const form = memoryForm({ email: '', system: '' })
    const adapter = Object.assign(form.adapter, { readOnlyPaths: () => ['system'] })
    createFormTools(tm, adapter, {
      name: 'access',
      description: 'The access wizard.',
      schema: z.object({ email: z.string(), system: z.string() }),
      steps: formSteps([
        { id: 'who', fields: ['email'] },
        { id: 'what', fields: ['system'] },
      ]),
    })

    const result = await tm.call('access.fill', {
      values: { who: { email: 'ana@example.com' }, what: { system: 'VPN' } },
    })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'who.email', after: 'ana@example.com' }],
        skipped: [{ path: 'what.system', reason: 'readonly' }],
      },
    })
    expect(form.values).toEqual({ email: 'ana@example.com', system: '' })
  })

  it('keeps each step form’s read-only paths in its own step of a wizard', async () => {
    const tm = createToolmark()
    const who = memoryForm({ name: '' })
    const why = memoryForm({ name: '' })
    const whyAdapter = Object.assign(why.adapter, { readOnlyPaths: () => ['name'] })
    createWizardTools(tm, {
      name: 'access',
      description: 'The access wizard.',
      steps: [
        { id: 'who', adapter: who.adapter, schema: z.object({ name: z.string() }) },
        { id: 'why', adapter: whyAdapter, schema: z.object({ name: z.string() }) },
      ],
      onSubmit: () => null,
    })

    const result = await tm.call('access.fill', {
      values: { who: { name: 'Ana' }, why: { name: 'Audit' } },
    })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'who.name', after: 'Ana' }],
        skipped: [{ path: 'why.name', reason: 'readonly' }],
      },
    })
    expect(why.values.name).toBe('')
  })
})
