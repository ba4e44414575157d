import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, REDACTED } from '../../src/index'
import { createFormMemory, createFormTools, formProvenance, formSteps } from '../../src/forms'
import { memoryForm } from './memoryForm'

const schema = z.object({
  title: z.string(),
  note: z.string(),
  secret: z.string(),
  tags: z.array(z.string()),
})

function setup() {
  const tm = createToolmark({ confirm: { inapp: 'deferred' } })
  const form = memoryForm({ title: '', note: '', secret: '', tags: [] as string[] })
  const memory = createFormMemory()
  const tools = createFormTools(tm, form.adapter, {
    name: 'ticket',
    description: 'A ticket.',
    schema,
    sensitive: ['secret'],
    memory,
  })
  const callIds: string[] = []
  tm.events.on('result', (e) => callIds.push(e.callId))
  return { tm, form, tools, memory, lastCallId: () => callIds[callIds.length - 1] }
}

describe('form provenance', () => {
  it('lists the fields a fill wrote with its call id, caller and time', async () => {
    const { tm, tools, lastCallId } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer' } }, { caller: 'inapp' })
    const fillId = lastCallId()
    await tm.call('ticket.fill', { values: { tags: { $append: ['hw'] } } }, { caller: 'webmcp' })

    const snapshot = tools.provenance.getSnapshot()
    expect([...snapshot.keys()]).toEqual(['title', 'tags'])
    expect(snapshot.get('title')).toEqual({
      callId: fillId,
      caller: 'inapp',
      at: expect.any(Number),
    })
    expect(snapshot.get('tags')).toMatchObject({ caller: 'webmcp' })
    expect(snapshot.get('note')).toBeUndefined()
  })

  it('is the same store for the same memory and keeps its snapshot until something changes', async () => {
    const { tm, tools, memory } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer' } })
    const first = tools.provenance.getSnapshot()

    expect(formProvenance(memory)).toBe(tools.provenance)
    expect(tools.provenance.getSnapshot()).toBe(first)
    await tm.call('ticket.fill', { values: { note: 'Third floor' } })
    expect(tools.provenance.getSnapshot()).not.toBe(first)
  })

  it('drops a field the user edits, and brings it back if the user types the same value again', async () => {
    const { tm, form, tools } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer', note: 'Jams' } })

    form.type('title', 'Printer on fire')
    expect([...tools.provenance.getSnapshot().keys()]).toEqual(['note'])
    form.type('title', 'Printer')
    expect([...tools.provenance.getSnapshot().keys()].sort()).toEqual(['note', 'title'])
  })

  it('forgets what an undo restored, and an undone rewrite gives the field back to the earlier call', async () => {
    const { tm, tools, lastCallId } = setup()
    await tm.call('ticket.fill', { values: { title: 'First' } })
    const first = lastCallId()
    await tm.call('ticket.fill', { values: { title: 'Second', note: 'Added' } })

    await tm.undo(lastCallId())

    const snapshot = tools.provenance.getSnapshot()
    expect([...snapshot.keys()]).toEqual(['title'])
    expect(snapshot.get('title')!.callId).toBe(first)
  })

  it('notifies subscribers only when the fields held by the agent change', async () => {
    const { tm, tools } = setup()
    const listener = vi.fn()
    const stop = tools.provenance.subscribe(listener)

    await tm.call('ticket.fill', { values: { title: 'Printer' } })
    expect(listener).toHaveBeenCalledTimes(1)
    await tm.call('ticket.fill', { values: { title: 'Printer' } })
    expect(listener).toHaveBeenCalledTimes(1)
    await tools.provenance.revertField('title')
    expect(listener).toHaveBeenCalledTimes(2)
    stop()
    await tm.call('ticket.fill', { values: { note: 'x' } })
    expect(listener).toHaveBeenCalledTimes(2)
  })

  it('follows the adapter’s value changes while subscribed', async () => {
    const tm = createToolmark()
    const form = memoryForm({ title: '', note: '', secret: '', tags: [] as string[] })
    const watchers = new Set<() => void>()
    const adapter = {
      ...form.adapter,
      subscribe: (fn: () => void) => {
        watchers.add(fn)
        return () => watchers.delete(fn)
      },
    }
    const tools = createFormTools(tm, adapter, { name: 'ticket', description: 'A ticket.', schema })
    const listener = vi.fn()
    const stop = tools.provenance.subscribe(listener)
    await tm.call('ticket.fill', { values: { title: 'Printer' } })
    expect(listener).toHaveBeenCalledTimes(1)

    form.type('note', 'person')
    for (const fn of watchers) fn()
    await Promise.resolve()
    expect(listener).toHaveBeenCalledTimes(1)
    form.type('title', 'person')
    // A burst of reports is looked at once, after it.
    for (const fn of watchers) fn()
    for (const fn of watchers) fn()
    expect(listener).toHaveBeenCalledTimes(1)
    await Promise.resolve()
    expect(listener).toHaveBeenCalledTimes(2)
    expect(tools.provenance.getSnapshot().size).toBe(0)

    stop()
    expect(watchers.size).toBe(0)
    tools.dispose()
  })
})

describe('revertField', () => {
  it('restores one field to what it held before the fill and leaves the rest of the fill', async () => {
    const { tm, form, tools } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer', note: 'Jams' } })

    const outcome = await tools.provenance.revertField('title')

    expect(outcome).toEqual({
      status: 'reverted',
      path: 'title',
      change: { path: 'title', before: 'Printer' },
    })
    expect(form.values).toMatchObject({ title: '', note: 'Jams' })
    expect([...tools.provenance.getSnapshot().keys()]).toEqual(['note'])
    expect(form.adapter.setValues.mock.calls.at(-1)![1]).toEqual({ source: 'undo' })
  })

  it('skips a field the user edited since, and leaves the user’s value', async () => {
    const { tm, form, tools } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer' } })
    form.type('title', 'Mine')
    const writes = form.adapter.setValues.mock.calls.length

    expect(await tools.provenance.revertField('title')).toEqual({
      status: 'skipped',
      path: 'title',
      reason: 'user_edited',
    })
    expect(form.values.title).toBe('Mine')
    expect(form.adapter.setValues.mock.calls.length).toBe(writes)
  })

  it('skips a field no agent wrote, a second revert, and an unknown path', async () => {
    const { tm, tools } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer' } })

    expect(await tools.provenance.revertField('note')).toMatchObject({ reason: 'not_filled' })
    expect(await tools.provenance.revertField('title')).toMatchObject({ status: 'reverted' })
    expect(await tools.provenance.revertField('title')).toMatchObject({ reason: 'not_filled' })
    expect(await tools.provenance.revertField('__proto__.x')).toMatchObject({
      reason: 'not_filled',
    })
    expect(await tools.provenance.revertField(42 as never)).toMatchObject({
      status: 'skipped',
      reason: 'not_filled',
    })
  })

  it('two reverts of the same field at once write it once', async () => {
    const { tm, form, tools } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer' } })
    const writes = form.adapter.setValues.mock.calls.length

    const outcomes = await Promise.all([
      tools.provenance.revertField('title'),
      tools.provenance.revertField('title'),
    ])

    expect(outcomes.map((o) => o.status).sort()).toEqual(['reverted', 'skipped'])
    expect(form.adapter.setValues.mock.calls.length).toBe(writes + 1)
  })

  it('goes back past the agent’s own rewrites to the value a person left', async () => {
    const { tm, form, tools } = setup()
    form.type('title', 'Typed')
    await tm.call('ticket.fill', { values: { title: 'One' }, overwrite: true })
    await tm.call('ticket.fill', { values: { title: 'Two' } })

    expect(await tools.provenance.revertField('title')).toMatchObject({ status: 'reverted' })
    expect(form.values.title).toBe('Typed')
  })

  it('after a revert, undo of the fill restores the other fields and reports the reverted one', async () => {
    const { tm, form, tools, lastCallId } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer', note: 'Jams' } })
    const fillId = lastCallId()
    await tools.provenance.revertField('title')
    // The person types the agent's value back: still theirs, the undo must not clear it.
    form.type('title', 'Printer')

    const result = await tm.undo(fillId)

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'note', before: 'Jams' }],
        skipped: [{ path: 'title', reason: 'reverted' }],
      },
    })
    expect(form.values).toMatchObject({ title: 'Printer', note: '' })
    expect(tools.provenance.getSnapshot().size).toBe(0)
  })

  it('lets a later fill write a reverted field again, and that fill owns it', async () => {
    const { tm, form, tools, lastCallId } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer' } })
    await tools.provenance.revertField('title')

    const again = await tm.call('ticket.fill', { values: { title: 'Scanner' } })

    expect(again).toMatchObject({ status: 'ok', data: { skipped: [] } })
    expect(form.values.title).toBe('Scanner')
    expect(tools.provenance.getSnapshot().get('title')!.callId).toBe(lastCallId())
  })

  it('masks a sensitive field in its change', async () => {
    const { tm, tools } = setup()
    await tm.call('ticket.fill', { values: { secret: 'hunter2' } })

    expect(await tools.provenance.revertField('secret')).toEqual({
      status: 'reverted',
      path: 'secret',
      change: { path: 'secret', before: REDACTED },
    })
  })

  it('reverts a list the agent appended to, whole', async () => {
    const { tm, form, tools } = setup()
    form.type('tags', ['mine'])
    await tm.call('ticket.fill', { values: { tags: { $append: ['hw', 'urgent'] } } })

    expect(await tools.provenance.revertField('tags')).toMatchObject({ status: 'reverted' })
    expect(form.values.tags).toEqual(['mine'])
  })

  it('keeps the agent’s value and its provenance when writing the form throws', async () => {
    const tm = createToolmark()
    const form = memoryForm({ title: '', note: '', secret: '', tags: [] as string[] })
    const tools = createFormTools(tm, form.adapter, {
      name: 'ticket',
      description: 'A ticket.',
      schema,
    })
    const errors = vi.fn()
    tm.events.on('error', errors)
    await tm.call('ticket.fill', { values: { title: 'Printer' } })
    form.adapter.setValues.mockImplementationOnce(() => {
      throw new Error('boom')
    })

    expect(await tools.provenance.revertField('title')).toMatchObject({ reason: 'unavailable' })
    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ code: 'form_write_failed' }))
    expect([...tools.provenance.getSnapshot().keys()]).toEqual(['title'])
    expect(await tools.provenance.revertField('title')).toMatchObject({ status: 'reverted' })
  })

  it('is unavailable once the form’s tools are disposed', async () => {
    const { tm, tools } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer' } })
    tools.dispose()

    expect(await tools.provenance.revertField('title')).toMatchObject({ reason: 'unavailable' })
  })
})

describe('two overlapping fills', () => {
  it('each field names the call that wrote it last, and reverting one leaves the other fill’s field', async () => {
    const { tm, form, tools } = setup()
    const ids: string[] = []
    tm.events.on('call', (e) => ids.push(e.callId))

    const [a, b] = await Promise.all([
      tm.call('ticket.fill', { values: { title: 'A', note: 'from A' } }),
      tm.call('ticket.fill', { values: { title: 'B' } }),
    ])
    expect(a.status).toBe('ok')
    expect(b.status).toBe('ok')

    const snapshot = tools.provenance.getSnapshot()
    expect(snapshot.get('note')!.callId).toBe(ids[0])
    expect(snapshot.get('title')!.callId).toBe(ids[1])

    await tools.provenance.revertField('title')
    expect(form.values).toMatchObject({ title: '', note: 'from A' })
    const undoA = await tm.undo(ids[0])
    expect(undoA).toMatchObject({
      status: 'ok',
      data: {
        changes: [{ path: 'note', before: 'from A' }],
        skipped: [{ path: 'title', reason: 'reverted' }],
      },
    })
    expect(form.values).toMatchObject({ title: '', note: '' })
  })
})

describe('the submit confirmation', () => {
  it('lists the fields an agent filled', async () => {
    const { tm, form } = setup()
    const requested = vi.fn()
    tm.events.on('confirm', requested)
    await tm.call('ticket.fill', { values: { title: 'Printer', note: 'Jams' } })
    form.type('note', 'Mine')

    const result = await tm.call('ticket.submit', {}, { caller: 'inapp' })

    expect(result.status).toBe('needs_confirmation')
    expect(tm.confirmations.list()[0].agentFilled).toEqual(['title'])
  })
})

describe('provenance of a wizard', () => {
  const wizardSchema = z.object({ email: z.string(), reason: z.string() })

  it('keys fields by step id, and reverts one at that path', async () => {
    const tm = createToolmark()
    const form = memoryForm({ email: '', reason: '' })
    const tools = createFormTools(tm, form.adapter, {
      name: 'access',
      description: 'Access request.',
      schema: wizardSchema,
      steps: formSteps([
        { id: 'who', fields: ['email'] },
        { id: 'why', fields: ['reason'] },
      ]),
    })
    await tm.call('access.fill', {
      values: { who: { email: 'ana@example.com' }, why: { reason: 'Audit' } },
    })

    expect([...tools.provenance.getSnapshot().keys()].sort()).toEqual(['who.email', 'why.reason'])
    expect(await tools.provenance.revertField('who.email')).toMatchObject({ status: 'reverted' })
    expect(form.values).toEqual({ email: '', reason: 'Audit' })
    expect([...tools.provenance.getSnapshot().keys()]).toEqual(['why.reason'])
  })
})
