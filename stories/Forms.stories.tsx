import { StrictMode, useEffect, useState } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { useFieldArray, useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark } from '@toolmark/core'
import type { ConfirmEvent, Toolmark, ToolResult } from '@toolmark/core'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'
import { optionLookups } from '@toolmark/core/forms'
import { useFormTool, useWizardTool } from '@toolmark/react/rhf'
import { ready } from './toolReady'
import { fitWidth } from './fitWidth'

const people = [
  { value: 'u1', title: 'Ada Lovelace' },
  { value: 'u2', title: 'Ana Souza' },
  { value: 'u3', title: 'Ben Okafor' },
  { value: 'u4', title: 'Chloé Martin' },
]

const ticketSchema = z.object({
  title: z.string().min(1, 'Give the ticket a title'),
  priority: z.enum(['low', 'normal', 'high']),
  assignee: z.string(),
  due: z.string().describe('A date, YYYY-MM-DD'),
  items: z.array(
    z.object({ product: z.string().min(1, 'Name the product'), qty: z.number().int().min(1) }),
  ),
})
type TicketValues = z.infer<typeof ticketSchema>

const row = { display: 'grid', gap: 4 } as const

/** A new-ticket form served to agents with `useFormTool`. */
function TicketForm() {
  const [created, setCreated] = useState<number | null>(null)
  const form = useForm<TicketValues>({
    resolver: zodResolver(ticketSchema),
    defaultValues: { title: '', priority: 'normal', assignee: '', due: '', items: [] },
  })
  const items = useFieldArray({ control: form.control, name: 'items' })
  const save = (values: TicketValues) => {
    const id = 100 + values.items.length + 1
    setCreated(id)
    return { id, title: values.title }
  }
  useFormTool(form, {
    name: 'ticket',
    title: 'Create ticket',
    description: 'The new-ticket form of the help desk.',
    schema: ticketSchema,
    onSubmit: save,
    submitSummary: (values) => `Create the ticket “${values.title}”`,
    options: optionLookups({
      assignee: async ({ query }) =>
        people.filter((p) => p.title.toLowerCase().includes(query.toLowerCase())),
    }),
  })
  return (
    <form
      onSubmit={form.handleSubmit(save)}
      style={{ fontFamily: 'system-ui', display: 'grid', gap: 12, minInlineSize: fitWidth(420) }}
    >
      <h1 style={{ fontSize: 18, margin: 0 }}>New ticket</h1>
      <label style={row}>
        Title
        <input {...form.register('title')} />
      </label>
      {form.formState.errors.title && <p role="alert">{form.formState.errors.title.message}</p>}
      <label style={row}>
        Priority
        <select {...form.register('priority')}>
          <option value="low">Low</option>
          <option value="normal">Normal</option>
          <option value="high">High</option>
        </select>
      </label>
      <label style={row}>
        Assignee
        <select {...form.register('assignee')}>
          <option value="">Nobody</option>
          {people.map((p) => (
            <option key={p.value} value={p.value}>
              {p.title}
            </option>
          ))}
        </select>
      </label>
      <label style={row}>
        Due
        <input type="date" {...form.register('due')} />
      </label>
      <fieldset>
        <legend>Items</legend>
        <ul aria-label="Items" style={{ listStyle: 'none', padding: 0, display: 'grid', gap: 4 }}>
          {items.fields.map((field, i) => (
            <li key={field.id} style={{ display: 'flex', gap: 4 }}>
              <input aria-label={`Product ${i + 1}`} {...form.register(`items.${i}.product`)} />
              <input
                aria-label={`Quantity ${i + 1}`}
                type="number"
                style={{ inlineSize: 64 }}
                {...form.register(`items.${i}.qty`, { valueAsNumber: true })}
              />
              <button type="button" onClick={() => items.remove(i)}>
                Remove {i + 1}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" onClick={() => items.append({ product: '', qty: 1 })}>
          Add item
        </button>
      </fieldset>
      <button type="submit">Create</button>
      {created !== null && <p role="status">Ticket #{created} created</p>}
    </form>
  )
}

const accountSchema = z.object({
  email: z.string().email(),
  password: z.string().min(8),
  cardNumber: z.string(),
})
type AccountValues = z.infer<typeof accountSchema>

/** A sign-up form with a password and a card number: their values never leave the page. */
function AccountForm() {
  const [done, setDone] = useState(false)
  const form = useForm<AccountValues>({
    resolver: zodResolver(accountSchema),
    defaultValues: { email: '', password: '', cardNumber: '' },
  })
  const save = () => {
    setDone(true)
    return { created: true }
  }
  useFormTool(form, {
    name: 'account',
    title: 'Create account',
    description: 'The sign-up form.',
    schema: accountSchema,
    onSubmit: save,
  })
  return (
    <form
      onSubmit={form.handleSubmit(save)}
      style={{ fontFamily: 'system-ui', display: 'grid', gap: 12, minInlineSize: fitWidth(360) }}
    >
      <label style={row}>
        Email
        <input type="email" {...form.register('email')} />
      </label>
      <label style={row}>
        Password
        <input type="password" autoComplete="new-password" {...form.register('password')} />
      </label>
      <label style={row}>
        Card number
        <input autoComplete="cc-number" inputMode="numeric" {...form.register('cardNumber')} />
      </label>
      {done && <p role="status">Account created</p>}
    </form>
  )
}

const meta = {
  title: 'Forms',
  parameters: { layout: 'padded' },
  loaders: [() => ({ tm: createToolmark() })],
  render: (_args, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <TicketForm />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>
  ),
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

/** What the last undo did, in words: the fields it restored and the ones it left alone. */
function UndoNote({ tm }: { tm: Toolmark }) {
  const [note, setNote] = useState('No agent change undone yet')
  useEffect(
    () =>
      tm.events.on('undo', ({ tool, result }) => {
        if (result.status !== 'ok') return setNote(`Undo of ${tool}: ${result.status}`)
        const data = result.data as { changes: { path: string }[]; skipped: { path: string }[] }
        const restored = data.changes.map((c) => c.path).join(', ') || 'nothing'
        const kept = data.skipped.map((s) => s.path).join(', ')
        setNote(`Undid ${tool}: restored ${restored}${kept ? `; kept ${kept} (edited since)` : ''}`)
      }),
    [tm],
  )
  return (
    <p role="status" aria-label="Undo" style={{ fontFamily: 'system-ui' }}>
      {note}
    </p>
  )
}

/** Records each call's id and result, so a play function can undo a call. */
function record(tm: Toolmark) {
  const calls: { id: string; tool: string; result: ToolResult }[] = []
  tm.events.on('result', (e) => calls.push({ id: e.callId, tool: e.tool, result: e.result }))
  return calls
}

function nextOutcome(tm: Toolmark) {
  return new Promise<ConfirmEvent>((resolve) => {
    const off = tm.events.on('confirm', (event) => {
      if (event.status === 'pending') return
      off()
      resolve(event)
    })
  })
}

/** The agent fills the form: each field shows its value, and the result lists the changes. Undo puts them back. */
export const FillAndUndo: Story = {
  render: (_args, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <TicketForm />
        <UndoNote tm={loaded.tm as Toolmark} />
      </ToolProvider>
    </StrictMode>
  ),
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    const calls = record(tm)
    await ready(tm, 'ticket.fill')

    const result = await tm.call(
      'ticket.fill',
      { values: { title: 'VPN drops every hour', priority: 'high', due: '2030-05-01' } },
      { caller: 'inapp' },
    )

    await expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'due', after: '2030-05-01' },
          { path: 'priority', before: 'normal', after: 'high' },
          { path: 'title', after: 'VPN drops every hour' },
        ],
        skipped: [],
      },
    })
    await expect(canvas.getByLabelText('Title')).toHaveValue('VPN drops every hour')
    await expect(canvas.getByLabelText('Priority')).toHaveValue('high')
    await expect(canvas.getByLabelText('Due')).toHaveValue('2030-05-01')

    // The person adds to the agent's title before taking the fill back.
    await userEvent.type(canvas.getByLabelText('Title'), ' (office 2)')

    const undone = await tm.undo(calls[calls.length - 1].id)

    await expect(undone).toMatchObject({
      status: 'ok',
      data: { skipped: [{ path: 'title', reason: 'user_edited' }] },
    })
    await expect(canvas.getByLabelText('Title')).toHaveValue('VPN drops every hour (office 2)')
    await expect(canvas.getByLabelText('Priority')).toHaveValue('normal')
    await expect(canvas.getByLabelText('Due')).toHaveValue('')
    await waitFor(() =>
      expect(canvas.getByRole('status', { name: 'Undo' })).toHaveTextContent(
        'Undid ticket.fill: restored due, priority; kept title (edited since)',
      ),
    )
  },
}

/** A person typed the title; the agent's fill leaves it alone and says so in `skipped`. */
export const SkipsUserEdits: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm, 'ticket.fill')
    await userEvent.type(canvas.getByLabelText('Title'), 'Printer jammed (typed by a person)')

    const result = await tm.call(
      'ticket.fill',
      { values: { title: 'Printer issue', priority: 'low' } },
      { caller: 'inapp' },
    )

    await expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'priority', before: 'normal', after: 'low' }],
        skipped: [{ path: 'title', reason: 'user_edited' }],
      },
    })
    await expect(canvas.getByLabelText('Title')).toHaveValue('Printer jammed (typed by a person)')
    await expect(canvas.getByLabelText('Priority')).toHaveValue('low')
  },
}

/** Password and card number reach the form, but results and the dialog show them masked. */
export const Redacted: Story = {
  render: (_args, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <AccountForm />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>
  ),
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm, 'account.fill')

    const result = await tm.call(
      'account.fill',
      {
        values: {
          email: 'ada@example.com',
          password: 'correct horse battery',
          cardNumber: '4111 1111 1111 1111',
        },
      },
      { caller: 'inapp' },
    )

    await expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'cardNumber', after: '[redacted]' },
          { path: 'email', after: 'ada@example.com' },
          { path: 'password', after: '[redacted]' },
        ],
        skipped: [],
      },
    })
    await expect(canvas.getByLabelText('Password')).toHaveValue('correct horse battery')
    await expect(canvas.getByLabelText('Card number')).toHaveValue('4111 1111 1111 1111')

    const outcome = nextOutcome(tm)
    await tm.call('account.submit', {}, { caller: 'inapp' })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Create account' })
    const table = within(dialog).getByRole('table', { name: 'Changes' })
    await expect(table).toHaveTextContent('ada@example.com')
    await expect(table).toHaveTextContent('hidden')
    await expect(dialog).not.toHaveTextContent('correct horse battery')
    await expect(dialog).not.toHaveTextContent('4111')

    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))

    await expect((await outcome).result).toEqual({ status: 'ok', data: { created: true } })
    await expect(await canvas.findByRole('status')).toHaveTextContent('Account created')
  },
}

/** The agent submits: a person sees what will be sent, approves, and the ticket is created. */
export const SubmitWithConfirmation: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm, 'ticket.submit')
    await tm.call(
      'ticket.fill',
      { values: { title: 'New laptop for Chloé', priority: 'low' } },
      { caller: 'inapp' },
    )
    const outcome = nextOutcome(tm)

    const asked = await tm.call('ticket.submit', {}, { caller: 'inapp' })

    await expect(asked).toMatchObject({
      status: 'needs_confirmation',
      summary: 'Create the ticket “New laptop for Chloé”',
      changes: [
        { path: 'priority', before: 'normal', after: 'low' },
        { path: 'title', after: 'New laptop for Chloé' },
      ],
    })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Create ticket' })
    await expect(dialog).toHaveAccessibleDescription('Create the ticket “New laptop for Chloé”')
    // Every value that will be sent, the changed ones marked.
    const table = within(dialog).getByRole('table', { name: 'Values' })
    await expect(table).toHaveTextContent('New laptop for Chloé')
    const changed = within(table)
      .getAllByRole('row')
      .filter((row) => row.textContent?.includes('Changed'))
    await expect(changed).toHaveLength(2)
    await expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()

    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))

    await expect((await outcome).result).toEqual({
      status: 'ok',
      data: { id: 101, title: 'New laptop for Chloé' },
    })
    await expect(await canvas.findByRole('status')).toHaveTextContent('Ticket #101 created')
    await waitFor(() => expect(canvas.queryByRole('alertdialog')).toBeNull())
  },
}

/** The agent looks up real assignee ids before filling the select. */
export const OptionsLookup: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm, 'ticket.options')

    const found = await tm.call(
      'ticket.options',
      { field: 'assignee', query: 'ana' },
      { caller: 'inapp' },
    )

    await expect(found).toEqual({
      status: 'ok',
      data: { field: 'assignee', options: [{ value: 'u2', title: 'Ana Souza' }], more: false },
    })
    const [choice] = (found as { data: { options: { value: string }[] } }).data.options

    await tm.call('ticket.fill', { values: { assignee: choice.value } }, { caller: 'inapp' })

    await expect(canvas.getByLabelText('Assignee')).toHaveValue('u2')
    await expect(
      (canvas.getByLabelText('Assignee') as HTMLSelectElement).selectedOptions[0],
    ).toHaveTextContent('Ana Souza')
  },
}

/** A list edited by the agent (replace, append, remove) and by a person, in one `useFieldArray`. */
export const FieldArray: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm, 'ticket.fill')
    const products = () =>
      canvas
        .queryAllByRole('textbox', { name: /^Product / })
        .map((el) => (el as HTMLInputElement).value)

    await tm.call(
      'ticket.fill',
      {
        values: {
          items: [
            { product: 'Toner', qty: 2 },
            { product: 'Paper', qty: 5 },
          ],
        },
      },
      { caller: 'inapp' },
    )
    await waitFor(() => expect(products()).toEqual(['Toner', 'Paper']))

    await tm.call(
      'ticket.fill',
      { values: { items: { $append: [{ product: 'Staples', qty: 1 }] } } },
      { caller: 'inapp' },
    )
    await waitFor(() => expect(products()).toEqual(['Toner', 'Paper', 'Staples']))

    await tm.call('ticket.fill', { values: { items: { $remove: [0] } } }, { caller: 'inapp' })
    await waitFor(() => expect(products()).toEqual(['Paper', 'Staples']))
    await expect(canvas.getByLabelText('Quantity 1')).toHaveValue(5)

    // A person adds a row and types into it: the agent may still append, not replace.
    await userEvent.click(canvas.getByRole('button', { name: 'Add item' }))
    await userEvent.type(canvas.getByLabelText('Product 3'), 'Mouse')
    const replaced = await tm.call('ticket.fill', { values: { items: [] } }, { caller: 'inapp' })
    await expect(replaced).toMatchObject({
      status: 'ok',
      data: { skipped: [{ path: 'items', reason: 'user_edited' }] },
    })
    await tm.call(
      'ticket.fill',
      { values: { items: { $append: [{ product: 'Cable', qty: 3 }] } } },
      { caller: 'inapp' },
    )
    await waitFor(() => expect(products()).toEqual(['Paper', 'Staples', 'Mouse', 'Cable']))
  },
}

const whoSchema = z.object({
  email: z.email('Enter the email address of the person who needs access'),
  manager: z.string().min(1, 'Name their manager'),
})
const systemSchema = z.object({
  system: z.enum(['vpn', 'payroll', 'crm']),
  level: z.enum(['read', 'write']),
})
const whySchema = z.object({
  reason: z.string().min(5, 'Say why, in a few words'),
  until: z.string().describe('Last day of access, YYYY-MM-DD'),
})
const WIZARD_STEPS = [
  { id: 'who', title: 'Who needs access' },
  { id: 'system', title: 'Which system' },
  { id: 'why', title: 'Why and until when' },
]

/** A three-step access request, one `useForm` per step, served with `useWizardTool`. */
function AccessWizard() {
  const [requested, setRequested] = useState<number | null>(null)
  const who = useForm({
    resolver: zodResolver(whoSchema),
    defaultValues: { email: '', manager: '' },
  })
  const system = useForm({
    resolver: zodResolver(systemSchema),
    defaultValues: { system: 'vpn' as const, level: 'read' as const },
  })
  const why = useForm({
    resolver: zodResolver(whySchema),
    defaultValues: { reason: '', until: '' },
  })
  const { step, setStep } = useWizardTool({
    name: 'access',
    title: 'Request access',
    description:
      'The access-request wizard: who needs access, to which system, why and until when.',
    steps: [
      { id: 'who', title: WIZARD_STEPS[0].title, form: who, schema: whoSchema },
      { id: 'system', title: WIZARD_STEPS[1].title, form: system, schema: systemSchema },
      { id: 'why', title: WIZARD_STEPS[2].title, form: why, schema: whySchema },
    ],
    onSubmit: () => {
      setRequested(42)
      return { request: 42 }
    },
    submitSummary: (values) => `Request ${values.system.level} access to ${values.system.system}`,
  })
  const index = WIZARD_STEPS.findIndex((s) => s.id === step)
  return (
    <section
      style={{ fontFamily: 'system-ui', display: 'grid', gap: 12, minInlineSize: fitWidth(420) }}
    >
      <ol aria-label="Steps" style={{ display: 'flex', gap: 16, paddingInlineStart: 16 }}>
        {WIZARD_STEPS.map((s) => (
          <li key={s.id} aria-current={s.id === step ? 'step' : undefined}>
            {s.id === step ? <strong>{s.title}</strong> : s.title}
          </li>
        ))}
      </ol>
      <h2 style={{ margin: 0 }}>{WIZARD_STEPS[index].title}</h2>
      {step === 'who' && (
        <div style={{ display: 'grid', gap: 8 }}>
          <label style={row}>
            Email <input type="email" {...who.register('email')} />
          </label>
          <label style={row}>
            Manager <input {...who.register('manager')} />
          </label>
        </div>
      )}
      {step === 'system' && (
        <div style={{ display: 'grid', gap: 8 }}>
          <label style={row}>
            System
            <select {...system.register('system')}>
              <option value="vpn">VPN</option>
              <option value="payroll">Payroll</option>
              <option value="crm">CRM</option>
            </select>
          </label>
          <label style={row}>
            Level
            <select {...system.register('level')}>
              <option value="read">Read</option>
              <option value="write">Write</option>
            </select>
          </label>
        </div>
      )}
      {step === 'why' && (
        <div style={{ display: 'grid', gap: 8 }}>
          <label style={row}>
            Reason <textarea {...why.register('reason')} />
          </label>
          <label style={row}>
            Until <input type="date" {...why.register('until')} />
          </label>
        </div>
      )}
      <div style={{ display: 'flex', gap: 8 }}>
        <button
          type="button"
          disabled={index === 0}
          onClick={() => setStep(WIZARD_STEPS[index - 1].id)}
        >
          Back
        </button>
        <button
          type="button"
          disabled={index === WIZARD_STEPS.length - 1}
          onClick={() => setStep(WIZARD_STEPS[index + 1].id)}
        >
          Next
        </button>
      </div>
      {requested !== null && <p role="status">Access request #{requested} sent</p>}
    </section>
  )
}

/**
 * A three-step wizard, one `useForm` per step: the agent fills every step in one call (a bad
 * value on any step writes nothing), the wizard shows the step with the first issue, else the
 * last, and the person confirms every step before it is sent.
 */
export const Wizard: Story = {
  render: (_args, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <AccessWizard />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>
  ),
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm, 'access.fill')
    const heading = () => canvas.getByRole('heading', { level: 2 })

    // One step is invalid: nothing is written on any step.
    const rejected = await tm.call(
      'access.fill',
      {
        values: {
          who: { email: 'ana@example.com', manager: 'Ben Okafor' },
          system: { system: 'mainframe' },
        },
      },
      { caller: 'inapp' },
    )
    await expect(rejected).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'values.system.system' }],
    })
    await expect(canvas.getByLabelText('Email')).toHaveValue('')

    // The first two steps: the wizard moves on to the one still missing values.
    await tm.call(
      'access.fill',
      {
        values: {
          who: { email: 'ana@example.com', manager: 'Ben Okafor' },
          system: { system: 'payroll', level: 'write' },
        },
      },
      { caller: 'inapp' },
    )
    await waitFor(() => expect(heading()).toHaveTextContent('Why and until when'))

    const state = await tm.call('access.state', {}, { caller: 'inapp' })
    await expect(state).toMatchObject({
      status: 'ok',
      data: {
        steps: [
          { id: 'who', complete: true },
          { id: 'system', complete: true },
          { id: 'why', complete: false },
        ],
      },
    })

    await tm.call(
      'access.fill',
      { values: { why: { reason: 'Covers payroll during the audit', until: '2030-06-30' } } },
      { caller: 'inapp' },
    )
    await expect(canvas.getByLabelText('Reason')).toHaveValue('Covers payroll during the audit')

    const outcome = nextOutcome(tm)
    const asked = await tm.call('access.submit', {}, { caller: 'inapp' })
    await expect(asked).toMatchObject({
      status: 'needs_confirmation',
      summary: 'Request write access to payroll',
    })
    const entry = tm.confirmations.list()[0]
    await expect(entry.input).toEqual({
      who: { email: 'ana@example.com', manager: 'Ben Okafor' },
      system: { system: 'payroll', level: 'write' },
      why: { reason: 'Covers payroll during the audit', until: '2030-06-30' },
    })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Request access' })
    await expect(dialog).toHaveTextContent('ana@example.com')

    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))

    await expect((await outcome).result).toEqual({ status: 'ok', data: { request: 42 } })
    await expect(await canvas.findByRole('status')).toHaveTextContent('Access request #42 sent')
  },
}
