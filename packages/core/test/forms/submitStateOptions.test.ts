import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, REDACTED } from '../../src/index'
import type { ErrorEvent, Toolmark } from '../../src/index'
import { createFormTools, optionLookups } from '../../src/forms'
import type { FormOptionsLookup, FormSubmitOutcome } from '../../src/forms'
import { memoryForm } from './memoryForm'

afterEach(() => {
  vi.useRealTimers()
})

const schema = z.object({
  title: z.string().min(1, 'Required'),
  password: z.string(),
  assignee: z.string(),
})

function setup(
  options: {
    submit?: (values: any) => FormSubmitOutcome | Promise<FormSubmitOutcome>
    hints?: { consequential?: boolean; destructive?: boolean }
    lookups?: Record<string, FormOptionsLookup>
    tm?: Toolmark
  } = {},
) {
  const tm = options.tm ?? createToolmark()
  const form = memoryForm(
    { title: '', password: '', assignee: '' },
    { submit: options.submit, fields: [{ path: 'title', label: 'Title' }] },
  )
  const tools = createFormTools(tm, form.adapter, {
    name: 'ticket',
    title: 'Create ticket',
    description: 'The new-ticket form.',
    schema,
    sensitive: ['password'],
    hints: options.hints,
    options: options.lookups && optionLookups(options.lookups),
    submitSummary: (values) => `Create "${values.title}"`,
  })
  const errors: ErrorEvent[] = []
  tm.events.on('error', (e) => errors.push(e))
  return { tm, form, tools, errors }
}

describe('ticket.submit', () => {
  it('names changed fields by their labels in the confirmation, never inside the changes', async () => {
    const { tm } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer on fire', assignee: 'ana' } })

    const asked = await tm.call('ticket.submit', {}, { caller: 'inapp' })

    expect(tm.confirmations.list()[0].labels).toEqual({ title: 'Title' })
    // The agent's result keeps the exact FieldChange shape.
    expect(asked).toMatchObject({ status: 'needs_confirmation' })
    for (const change of (asked as { changes: object[] }).changes) {
      expect(Object.keys(change).sort()).toEqual(['after', 'path'])
    }
  })

  it('asks a person first, showing what will be submitted against the defaults', async () => {
    const { tm, form } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer on fire', password: 'hunter2' } })

    const asked = await tm.call('ticket.submit', {}, { caller: 'inapp' })

    expect(asked).toMatchObject({
      status: 'needs_confirmation',
      summary: 'Create "Printer on fire"',
      changes: [
        { path: 'password', after: REDACTED },
        { path: 'title', after: 'Printer on fire' },
      ],
    })
    expect(tm.confirmations.list()[0]).toMatchObject({
      title: 'Create ticket',
      hints: { consequential: true },
      changes: [
        { path: 'password', after: REDACTED },
        { path: 'title', after: 'Printer on fire' },
      ],
    })
    expect(form.adapter.submit).not.toHaveBeenCalled()

    const approved = await tm.confirmations.approve((asked as { confirmId: string }).confirmId)

    // The form's values echo back as the submit value: the password is masked for the agent.
    expect(approved).toEqual({
      status: 'ok',
      data: { title: 'Printer on fire', password: REDACTED, assignee: '' },
    })
    expect(form.adapter.submit).toHaveBeenCalledTimes(1)
    expect(form.values.password).toBe('hunter2')
  })

  it('shows the whole submission in the confirmation: every value, labelled, secrets masked', async () => {
    const { tm } = setup()
    await tm.call('ticket.fill', { values: { title: 'Printer on fire', password: 'hunter2' } })

    const asked = await tm.call('ticket.submit', {}, { caller: 'inapp' })

    const entry = tm.confirmations.list()[0]
    // Unchanged values are shown too; `changes` marks what differs from the defaults.
    expect(entry.input).toEqual({ title: 'Printer on fire', password: REDACTED, assignee: '' })
    expect(entry.changes!.map((c) => c.path)).toEqual(['password', 'title'])
    expect(entry.labels).toEqual({ title: 'Title' })
    expect(JSON.stringify([asked, entry])).not.toContain('hunter2')
  })

  it('labels every field, from its element or else from the schema title', async () => {
    const tm = createToolmark()
    const form = memoryForm(
      { title: '', assignee: '', note: '' },
      {
        fields: [
          { path: 'title', label: 'Title' },
          { path: 'assignee', label: 'Assigned to' },
        ],
      },
    )
    createFormTools(tm, form.adapter, {
      name: 'ticket',
      description: 'The new-ticket form.',
      schema: z.object({
        title: z.string(),
        assignee: z.string(),
        note: z.string().meta({ title: 'Internal note' }),
      }),
    })

    await tm.call('ticket.submit', {}, { caller: 'inapp' })

    expect(tm.confirmations.list()[0].labels).toEqual({
      title: 'Title',
      assignee: 'Assigned to',
      note: 'Internal note',
    })
  })

  it('labels nested fields by their schema titles, and leaves a blank title out', async () => {
    const tm = createToolmark()
    const form = memoryForm({ requester: { email: '' }, note: '' })
    createFormTools(tm, form.adapter, {
      name: 'ticket',
      description: 'The new-ticket form.',
      schema: z.object({
        requester: z.object({ email: z.string().meta({ title: 'Email' }) }).meta({ title: 'From' }),
        note: z.string().meta({ title: '  ' }),
      }),
    })

    await tm.call('ticket.submit', {}, { caller: 'inapp' })

    expect(tm.confirmations.list()[0].labels).toEqual({
      requester: 'From',
      'requester.email': 'Email',
    })
  })

  it('masks secrets in what onSubmit returns, whatever shape the server echoes', async () => {
    const echo = { ticket: { id: 7, password: 'hunter2' }, history: [{ password: 'old-one' }] }
    const { tm } = setup({ submit: () => ({ ok: true, data: echo }) })
    const seen: unknown[] = []
    tm.events.on('result', (e) => seen.push(e.result))
    tm.events.on('confirm', (e) => seen.push(e))
    await tm.call('ticket.fill', { values: { title: 'T', password: 'hunter2' } })

    const asked = (await tm.call('ticket.submit', {}, { caller: 'inapp' })) as {
      confirmId: string
    }
    const approved = await tm.confirmations.approve(asked.confirmId)
    const direct = await tm.call('ticket.submit', {}, { caller: 'human' })

    const masked = {
      ticket: { id: 7, password: REDACTED },
      history: [{ password: REDACTED }],
    }
    expect(approved).toEqual({ status: 'ok', data: masked })
    expect(direct).toEqual({ status: 'ok', data: masked })
    expect(JSON.stringify(seen)).not.toMatch(/hunter2|old-one/)
  })

  it('is refused stale when the form changed after the confirmation was asked', async () => {
    const { tm, form } = setup()
    await tm.call('ticket.fill', { values: { title: 'One' } })
    const asked = (await tm.call('ticket.submit')) as { confirmId: string }

    form.type('title', 'Two')
    const approved = await tm.confirmations.approve(asked.confirmId)

    expect(approved).toMatchObject({ status: 'refused', code: 'stale' })
    expect(form.adapter.submit).not.toHaveBeenCalled()
  })

  it('runs once when approved twice at the same time', async () => {
    const onSubmit = vi.fn(async (values: any) => {
      await new Promise((r) => setTimeout(r, 5))
      return { ok: true as const, data: { id: 7, title: values.title } }
    })
    const { tm } = setup({ submit: onSubmit })
    await tm.call('ticket.fill', { values: { title: 'Once' } })
    const asked = (await tm.call('ticket.submit')) as { confirmId: string }

    const [first, second] = await Promise.all([
      tm.confirmations.approve(asked.confirmId),
      tm.confirmations.approve(asked.confirmId),
    ])

    expect(onSubmit).toHaveBeenCalledTimes(1)
    expect(first).toEqual({ status: 'ok', data: { id: 7, title: 'Once' } })
    expect(second).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
  })

  it('returns the form’s validation issues as invalid, with field paths', async () => {
    const { tm } = setup({
      submit: () => ({ ok: false, issues: [{ path: 'title', message: 'Required' }] }),
    })

    const result = await tm.call('ticket.submit', {}, { caller: 'human' })

    expect(result).toEqual({ status: 'invalid', issues: [{ path: 'title', message: 'Required' }] })
  })

  it('returns the submit value with JSON semantics', async () => {
    const due = new Date('2030-01-31T00:00:00.000Z')
    const values: unknown[] = [undefined, { due, skip: undefined }, 'done']
    let i = 0
    const { tm } = setup({ submit: () => ({ ok: true, data: values[i++] }) })

    const results = [
      await tm.call('ticket.submit', {}, { caller: 'human' }),
      await tm.call('ticket.submit', {}, { caller: 'human' }),
      await tm.call('ticket.submit', {}, { caller: 'human' }),
    ]

    expect(results).toEqual([
      { status: 'ok', data: null },
      { status: 'ok', data: { due: '2030-01-31T00:00:00.000Z' } },
      { status: 'ok', data: 'done' },
    ])
  })

  it('fails with a generic error when the submit value cannot become JSON', async () => {
    const { tm, errors } = setup({ submit: () => ({ ok: true, data: { n: 10n } }) })

    const result = await tm.call('ticket.submit', {}, { caller: 'human' })

    expect(result).toEqual({ status: 'error', message: 'Tool failed' })
    expect(errors).toContainEqual(
      expect.objectContaining({ code: 'result_not_serializable', tool: 'ticket.submit' }),
    )
  })

  it('fails with a generic error when submitting throws, details in an error event', async () => {
    const { tm, errors } = setup({
      submit: () => {
        throw new Error('server said 500: secret stack')
      },
    })

    const result = await tm.call('ticket.submit', {}, { caller: 'human' })

    expect(result).toEqual({ status: 'error', message: 'Tool failed' })
    expect(errors[0]).toMatchObject({ code: 'tool_threw', tool: 'ticket.submit' })
  })

  it('takes its hints from the options', async () => {
    const { tm, form } = setup({ hints: {} })

    const result = await tm.call('ticket.submit', {}, { caller: 'inapp' })

    expect(tm.describe('ticket.submit')!.hints).toEqual({})
    expect(result).toMatchObject({ status: 'ok' })
    expect(form.adapter.submit).toHaveBeenCalledTimes(1)

    const destructive = setup({ hints: { destructive: true } })
    expect(destructive.tm.manifest({ caller: 'webmcp' }).tools.map((t) => t.name)).not.toContain(
      'ticket.submit',
    )
  })
})

describe('ticket.state', () => {
  it('reads the values (masked), the validation issues and the fields the user edited', async () => {
    const { tm, form } = setup()
    await tm.call('ticket.fill', { values: { password: 'hunter2' } })
    form.type('assignee', 'bob')

    const result = await tm.call('ticket.state')

    expect(tm.describe('ticket.state')!.hints).toEqual({ readOnly: true, untrustedContent: true })
    expect(result).toEqual({
      status: 'ok',
      data: {
        values: { title: '', password: REDACTED, assignee: 'bob' },
        issues: [{ path: 'title', message: 'Required' }],
        edited: ['assignee'],
      },
    })
  })
})

describe('ticket.options', () => {
  const people = Array.from({ length: 80 }, (_, i) => ({ value: `u${i}`, title: `User ${i}` }))

  it('is there only when a field declares options', () => {
    const plain = setup()
    const withOptions = setup({ lookups: { assignee: () => people } })

    expect(plain.tm.describe('ticket.options')).toBeUndefined()
    expect(plain.tools.names.options).toBeUndefined()
    expect(withOptions.tools.names.options).toBe('ticket.options')
    expect(withOptions.tm.describe('ticket.options')).toMatchObject({
      hints: { readOnly: true, untrustedContent: true },
      inputSchema: { properties: { field: { enum: ['assignee'] } } },
    })
  })

  it('looks up values with the query, returning at most 50', async () => {
    const lookup = vi.fn(({ query }: { query: string; signal: AbortSignal }) =>
      people.filter((p) => p.title.includes(query)),
    )
    const { tm } = setup({ lookups: { assignee: lookup } })

    const all = await tm.call('ticket.options', { field: 'assignee' })
    const some = await tm.call('ticket.options', { field: 'assignee', query: 'User 7' })

    expect(all).toMatchObject({ status: 'ok', data: { field: 'assignee', more: true } })
    expect((all as { data: { options: unknown[] } }).data.options).toHaveLength(50)
    expect(some).toEqual({
      status: 'ok',
      data: {
        field: 'assignee',
        options: [{ value: 'u7', title: 'User 7' }, ...people.slice(70, 80)],
        more: false,
      },
    })
    expect(lookup.mock.calls[0][0]).toMatchObject({ query: '' })
    expect(lookup.mock.calls[0][0].signal).toBeInstanceOf(AbortSignal)
  })

  it('rejects a field without options and unknown keys', async () => {
    const { tm } = setup({ lookups: { assignee: () => people } })

    expect(await tm.call('ticket.options', { field: 'title', limit: 5 })).toEqual({
      status: 'invalid',
      issues: [
        { path: 'limit', message: 'Unknown key' },
        { path: 'field', message: 'Expected one of: assignee' },
      ],
    })
  })

  it('fails with a generic error when the lookup throws, details in an error event', async () => {
    const cause = new Error('directory down: 10.0.0.7')
    const { tm, errors } = setup({
      lookups: {
        assignee: async () => {
          throw cause
        },
      },
    })

    const result = await tm.call('ticket.options', { field: 'assignee' })

    expect(result).toEqual({ status: 'error', message: 'Options lookup failed' })
    expect(errors).toEqual([
      expect.objectContaining({ code: 'options_failed', tool: 'ticket.options', cause }),
    ])
  })

  it('gives up after limits.optionsTimeoutMs and aborts the lookup', async () => {
    vi.useFakeTimers()
    let signal: AbortSignal | undefined
    const { tm, errors } = setup({
      lookups: {
        assignee: ({ signal: s }) => {
          signal = s
          return new Promise(() => {})
        },
      },
    })

    const pending = tm.call('ticket.options', { field: 'assignee' })
    await vi.advanceTimersByTimeAsync(10_000)

    expect(await pending).toEqual({ status: 'error', message: 'Options lookup failed' })
    expect(signal?.aborted).toBe(true)
    expect(errors[0]).toMatchObject({ code: 'options_failed' })
    expect(errors[0].message).toMatch(/timed out after 10000 ms/)
  })

  it('fails when the lookup returns something that is not a list of { value, title }', async () => {
    const { tm, errors } = setup({
      lookups: { assignee: () => [{ value: { id: 1 }, title: 'x' }] as any },
    })

    expect(await tm.call('ticket.options', { field: 'assignee' })).toEqual({
      status: 'error',
      message: 'Options lookup failed',
    })
    expect(errors[0]).toMatchObject({ code: 'options_failed' })
  })
})

describe('createFormTools configuration', () => {
  it('throws with the fix in development', () => {
    const tm = createToolmark({ dev: true })
    const form = memoryForm({ title: '' })

    expect(() =>
      createFormTools(tm, form.adapter, { name: 'ticket', description: '', schema }),
    ).toThrow(/give the form a `description`/)
    expect(() =>
      createFormTools(tm, form.adapter, {
        name: 'ticket',
        description: 'A ticket.',
        schema: {
          '~standard': { version: 1, vendor: 'x', validate: (v: unknown) => ({ value: v }) },
        },
      }),
    ).toThrow(/has no JSON Schema/)
  })

  it('reports an error event and registers nothing in production', () => {
    const tm = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const form = memoryForm({ title: '' })

    const tools = createFormTools(tm, { ...form.adapter, submit: undefined } as any, {
      name: 'ticket',
      description: 'A ticket.',
      schema,
    })

    expect(errors[0]).toMatchObject({ code: 'invalid_form' })
    expect(errors[0].message).toMatch(/submit\(\)/)
    expect(tm.manifest().tools).toEqual([])
    expect(() => tools.dispose()).not.toThrow()
  })

  it('accepts an explicit JSON Schema for a schema without one', async () => {
    const tm = createToolmark()
    const form = memoryForm({ title: '' })
    createFormTools(tm, form.adapter, {
      name: 'ticket',
      description: 'A ticket.',
      schema: {
        '~standard': { version: 1, vendor: 'x', validate: (v: unknown) => ({ value: v }) },
      },
      jsonSchema: { type: 'object', properties: { title: { type: 'string' } } },
    })

    expect(await tm.call('ticket.fill', { values: { title: 'T' } })).toMatchObject({
      status: 'ok',
    })
    expect(await tm.call('ticket.fill', { values: { other: 'T' } })).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'values.other' }],
    })
  })
})
