import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, REDACTED } from '../../src/index'
import type { CallEvent, ErrorEvent, StandardSchemaV1 } from '../../src/index'
import { createFormTools, createWizardTools, formSteps, optionLookups } from '../../src/forms'
import type { FormSubmitOutcome } from '../../src/forms'
import { memoryForm } from './memoryForm'

/** A submit that validates with the schema, as a form library's handleSubmit would. */
const validating =
  (schema: StandardSchemaV1) =>
  async (values: unknown): Promise<FormSubmitOutcome> => {
    const result = await schema['~standard'].validate(values)
    if (!result.issues) return { ok: true, data: result.value }
    return {
      ok: false,
      issues: result.issues.map((i) => ({
        path: (i.path ?? []).map((s) => (typeof s === 'object' ? s.key : s)).join('.'),
        message: i.message,
      })),
    }
  }

const accessSchema = z.object({
  email: z.email('Enter an email address'),
  name: z.string().min(1, 'Enter a name'),
  password: z.string(),
  system: z.string().min(1, 'Name the system'),
  level: z.enum(['read', 'write']),
  reason: z.string().min(5, 'Say why, in a few words'),
})
type Access = z.infer<typeof accessSchema>

const accessDefaults = (): Access => ({
  email: '',
  name: '',
  password: '',
  system: '',
  level: 'read',
  reason: '',
})

const accessSteps = [
  { id: 'who', title: 'Who needs access', fields: ['email', 'name', 'password'] },
  { id: 'system', title: 'Which system', fields: ['system', 'level'] },
  { id: 'why', title: 'Why', fields: ['reason'] },
]

/** One form whose fields are split into three steps. */
function oneForm(onSubmit = vi.fn((values: Access) => ({ id: 1, ...values }))) {
  const tm = createToolmark()
  const form = memoryForm(accessDefaults(), {
    fields: [
      { path: 'email', label: 'Email' },
      { path: 'password', element: { type: 'password' } },
    ],
    submit: async (values) => {
      const outcome = await validating(accessSchema)(values)
      return outcome.ok ? { ok: true, data: onSubmit(outcome.data as Access) } : outcome
    },
  })
  const onStepChange = vi.fn()
  const tools = createFormTools(tm, form.adapter, {
    name: 'access',
    title: 'Request access',
    description: 'The access-request wizard.',
    schema: accessSchema,
    steps: formSteps(accessSteps),
    onStepChange,
  })
  const calls: CallEvent[] = []
  tm.events.on('call', (e) => calls.push(e))
  const ids: string[] = []
  tm.events.on('result', (e) => ids.push(e.callId))
  return { tm, form, tools, onStepChange, onSubmit, calls, lastCallId: () => ids[ids.length - 1] }
}

const complete = {
  who: { email: 'ana@example.com', name: 'Ana', password: 'hunter2' },
  system: { system: 'VPN', level: 'write' },
  why: { reason: 'On call this week' },
}

describe('a wizard over one form (steps)', () => {
  it('fills every step in one call and reports changes at step paths', async () => {
    const { tm, form } = oneForm()

    const result = await tm.call('access.fill', { values: complete })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'system.level', before: 'read', after: 'write' },
          { path: 'system.system', after: 'VPN' },
          { path: 'who.email', after: 'ana@example.com' },
          { path: 'who.name', after: 'Ana' },
          { path: 'who.password', after: REDACTED },
          { path: 'why.reason', after: 'On call this week' },
        ],
        skipped: [],
      },
    })
    expect(form.values).toEqual({
      email: 'ana@example.com',
      name: 'Ana',
      password: 'hunter2',
      system: 'VPN',
      level: 'write',
      reason: 'On call this week',
    })
    expect(form.adapter.setValues).toHaveBeenCalledTimes(1)
  })

  it('writes nothing on any step when one step is invalid', async () => {
    const { tm, form } = oneForm()

    const result = await tm.call('access.fill', {
      values: { ...complete, system: { system: 'VPN', level: 'admin' } },
    })

    expect(result).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'values.system.level' }],
    })
    expect(form.adapter.setValues).not.toHaveBeenCalled()
    expect(form.values).toEqual(accessDefaults())
  })

  it('rejects step ids and paths the wizard does not declare', async () => {
    const { tm, form } = oneForm()

    const result = await tm.call('access.fill', {
      values: { who: { email: 'a@b.co', system: 'VPN' }, how: { x: 1 }, email: 'a@b.co' },
    })

    expect(result).toEqual({
      status: 'invalid',
      issues: [
        { path: 'values.who.system', message: 'Not a field of this form' },
        { path: 'values.how', message: 'Not a step of this form (its steps: who, system, why)' },
        { path: 'values.email', message: 'Not a step of this form (its steps: who, system, why)' },
      ],
    })
    expect(await tm.call('access.fill', { values: { who: 'Ana' } })).toEqual({
      status: 'invalid',
      issues: [{ path: 'values.who', message: "Expected an object of the step's fields" }],
    })
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })

  it('skips what the user typed on any step, and undoes every step', async () => {
    const { tm, form, lastCallId } = oneForm()
    form.type('name', 'Ana Souza')

    const filled = await tm.call('access.fill', {
      values: { who: { name: 'Ana', email: 'ana@example.com' }, why: { reason: 'On call' } },
    })
    const fillId = lastCallId()
    const undone = await tm.undo(fillId)

    expect(filled).toMatchObject({
      status: 'ok',
      data: { skipped: [{ path: 'who.name', reason: 'user_edited' }] },
    })
    expect(undone).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'who.email', before: 'ana@example.com' },
          { path: 'why.reason', before: 'On call' },
        ],
        skipped: [],
      },
    })
    expect(form.values).toMatchObject({ name: 'Ana Souza', email: '', reason: '' })
  })

  it('masks secrets of any step in results, state and call events, wherever the input puts them', async () => {
    const { tm, calls } = oneForm()
    await tm.call('access.fill', { values: { who: { password: 'hunter2' } } })
    await tm.call('access.fill', { values: { system: { password: 'hunter3' } } })

    const state = await tm.call('access.state')

    expect(calls[0].input).toEqual({ values: { who: { password: REDACTED } } })
    expect(JSON.stringify([calls, state])).not.toMatch(/hunter2|hunter3/)
  })

  it('reports each step’s completeness in the state', async () => {
    const { tm } = oneForm()
    await tm.call('access.fill', { values: { who: complete.who } })

    const state = await tm.call('access.state')

    expect(state).toMatchObject({
      status: 'ok',
      data: {
        values: {
          who: { email: 'ana@example.com', name: 'Ana', password: REDACTED },
          system: { system: '', level: 'read' },
          why: { reason: '' },
        },
        issues: [
          { path: 'system.system', message: 'Name the system' },
          { path: 'why.reason', message: 'Say why, in a few words' },
        ],
        steps: [
          { id: 'who', title: 'Who needs access', complete: true },
          { id: 'system', title: 'Which system', complete: false },
          { id: 'why', title: 'Why', complete: false },
        ],
      },
    })
  })

  it('moves the visible step to the first step with an issue, else the last', async () => {
    const { tm, onStepChange, lastCallId } = oneForm()

    await tm.call('access.fill', { values: { why: complete.why } })
    expect(onStepChange).toHaveBeenLastCalledWith('who')

    await tm.call('access.fill', { values: { who: complete.who } })
    expect(onStepChange).toHaveBeenLastCalledWith('system')

    await tm.call('access.fill', { values: { system: complete.system } })
    expect(onStepChange).toHaveBeenLastCalledWith('why')

    await tm.undo(lastCallId())
    expect(onStepChange).toHaveBeenLastCalledWith('system')

    // A fill that writes nothing leaves the person where they are.
    onStepChange.mockClear()
    await tm.call('access.fill', { values: { system: { level: 'admin' } } })
    await tm.call('access.fill', { values: { who: { name: 'Ana' } } })
    expect(onStepChange).not.toHaveBeenCalled()
  })

  it('submits invalid with the incomplete step’s paths, and shows that step', async () => {
    const { tm, onSubmit, onStepChange } = oneForm()
    await tm.call('access.fill', { values: { who: complete.who, why: complete.why } })

    const result = await tm.call('access.submit', {}, { caller: 'human' })

    expect(result).toEqual({
      status: 'invalid',
      issues: [{ path: 'system.system', message: 'Name the system' }],
    })
    expect(onStepChange).toHaveBeenLastCalledWith('system')
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('confirms the whole submission, every step, and submits the form’s own values', async () => {
    const { tm, onSubmit } = oneForm()
    await tm.call('access.fill', { values: complete })

    const asked = (await tm.call('access.submit', {}, { caller: 'inapp' })) as {
      confirmId: string
    }
    const entry = tm.confirmations.list()[0]
    const approved = await tm.confirmations.approve(asked.confirmId)

    expect(entry.input).toEqual({
      who: { email: 'ana@example.com', name: 'Ana', password: REDACTED },
      system: { system: 'VPN', level: 'write' },
      why: { reason: 'On call this week' },
    })
    expect(entry.labels).toEqual({
      who: 'Who needs access',
      system: 'Which system',
      why: 'Why',
      'who.email': 'Email',
    })
    expect(entry.changes).toContainEqual({ path: 'system.level', before: 'read', after: 'write' })
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ password: 'hunter2' }))
    expect(approved).toMatchObject({ status: 'ok', data: { id: 1, password: REDACTED } })
  })

  it('maps declared sensitive paths and options to the step that shows them', async () => {
    const tm = createToolmark()
    const form = memoryForm({ owner: { email: '', pin: '' }, manager: '' })
    const tools = createFormTools(tm, form.adapter, {
      name: 'w',
      description: 'A wizard.',
      schema: z.object({
        owner: z.object({ email: z.string(), pin: z.string() }),
        manager: z.string(),
      }),
      sensitive: ['owner.pin'],
      options: optionLookups({ manager: () => [{ value: 'u1', title: 'Ana' }] }),
      steps: formSteps([
        { id: 'a', fields: ['owner.email', 'owner.pin'] },
        { id: 'b', fields: ['manager'] },
      ]),
    })

    const options = await tm.call('w.options', { field: 'b.manager' })

    expect(tools.isSensitive('a.owner.pin')).toBe(true)
    expect(tools.isSensitive('a.owner.email')).toBe(false)
    expect(options).toMatchObject({ status: 'ok', data: { field: 'b.manager' } })
  })

  it('fits the signature of a three-step wizard in the summary manifest', () => {
    const { tm } = oneForm()

    const entry = tm.manifest().tools.find((t) => t.name === 'access.fill')!

    expect(entry.signature).toBe(
      '{values:{who?:{email?:string,name?:string,password?:string},system?:{system?:string,level?:"read"|"write"},why?:{reason?:string}},overwrite?:boolean}',
    )
    expect(entry.description).toMatch(/All steps at once, all or nothing/)
  })

  it('refuses steps that overlap, leave a field out or name a field the form lacks', () => {
    const tm = createToolmark({ dev: true })
    const form = memoryForm(accessDefaults())
    const make = (steps: unknown) => () =>
      createFormTools(tm, form.adapter, {
        name: 'access',
        description: 'The access-request wizard.',
        schema: accessSchema,
        steps: formSteps(steps as never),
      })

    expect(make([])).toThrow(/at least one step/)
    expect(make([{ id: 'a b', fields: ['email'] }])).toThrow(/step id "a b" is invalid/)
    expect(make([...accessSteps, { id: 'who', fields: ['x'] }])).toThrow(/two steps have the id/)
    expect(make([{ id: 'a', fields: ['email', 'nope'] }])).toThrow(/"nope", which is not a field/)
    expect(make([...accessSteps, { id: 'again', fields: ['email'] }])).toThrow(/listed twice/)
    expect(make(accessSteps.slice(0, 2))).toThrow(/no step shows "reason"/)
  })
})

const whoSchema = z.object({ email: z.email('Enter an email address'), name: z.string() })
const systemSchema = z.object({
  name: z.string().min(1, 'Name the system'),
  level: z.enum(['read', 'write']),
  token: z.string(),
})
const whySchema = z.object({ reason: z.string().min(5, 'Say why, in a few words') })

/** A wizard whose three steps each have a form of their own. */
function perStep(
  onSubmit = vi.fn((values: Record<string, any>) => ({ id: 9, token: values.system.token })),
) {
  const tm = createToolmark()
  const who = memoryForm(
    { email: '', name: '' },
    { submit: validating(whoSchema), fields: [{ path: 'email', label: 'Work email' }] },
  )
  const system = memoryForm(
    { name: '', level: 'read', token: '' },
    { submit: validating(systemSchema) },
  )
  const why = memoryForm({ reason: '' }, { submit: validating(whySchema) })
  const onStepChange = vi.fn()
  const lookup = vi.fn(() => [{ value: 'vpn', title: 'VPN' }])
  const tools = createWizardTools(tm, {
    name: 'access',
    title: 'Request access',
    description: 'The access-request wizard.',
    steps: [
      { id: 'who', title: 'Who', adapter: who.adapter, schema: whoSchema },
      {
        id: 'system',
        title: 'System',
        adapter: system.adapter,
        schema: systemSchema,
        sensitive: ['token'],
        options: optionLookups({ name: lookup }),
      },
      { id: 'why', title: 'Why', adapter: why.adapter, schema: whySchema },
    ],
    onSubmit,
    onStepChange,
  })
  const calls: CallEvent[] = []
  tm.events.on('call', (e) => calls.push(e))
  return { tm, tools, who, system, why, onSubmit, onStepChange, lookup, calls }
}

describe('a wizard with a form per step (createWizardTools)', () => {
  it('fills every step’s form in one call; the same field name stays apart per step', async () => {
    const { tm, who, system, why } = perStep()

    const result = await tm.call('access.fill', {
      values: {
        who: { email: 'ana@example.com', name: 'Ana' },
        system: { name: 'VPN', level: 'write' },
        why: { reason: 'On call this week' },
      },
    })

    expect(result).toMatchObject({ status: 'ok', data: { skipped: [] } })
    expect(who.values).toEqual({ email: 'ana@example.com', name: 'Ana' })
    expect(system.values).toEqual({ name: 'VPN', level: 'write', token: '' })
    expect(why.values).toEqual({ reason: 'On call this week' })
  })

  it('writes nothing on any step when one step is invalid', async () => {
    const { tm, who, system, why } = perStep()

    const result = await tm.call('access.fill', {
      values: {
        who: { email: 'ana@example.com' },
        system: { name: 'VPN' },
        why: { reason: 'no' },
      },
    })

    expect(result).toEqual({
      status: 'invalid',
      issues: [{ path: 'values.why.reason', message: 'Say why, in a few words' }],
    })
    for (const step of [who, system, why]) expect(step.adapter.setValues).not.toHaveBeenCalled()
  })

  it('skips a field the user typed in one step and undoes the others', async () => {
    const { tm, system } = perStep()
    let fillId = ''
    tm.events.on('result', (e) => (fillId = e.callId))
    system.type('name', 'Payroll')

    const filled = await tm.call('access.fill', {
      values: { who: { name: 'Ana' }, system: { name: 'VPN', level: 'write' } },
    })
    const undone = await tm.undo(fillId)

    expect(filled).toMatchObject({
      data: {
        changes: [
          { path: 'system.level', before: 'read', after: 'write' },
          { path: 'who.name', after: 'Ana' },
        ],
        skipped: [{ path: 'system.name', reason: 'user_edited' }],
      },
    })
    expect(undone).toMatchObject({ status: 'ok', data: { skipped: [] } })
    expect(system.values).toEqual({ name: 'Payroll', level: 'read', token: '' })
  })

  it('submits invalid with the incomplete step’s paths and calls onSubmit only when all pass', async () => {
    const { tm, onSubmit, onStepChange, who, system, why } = perStep()
    await tm.call('access.fill', {
      values: { who: { email: 'ana@example.com' }, why: { reason: 'On call this week' } },
    })

    const incomplete = await tm.call('access.submit', {}, { caller: 'human' })

    expect(incomplete).toEqual({
      status: 'invalid',
      issues: [{ path: 'system.name', message: 'Name the system' }],
    })
    expect(onStepChange).toHaveBeenLastCalledWith('system')
    expect(onSubmit).not.toHaveBeenCalled()
    // Every step's form was asked, so each shows its own errors.
    for (const step of [who, system, why]) expect(step.adapter.submit).toHaveBeenCalledTimes(1)

    await tm.call('access.fill', { values: { system: { name: 'VPN', token: 's3cret' } } })
    const done = await tm.call('access.submit', {}, { caller: 'human' })

    expect(onSubmit).toHaveBeenCalledTimes(1)
    expect(onSubmit.mock.calls[0][0]).toEqual({
      who: { email: 'ana@example.com', name: '' },
      system: { name: 'VPN', level: 'read', token: 's3cret' },
      why: { reason: 'On call this week' },
    })
    expect(done).toEqual({ status: 'ok', data: { id: 9, token: REDACTED } })
  })

  it('runs overlapping fills and a submit in the order they were sent', async () => {
    const { tm, onSubmit, who, system } = perStep()

    const [first, bad, second, submitted] = await Promise.all([
      tm.call('access.fill', { values: { who: { email: 'ana@example.com' } } }),
      tm.call('access.fill', { values: { who: { name: 'Ana' }, system: { level: 'root' } } }),
      tm.call('access.fill', {
        values: { system: { name: 'VPN' }, why: { reason: 'On call this week' } },
      }),
      tm.call('access.submit', {}, { caller: 'human' }),
    ])

    expect([first.status, bad.status, second.status]).toEqual(['ok', 'invalid', 'ok'])
    expect(who.values.name).toBe('')
    expect(system.values).toEqual({ name: 'VPN', level: 'read', token: '' })
    expect(submitted).toMatchObject({ status: 'ok' })
    expect(onSubmit).toHaveBeenCalledTimes(1)
  })

  it('lists every step in the submit confirmation, secrets of each step masked', async () => {
    const { tm } = perStep()
    await tm.call('access.fill', {
      values: { who: { email: 'ana@example.com' }, system: { name: 'VPN', token: 's3cret' } },
    })

    const asked = await tm.call('access.submit', {}, { caller: 'inapp' })
    const entry = tm.confirmations.list()[0]

    expect(asked).toMatchObject({ status: 'needs_confirmation', summary: 'Submit Request access' })
    expect(entry.input).toEqual({
      who: { email: 'ana@example.com', name: '' },
      system: { name: 'VPN', level: 'read', token: REDACTED },
      why: { reason: '' },
    })
    expect(entry.labels).toEqual({
      who: 'Who',
      system: 'System',
      why: 'Why',
      'who.email': 'Work email',
    })
    expect(JSON.stringify([asked, entry])).not.toContain('s3cret')
  })

  it('masks a step’s secret in call events wherever a malformed fill puts it', async () => {
    const { tm, calls } = perStep()

    await tm.call('access.fill', { values: { who: { token: 'abc123' } } })
    await tm.call('access.fill', { Values: { system: { token: 'abc456' } } })

    expect(JSON.stringify(calls)).not.toMatch(/abc123|abc456/)
  })

  it('looks up a step field’s options at its step path', async () => {
    const { tm, tools, lookup } = perStep()

    const result = await tm.call('access.options', { field: 'system.name', query: 'v' })

    expect(tools.names.options).toBe('access.options')
    expect(result).toEqual({
      status: 'ok',
      data: { field: 'system.name', options: [{ value: 'vpn', title: 'VPN' }], more: false },
    })
    expect(lookup).toHaveBeenCalledTimes(1)
  })

  it('reports each step’s completeness in the state', async () => {
    const { tm } = perStep()
    await tm.call('access.fill', { values: { who: { email: 'ana@example.com' } } })

    const state = await tm.call('access.state')

    expect(state).toMatchObject({
      data: {
        steps: [
          { id: 'who', title: 'Who', complete: true },
          { id: 'system', title: 'System', complete: false },
          { id: 'why', title: 'Why', complete: false },
        ],
      },
    })
  })

  it('reports a throwing onStepChange and keeps the fill', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const why = memoryForm({ reason: '' })
    createWizardTools(tm, {
      name: 'w',
      description: 'A wizard.',
      steps: [{ id: 'why', adapter: why.adapter, schema: whySchema }],
      onSubmit: () => null,
      onStepChange: () => {
        throw new Error('router gone')
      },
    })

    const result = await tm.call('w.fill', { values: { why: { reason: 'Because' } } })

    expect(result).toMatchObject({ status: 'ok' })
    expect(why.values.reason).toBe('Because')
    expect(errors).toEqual([expect.objectContaining({ code: 'listener_threw' })])
  })

  it('throws with the fix in development and registers nothing in production', () => {
    const dev = createToolmark({ dev: true })
    const step = memoryForm({ reason: '' })
    const base = { name: 'w', description: 'A wizard.', onSubmit: () => null }

    expect(() => createWizardTools(dev, { ...base, steps: [] })).toThrow(/at least one step/)
    expect(() =>
      createWizardTools(dev, {
        ...base,
        steps: [{ id: 'why', adapter: step.adapter, schema: undefined as never }],
      }),
    ).toThrow(/step "why" needs a `schema`/)
    expect(() =>
      createWizardTools(dev, {
        name: 'w',
        description: 'A wizard.',
        steps: [{ id: 'why', adapter: step.adapter, schema: whySchema }],
      } as never),
    ).toThrow(/onSubmit/)

    const prod = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    prod.events.on('error', (e) => errors.push(e))
    createWizardTools(prod, {
      ...base,
      steps: [
        { id: 'why', adapter: { ...step.adapter, fields: undefined } as never, schema: whySchema },
      ],
    })
    expect(errors[0]).toMatchObject({ code: 'invalid_form' })
    expect(prod.manifest().tools).toEqual([])
  })
})

describe('the submit confirmation of a form with a secret key another field shares', () => {
  it('masks the secret field but shows the other one', async () => {
    const tm = createToolmark()
    const calls: CallEvent[] = []
    tm.events.on('call', (e) => calls.push(e))
    const form = memoryForm({
      card: { number: '4111111111111111' },
      address: { number: '12' },
      password: 'hunter2',
    })
    createFormTools(tm, form.adapter, {
      name: 'order',
      description: 'The order form.',
      schema: z.object({
        card: z.object({ number: z.string() }),
        address: z.object({ number: z.string() }),
        password: z.string(),
      }),
      sensitive: ['card.number', 'password'],
    })

    await tm.call('order.submit', {}, { caller: 'inapp' })
    await tm.call('order.submit', { password: 'hunter3' }, { caller: 'inapp' })

    expect(tm.confirmations.list()[0].input).toEqual({
      card: { number: REDACTED },
      address: { number: '12' },
      password: REDACTED,
    })
    // A stray key in a submit call is masked too, where no other field shares its name.
    expect(calls[1].input).toEqual({ password: REDACTED })
  })
})
