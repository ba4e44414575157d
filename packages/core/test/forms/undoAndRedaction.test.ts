import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, REDACTED } from '../../src/index'
import { createFormTools } from '../../src/forms'
import { memoryForm } from './memoryForm'

const schema = z.object({
  title: z.string(),
  note: z.string(),
  items: z.array(z.object({ product: z.string() })),
})

function setup() {
  const tm = createToolmark()
  const form = memoryForm({ title: '', note: '', items: [] as { product: string }[] })
  createFormTools(tm, form.adapter, { name: 'ticket', description: 'A ticket.', schema })
  const callIds: string[] = []
  tm.events.on('result', (e) => callIds.push(e.callId))
  return { tm, form, lastCallId: () => callIds[callIds.length - 1] }
}

describe('undo of a fill', () => {
  it('restores the values the fill replaced', async () => {
    const { tm, form, lastCallId } = setup()
    await tm.call('ticket.fill', { values: { title: 'Before' } })
    await tm.call('ticket.fill', { values: { title: 'After', note: 'Added' } })

    const result = await tm.undo(lastCallId())

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'note', before: 'Added' },
          { path: 'title', before: 'After', after: 'Before' },
        ],
        skipped: [],
      },
    })
    expect(form.values).toMatchObject({ title: 'Before', note: '' })
    expect(form.adapter.setValues.mock.calls.at(-1)![1]).toEqual({ source: 'undo' })
  })

  it('keeps a later user edit and reports it as skipped', async () => {
    const { tm, form, lastCallId } = setup()
    await tm.call('ticket.fill', { values: { title: 'Agent title', note: 'Agent note' } })
    const fillId = lastCallId()
    form.type('title', 'Person title')

    const result = await tm.undo(fillId)

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'note', before: 'Agent note' }],
        skipped: [{ path: 'title', reason: 'user_edited' }],
      },
    })
    expect(form.values).toMatchObject({ title: 'Person title', note: '' })
  })

  it('skips a field a later fill changed, as changed', async () => {
    const { tm, form, lastCallId } = setup()
    await tm.call('ticket.fill', { values: { title: 'One' } })
    const first = lastCallId()
    await tm.call('ticket.fill', { values: { title: 'Two' } })

    const result = await tm.undo(first)

    expect(result).toEqual({
      status: 'ok',
      data: { changes: [], skipped: [{ path: 'title', reason: 'changed' }] },
    })
    expect(form.values.title).toBe('Two')
  })

  it('runs once; a second undo is refused undo_unavailable', async () => {
    const { tm, lastCallId } = setup()
    await tm.call('ticket.fill', { values: { title: 'T' } })
    const id = lastCallId()

    expect(await tm.undo(id)).toMatchObject({ status: 'ok' })
    expect(await tm.undo(id)).toMatchObject({ status: 'refused', code: 'undo_unavailable' })
  })

  it('registers nothing for a fill that changed nothing', async () => {
    const { tm, lastCallId } = setup()

    await tm.call('ticket.fill', { values: { title: '' } })

    expect(tm.canUndo(lastCallId())).toBe(false)
  })

  it('undoes an append, and the agent owns its earlier values again', async () => {
    const { tm, form, lastCallId } = setup()
    await tm.call('ticket.fill', { values: { title: 'Mine', items: [{ product: 'A' }] } })
    form.touch('title')
    await tm.call('ticket.fill', {
      values: { title: 'Newer', items: { $append: [{ product: 'B' }] } },
    })

    await tm.undo(lastCallId())
    const again = await tm.call('ticket.fill', { values: { title: 'Newest' } })

    expect(form.values.items).toEqual([{ product: 'A' }])
    expect(again).toMatchObject({ status: 'ok', data: { skipped: [] } })
    expect(form.values.title).toBe('Newest')
  })

  it('goes away with the tools', async () => {
    const tm = createToolmark()
    const form = memoryForm({ title: '', note: '', items: [] })
    const tools = createFormTools(tm, form.adapter, { name: 't', description: 'T.', schema })
    let callId = ''
    tm.events.on('result', (e) => (callId = e.callId))
    await tm.call('t.fill', { values: { title: 'x' } })

    tools.dispose()

    expect(await tm.undo(callId)).toMatchObject({ status: 'refused', code: 'undo_unavailable' })
    expect(tm.manifest().tools).toEqual([])
  })
})

const accountSchema = z.object({
  email: z.string(),
  password: z.string(),
  code: z.string(),
  card: z.object({ number: z.string(), holder: z.string() }),
  cards: z.array(z.object({ label: z.string(), cvc: z.string() })),
  ssn: z.string(),
})

function account() {
  const tm = createToolmark()
  const password = {
    type: 'password',
    getAttribute: (n: string) => (n === 'type' ? 'password' : null),
  }
  const code = { type: 'text', autocomplete: 'one-time-code' }
  const cardNumber = {
    getAttribute: (n: string) => (n === 'autocomplete' ? 'billing cc-number' : null),
  }
  const form = memoryForm(
    {
      email: '',
      password: '',
      code: '',
      card: { number: '', holder: '' },
      cards: [] as { label: string; cvc: string }[],
      ssn: '',
    },
    {
      fields: [
        { path: 'email', element: { type: 'email' } },
        { path: 'password', element: password },
        { path: 'code', element: code },
        { path: 'card.number', element: cardNumber },
        { path: 'card.holder', element: { type: 'text', autocomplete: 'cc-name' } },
      ],
    },
  )
  const tools = createFormTools(tm, form.adapter, {
    name: 'account',
    description: 'The account form.',
    schema: accountSchema,
    sensitive: ['ssn', 'cards[].cvc'],
  })
  return { tm, form, tools, code }
}

describe('sensitive fields', () => {
  it('masks passwords, one-time codes, card fields and declared paths in fill results', async () => {
    const { tm, form } = account()

    const result = await tm.call('account.fill', {
      values: {
        email: 'ada@example.com',
        password: 'hunter2',
        code: '123456',
        card: { number: '4111111111111111', holder: 'Ada L' },
        ssn: '078-05-1120',
        cards: [{ label: 'Work', cvc: '999' }],
      },
    })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'card.holder', after: REDACTED },
          { path: 'card.number', after: REDACTED },
          { path: 'cards', before: [], after: [{ label: 'Work', cvc: REDACTED }] },
          { path: 'code', after: REDACTED },
          { path: 'email', after: 'ada@example.com' },
          { path: 'password', after: REDACTED },
          { path: 'ssn', after: REDACTED },
        ],
        skipped: [],
      },
    })
    // The real values reach the form.
    expect(form.values).toMatchObject({
      password: 'hunter2',
      code: '123456',
      card: { number: '4111111111111111' },
      ssn: '078-05-1120',
      cards: [{ cvc: '999' }],
    })
  })

  it('masks them in call and result events, appended items included', async () => {
    const { tm } = account()
    const calls = vi.fn()
    const results = vi.fn()
    tm.events.on('call', calls)
    tm.events.on('result', results)

    await tm.call('account.fill', {
      values: { password: 'hunter2', cards: { $append: [{ label: 'Home', cvc: '123' }] } },
    })

    expect(calls.mock.calls[0][0].input).toEqual({
      values: { password: REDACTED, cards: { $append: [{ label: 'Home', cvc: REDACTED }] } },
    })
    expect(JSON.stringify(results.mock.calls)).not.toMatch(/hunter2|"123"/)
  })

  it('masks them in call events of malformed fills, at any depth and under any $ key', async () => {
    const { tm } = account()
    const calls = vi.fn()
    tm.events.on('call', calls)

    const results = await Promise.all([
      tm.call('account.fill', { values: { cards: { $append: { label: 'Home', cvc: '123' } } } }),
      tm.call('account.fill', {
        values: { cards: { $append: [{ nested: { $append: [{ cvc: '456' }] } }] } },
      }),
      tm.call('account.fill', { Values: { password: 'hunter2', ssn: '078-05-1120' } }),
      tm.call('account.fill', { values: { card: { $set: { number: '4111111111111111' } } } }),
      tm.call('account.state', { password: 'hunter3' }),
    ])

    expect(results.map((r) => r.status)).toEqual(Array(5).fill('invalid'))
    const logged = JSON.stringify(calls.mock.calls.map(([e]) => e.input))
    expect(logged).not.toMatch(/123|456|hunter2|hunter3|078-05|4111/)
    expect(calls.mock.calls[2][0].input).toEqual({
      Values: { password: REDACTED, ssn: REDACTED },
    })
    // What is not secret stays readable, so the log still says what the agent tried.
    expect(calls.mock.calls[0][0].input).toEqual({
      values: { cards: { $append: { label: 'Home', cvc: REDACTED } } },
    })
  })

  it('masks them in the state and in undo results', async () => {
    const { tm, form } = account()
    let callId = ''
    tm.events.on('result', (e) => (callId = e.callId))
    await tm.call('account.fill', { values: { password: 'hunter2', email: 'a@b.co' } })
    const fillId = callId

    const state = await tm.call('account.state')
    const undone = await tm.undo(fillId)

    expect(state).toMatchObject({
      status: 'ok',
      data: { values: { password: REDACTED, email: 'a@b.co', ssn: REDACTED, code: REDACTED } },
    })
    expect(undone).toMatchObject({
      data: {
        changes: [
          { path: 'email', before: 'a@b.co' },
          { path: 'password', before: REDACTED },
        ],
      },
    })
    expect(form.values.password).toBe('')
  })

  it('keeps a field sensitive once it was found sensitive', async () => {
    const { tm, tools, code } = account()
    expect(tools.isSensitive('code')).toBe(true)

    // The app swaps the input for a plain one: the value stays masked.
    code.autocomplete = 'off'
    await Promise.resolve()
    const result = await tm.call('account.fill', { values: { code: '654321' } })

    expect(tools.isSensitive('code')).toBe(true)
    expect(result).toMatchObject({ data: { changes: [{ path: 'code', after: REDACTED }] } })
  })

  it('finds a sensitive field in any row of a list and masks every row', async () => {
    const tm = createToolmark()
    const form = memoryForm(
      { pins: [{ pin: '1' }, { pin: '2' }] },
      { fields: [{ path: 'pins.1.pin', element: { type: 'password' } }] },
    )
    const tools = createFormTools(tm, form.adapter, {
      name: 'pins',
      description: 'PINs.',
      schema: z.object({ pins: z.array(z.object({ pin: z.string() })) }),
    })

    const state = await tm.call('pins.state')

    expect(tools.isSensitive('pins.0.pin')).toBe(true)
    expect(state).toMatchObject({
      data: { values: { pins: [{ pin: REDACTED }, { pin: REDACTED }] } },
    })
  })
})
