import { Component, StrictMode, useState, type ReactNode } from 'react'
import { act, render, screen, fireEvent } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Controller, useFieldArray, useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark, REDACTED } from '@toolmark/core'
import type { ErrorEvent, ToolResult, Toolmark } from '@toolmark/core'
import { fileFields, formSteps, optionLookups } from '@toolmark/core/forms'
import { ToolProvider, ToolScope } from '@toolmark/react'
import * as rhf from '@toolmark/react/rhf'
import { useFormTool } from '@toolmark/react/rhf'
import type { OptionLookups } from '@toolmark/react/rhf'

const schema = z.object({
  title: z.string().min(1, 'Give the ticket a title'),
  priority: z.enum(['low', 'normal', 'high']),
  estimate: z.number().int().min(0),
  due: z.coerce.date(),
  urgent: z.boolean(),
  customer: z.object({ name: z.string(), email: z.string() }),
  password: z.string(),
  items: z.array(z.object({ product: z.string().min(1, 'Name the product') })),
})
type Input = z.input<typeof schema>
type Output = z.output<typeof schema>

const defaults: Input = {
  title: '',
  priority: 'normal',
  estimate: 0,
  due: '2030-01-01',
  urgent: false,
  customer: { name: '', email: '' },
  password: '',
  items: [],
}

interface TicketFormProps {
  onSubmit?: (values: Output) => unknown
  options?: OptionLookups
  onRender?: () => void
  toolmark?: Toolmark
}

function TicketForm({
  onSubmit = (v) => ({ saved: v.title }),
  options,
  onRender,
  toolmark,
}: TicketFormProps) {
  onRender?.()
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: defaults,
  })
  const items = useFieldArray({ control: form.control, name: 'items' })
  useFormTool(form, {
    name: 'ticket',
    title: 'Create ticket',
    description: 'The new-ticket form.',
    schema,
    onSubmit,
    options,
    submitSummary: (values) => `Create "${values.title}"`,
    toolmark,
  })
  const { errors, isDirty } = form.formState
  return (
    <form onSubmit={form.handleSubmit(onSubmit)}>
      <label>
        Title <input {...form.register('title')} />
      </label>
      {errors.title && <p role="alert">{errors.title.message}</p>}
      <label>
        Priority
        <select {...form.register('priority')}>
          <option value="low">Low</option>
          <option value="normal">Normal</option>
          <option value="high">High</option>
        </select>
      </label>
      <label>
        Estimate <input type="number" {...form.register('estimate', { valueAsNumber: true })} />
      </label>
      <label>
        Due <input type="date" {...form.register('due')} />
      </label>
      <label>
        Urgent <input type="checkbox" {...form.register('urgent')} />
      </label>
      <label>
        Customer <input {...form.register('customer.name')} />
      </label>
      <label>
        Email <input {...form.register('customer.email')} />
      </label>
      <label>
        Password <input type="password" {...form.register('password')} />
      </label>
      <ul aria-label="Items">
        {items.fields.map((field, i) => (
          <li key={field.id}>
            <input aria-label={`Item ${i + 1}`} {...form.register(`items.${i}.product`)} />
          </li>
        ))}
      </ul>
      <output aria-label="Unsaved">{isDirty ? 'unsaved changes' : 'saved'}</output>
    </form>
  )
}

function renderForm(props: TicketFormProps = {}) {
  const tm = props.toolmark ?? createToolmark()
  const view = render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <TicketForm {...props} />
      </ToolProvider>
    </StrictMode>,
  )
  return { tm, ...view }
}

const flush = () => act(async () => {})
const call = (tm: Toolmark, name: string, input?: unknown, caller: 'inapp' | 'human' = 'inapp') =>
  act(() => tm.call(name, input, { caller }))

/** Records the id of each call, to undo it. */
function callIds(tm: Toolmark) {
  const ids: string[] = []
  tm.events.on('result', (e) => ids.push(e.callId))
  return ids
}

describe('useFormTool', () => {
  it('is exported with useWizardTool, the only runtime exports of @toolmark/react/rhf (formSteps, optionLookups and fileFields are in @toolmark/core/forms)', () => {
    expect(Object.keys(rhf).sort()).toEqual(['useFormTool', 'useWizardTool'])
  })

  it('names changed fields in the confirmation as a person reads them, radio groups by their legend', async () => {
    const small = z.object({ title: z.string(), priority: z.enum(['low', 'high']) })
    function SmallForm() {
      const form = useForm({ defaultValues: { title: '', priority: 'low' as 'low' | 'high' } })
      useFormTool(form, {
        name: 'small',
        description: 'A small form.',
        schema: small,
        onSubmit: () => null,
      })
      return (
        <form>
          <label htmlFor="small-title">
            Title<span aria-hidden="true"> *</span>
          </label>
          <input id="small-title" {...form.register('title')} />
          <fieldset>
            <legend>Priority</legend>
            <label>
              <input type="radio" value="low" {...form.register('priority')} /> Low
            </label>
            <label>
              <input type="radio" value="high" {...form.register('priority')} /> High
            </label>
          </fieldset>
        </form>
      )
    }
    const tm = createToolmark()
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <SmallForm />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    await call(tm, 'small.fill', { values: { title: 'Printer jammed', priority: 'high' } })

    await call(tm, 'small.submit', {})

    expect(tm.confirmations.list()[0].labels).toEqual({ priority: 'Priority', title: 'Title' })
  })

  it("names each field by its label's own words, never by the controls or options inside it", async () => {
    const shapes = z.object({
      priority: z.enum(['low', 'normal', 'high']),
      notes: z.string(),
      estimate: z.number(),
      team: z.string(),
      owner: z.string(),
      tags: z.string(),
      summary: z.string(),
    })
    type Shapes = z.input<typeof shapes>
    function ShapesForm() {
      const form = useForm<Shapes>({
        defaultValues: {
          priority: 'normal',
          notes: '',
          estimate: 0,
          team: '',
          owner: '',
          tags: '',
          summary: '',
        },
      })
      useFormTool(form, {
        name: 'shapes',
        description: 'Every way a field gets its label.',
        schema: shapes,
        onSubmit: () => null,
      })
      return (
        <form>
          <label>
            Priority
            <select {...form.register('priority')}>
              <optgroup label="Usual">
                <option value="low">Low</option>
                <option value="normal">Normal</option>
              </optgroup>
              <option value="high">High</option>
            </select>
          </label>
          <label>
            Notes <textarea {...form.register('notes')} defaultValue="Typed text" />
          </label>
          <label>
            Estimate <input type="number" {...form.register('estimate', { valueAsNumber: true })} />{' '}
            <button type="button">Clear</button> hours
          </label>
          <label htmlFor="shapes-team">
            Team<span aria-hidden="true"> *</span>
          </label>
          <select id="shapes-team" {...form.register('team')}>
            <option value="">None</option>
            <option value="ops">Operations</option>
          </select>
          <h3 id="shapes-owner-a">Owner</h3>
          <span id="shapes-owner-b">
            (email <input aria-label="unrelated" readOnly value="x" />)
          </span>
          <label>
            Ignored wrapping words
            <input aria-labelledby="shapes-owner-a shapes-owner-b" {...form.register('owner')} />
          </label>
          <input aria-label="Tags" {...form.register('tags')} />
          <label>
            Summary
            <span>
              <input {...form.register('summary')} />
              <select aria-label="Summary style">
                <option>Short</option>
                <option>Long</option>
              </select>
            </span>
          </label>
        </form>
      )
    }
    const tm = createToolmark()
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ShapesForm />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    await call(tm, 'shapes.fill', {
      values: {
        priority: 'high',
        notes: 'Call back',
        estimate: 3,
        team: 'ops',
        owner: 'ana@example.com',
        tags: 'printer',
        summary: 'Jam',
      },
    })

    await call(tm, 'shapes.submit', {})

    expect(tm.confirmations.list()[0].labels).toEqual({
      priority: 'Priority',
      notes: 'Notes',
      estimate: 'Estimate hours',
      team: 'Team',
      owner: 'Owner (email )',
      tags: 'Tags',
      summary: 'Summary',
    })
  })

  it('registers fill, submit and state while mounted and removes them on unmount', async () => {
    const { tm, unmount } = renderForm()
    await flush()

    expect(tm.manifest().tools.map((t) => t.name)).toEqual([
      'ticket.fill',
      'ticket.state',
      'ticket.submit',
    ])

    unmount()
    await flush()
    expect(tm.manifest().tools).toEqual([])
  })

  it("ends StrictMode's extra mount cycle with each tool registered once", async () => {
    const tm = createToolmark()
    const register = tm.register.bind(tm)
    let live = 0
    vi.spyOn(tm, 'register').mockImplementation((def, options) => {
      const handle = register(def, options)
      live++
      let disposed = false
      return {
        name: handle.name,
        dispose() {
          if (!disposed) live--
          disposed = true
          handle.dispose()
        },
      }
    })

    renderForm({ toolmark: tm })
    await flush()

    expect(live).toBe(3)
    expect(tm.register).toHaveBeenCalledTimes(6)
  })

  it('fills inputs of every kind and returns the changes', async () => {
    const { tm } = renderForm()
    await flush()

    const result = await call(tm, 'ticket.fill', {
      values: {
        title: 'Printer on fire',
        priority: 'high',
        estimate: 3,
        due: '2030-02-01',
        urgent: true,
        customer: { name: 'Ada' },
      },
    })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'customer.name', after: 'Ada' },
          { path: 'due', before: '2030-01-01', after: '2030-02-01' },
          { path: 'estimate', before: 0, after: 3 },
          { path: 'priority', before: 'normal', after: 'high' },
          { path: 'title', after: 'Printer on fire' },
          { path: 'urgent', before: false, after: true },
        ],
        skipped: [],
      },
    })
    expect(screen.getByLabelText('Title')).toHaveValue('Printer on fire')
    expect(screen.getByLabelText('Priority')).toHaveValue('high')
    expect(screen.getByLabelText('Estimate')).toHaveValue(3)
    expect(screen.getByLabelText('Due')).toHaveValue('2030-02-01')
    expect(screen.getByLabelText('Urgent')).toBeChecked()
    expect(screen.getByLabelText('Customer')).toHaveValue('Ada')
  })

  it('skips a field the user typed into unless overwrite is true', async () => {
    const user = userEvent.setup()
    const { tm } = renderForm()
    await flush()
    await user.type(screen.getByLabelText('Title'), 'Typed by hand')

    const skipped = await call(tm, 'ticket.fill', { values: { title: 'Agent', urgent: true } })

    expect(skipped).toMatchObject({
      status: 'ok',
      data: { skipped: [{ path: 'title', reason: 'user_edited' }] },
    })
    expect(screen.getByLabelText('Title')).toHaveValue('Typed by hand')

    await call(tm, 'ticket.fill', { values: { title: 'Agent' }, overwrite: true })
    expect(screen.getByLabelText('Title')).toHaveValue('Agent')
  })

  it('marks the form unsaved after a fill, yet lets the agent rewrite its own values', async () => {
    const { tm } = renderForm()
    await flush()

    await call(tm, 'ticket.fill', { values: { title: 'First' } })
    const again = await call(tm, 'ticket.fill', { values: { title: 'Second' } })
    const state = await call(tm, 'ticket.state')

    expect(screen.getByRole('status', { name: 'Unsaved' })).toHaveTextContent('unsaved changes')
    expect(again).toMatchObject({ data: { changes: [{ path: 'title' }], skipped: [] } })
    expect(state).toMatchObject({ status: 'ok', data: { edited: [] } })
  })

  it('keeps useFieldArray rows in sync with replace, $append and $remove', async () => {
    const { tm } = renderForm()
    await flush()
    const rows = () =>
      screen.getAllByRole('textbox', { name: /^Item / }).map((el) => (el as HTMLInputElement).value)

    await call(tm, 'ticket.fill', {
      values: { items: [{ product: 'Toner' }, { product: 'Paper' }] },
    })
    expect(rows()).toEqual(['Toner', 'Paper'])

    await call(tm, 'ticket.fill', { values: { items: { $append: [{ product: 'Staples' }] } } })
    expect(rows()).toEqual(['Toner', 'Paper', 'Staples'])

    await call(tm, 'ticket.fill', { values: { items: { $remove: [0] } } })
    expect(rows()).toEqual(['Paper', 'Staples'])
  })

  it('finds the password input and masks it, while onSubmit gets the real value', async () => {
    const onSubmit = vi.fn((values: Output) => ({ id: 1, title: values.title }))
    const { tm } = renderForm({ onSubmit })
    await flush()

    const filled = await call(tm, 'ticket.fill', {
      values: { title: 'Reset my account', password: 'hunter2' },
    })
    const state = await call(tm, 'ticket.state')
    const asked = await call(tm, 'ticket.submit')

    expect(filled).toMatchObject({
      data: { changes: [{ path: 'password', after: REDACTED }, { path: 'title' }] },
    })
    expect(state).toMatchObject({ data: { values: { password: REDACTED } } })
    expect(asked).toMatchObject({
      status: 'needs_confirmation',
      summary: 'Create "Reset my account"',
      changes: [{ path: 'password', after: REDACTED }, { path: 'title' }],
    })
    expect(screen.getByLabelText('Password')).toHaveValue('hunter2')

    const done = await act(() =>
      tm.confirmations.approve((asked as { confirmId: string }).confirmId),
    )
    expect(done).toEqual({ status: 'ok', data: { id: 1, title: 'Reset my account' } })
    expect(onSubmit).toHaveBeenCalledTimes(1)
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      password: 'hunter2',
      due: new Date('2030-01-01'),
    })
  })

  it('submits with the latest onSubmit after a re-render', async () => {
    const tm = createToolmark()
    const first = vi.fn(() => 'first')
    const second = vi.fn(() => 'second')
    const { rerender } = render(
      <StrictMode>
        <TicketForm toolmark={tm} onSubmit={first} />
      </StrictMode>,
    )
    await flush()
    rerender(
      <StrictMode>
        <TicketForm toolmark={tm} onSubmit={second} />
      </StrictMode>,
    )
    await call(tm, 'ticket.fill', { values: { title: 'T' } })

    const result = await call(tm, 'ticket.submit', {}, 'human')

    expect(result).toEqual({ status: 'ok', data: 'second' })
    expect(first).not.toHaveBeenCalled()
  })

  it('returns invalid with field paths when the resolver rejects, and the form shows the error', async () => {
    const onSubmit = vi.fn()
    const { tm } = renderForm({ onSubmit })
    await flush()
    await call(tm, 'ticket.fill', {
      values: { items: [{ product: 'Toner' }, { product: 'Paper' }] },
    })
    fireEvent.change(screen.getByLabelText('Item 2'), { target: { value: '' } })

    const result = await call(tm, 'ticket.submit', {}, 'human')

    expect(result).toEqual({
      status: 'invalid',
      issues: [
        { path: 'title', message: 'Give the ticket a title' },
        { path: 'items.1.product', message: 'Name the product' },
      ],
    })
    expect(screen.getByRole('alert')).toHaveTextContent('Give the ticket a title')
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('refuses a submit approved after the user changed the form', async () => {
    const onSubmit = vi.fn()
    const { tm } = renderForm({ onSubmit })
    await flush()
    await call(tm, 'ticket.fill', { values: { title: 'Before' } })
    const asked = (await call(tm, 'ticket.submit')) as { confirmId: string }

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'After' } })
    const result = await act(() => tm.confirmations.approve(asked.confirmId))

    expect(result).toMatchObject({ status: 'refused', code: 'stale' })
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('runs a submit once when it is approved twice', async () => {
    const onSubmit = vi.fn(async () => {
      await new Promise((r) => setTimeout(r, 5))
      return 'saved'
    })
    const { tm } = renderForm({ onSubmit })
    await flush()
    await call(tm, 'ticket.fill', { values: { title: 'Once' } })
    const asked = (await call(tm, 'ticket.submit')) as { confirmId: string }

    const results = await act(() =>
      Promise.all([
        tm.confirmations.approve(asked.confirmId),
        tm.confirmations.approve(asked.confirmId),
      ]),
    )

    expect(onSubmit).toHaveBeenCalledTimes(1)
    expect(results.map((r: ToolResult) => r.status).sort()).toEqual(['ok', 'refused'])
  })

  it('undoes a fill in the inputs, keeping what the user typed since', async () => {
    const user = userEvent.setup()
    const { tm } = renderForm()
    const ids = callIds(tm)
    await flush()
    await call(tm, 'ticket.fill', { values: { title: 'Agent title', customer: { name: 'Ada' } } })
    const fillId = ids.at(-1)!
    await user.clear(screen.getByLabelText('Title'))
    await user.type(screen.getByLabelText('Title'), 'Mine')

    const undone = await act(() => tm.undo(fillId))

    expect(undone).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'customer.name', before: 'Ada' }],
        skipped: [{ path: 'title', reason: 'user_edited' }],
      },
    })
    expect(screen.getByLabelText('Title')).toHaveValue('Mine')
    expect(screen.getByLabelText('Customer')).toHaveValue('')
  })

  it('serves options lookups, always with the latest lookup', async () => {
    const tm = createToolmark()
    const lookup = (who: string) => vi.fn(async () => [{ value: 'u1', title: who }])
    const first = lookup('Ada (first render)')
    const second = lookup('Ada')
    const { rerender } = render(
      <StrictMode>
        <TicketForm toolmark={tm} options={optionLookups({ 'customer.name': first })} />
      </StrictMode>,
    )
    await flush()
    rerender(
      <StrictMode>
        <TicketForm toolmark={tm} options={optionLookups({ 'customer.name': second })} />
      </StrictMode>,
    )

    const result = await call(tm, 'ticket.options', { field: 'customer.name', query: 'ad' })

    expect(result).toEqual({
      status: 'ok',
      data: { field: 'customer.name', options: [{ value: 'u1', title: 'Ada' }], more: false },
    })
    expect(second).toHaveBeenCalledWith(expect.objectContaining({ query: 'ad' }))
    expect(first).not.toHaveBeenCalled()
  })

  it('renders the form component at most once per fill', async () => {
    let renders = 0
    const { tm } = renderForm({ onRender: () => renders++ })
    await flush()
    await call(tm, 'ticket.fill', { values: { title: 'Warm up' } })

    const counts: number[] = []
    for (const title of ['One', 'Two', 'Three']) {
      const before = renders
      await call(tm, 'ticket.fill', { values: { title, customer: { name: title }, urgent: true } })
      counts.push(renders - before)
    }

    // StrictMode renders twice per commit in development: at most one commit per fill.
    expect(Math.max(...counts)).toBeLessThanOrEqual(2)
  })

  it('keeps the agent’s own values its own when the tools register again', async () => {
    const tm = createToolmark()
    function Described({ description }: { description: string }) {
      const form = useForm({ defaultValues: { title: '' } })
      useFormTool(form, {
        name: 'note',
        description,
        schema: z.object({ title: z.string() }),
        onSubmit: () => null,
        toolmark: tm,
      })
      return <input aria-label="Note title" {...form.register('title')} />
    }
    const { rerender } = render(
      <StrictMode>
        <Described description="A note." />
      </StrictMode>,
    )
    await flush()
    await call(tm, 'note.fill', { values: { title: 'Draft' } })

    rerender(
      <StrictMode>
        <Described description="A note, with a longer description." />
      </StrictMode>,
    )
    await flush()
    const result = await call(tm, 'note.fill', { values: { title: 'Second draft' } })

    expect(tm.describe('note.fill')?.description).toMatch(/^A note, with a longer description\./)
    expect(result).toMatchObject({ status: 'ok', data: { skipped: [] } })
    expect(screen.getByLabelText('Note title')).toHaveValue('Second draft')
  })

  it('keeps its tools registered through re-renders with inline options and an equal inline schema', async () => {
    const tm = createToolmark()
    const register = vi.spyOn(tm, 'register')
    function Inline() {
      const [n, setN] = useState(0)
      const inlineSchema = z.object({ title: z.string().min(1) })
      const form = useForm({ resolver: zodResolver(inlineSchema), defaultValues: { title: '' } })
      useFormTool(form, {
        name: 'note',
        description: 'A note.',
        schema: inlineSchema,
        sensitive: ['secret'],
        hints: { consequential: true },
        onSubmit: () => ({ n }),
      })
      return <button onClick={() => setN((v) => v + 1)}>Render {n}</button>
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Inline />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    const registered = register.mock.calls.length
    const rev = tm.rev

    fireEvent.click(screen.getByRole('button'))
    fireEvent.click(screen.getByRole('button'))
    await flush()

    expect(screen.getByRole('button')).toHaveTextContent('Render 2')
    expect(register.mock.calls.length).toBe(registered)
    expect(tm.rev).toBe(rev)
    expect(await call(tm, 'note.submit', {}, 'human')).toMatchObject({
      status: 'invalid',
    })
  })

  it('warns once in development when the form has no resolver', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const tm = createToolmark({ dev: true })
    function NoResolver() {
      const form = useForm({ defaultValues: { title: '' } })
      useFormTool(form, {
        name: 'loose',
        description: 'A form without a resolver.',
        schema: z.object({ title: z.string() }),
        onSubmit: () => null,
        toolmark: tm,
      })
      return null
    }

    render(
      <StrictMode>
        <NoResolver />
      </StrictMode>,
    )
    await flush()

    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0][0]).toMatch(
      /^\[toolmark\] useFormTool\("loose"\): the form has no resolver/,
    )
  })

  it('takes the submit hints from the options', async () => {
    const tm = createToolmark()
    function Quick() {
      const form = useForm({ resolver: zodResolver(schema), defaultValues: defaults })
      useFormTool(form, {
        name: 'quick',
        description: 'A form an agent may submit alone.',
        schema,
        onSubmit: () => 'sent',
        hints: {},
        toolmark: tm,
      })
      return null
    }
    render(
      <StrictMode>
        <Quick />
      </StrictMode>,
    )
    await flush()

    expect(tm.describe('quick.submit')?.hints).toEqual({})
    expect(await call(tm, 'quick.submit')).toMatchObject({ status: 'invalid' })
  })

  it('prefixes the names with the enclosing ToolScope', async () => {
    const tm = createToolmark()
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ToolScope name="support">
            <TicketForm />
          </ToolScope>
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    expect(tm.manifest().tools.map((t) => t.name)).toEqual([
      'support.ticket.fill',
      'support.ticket.state',
      'support.ticket.submit',
    ])
  })

  it('throws outside a provider without an explicit registry', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})

    expect(() => render(<TicketForm />)).toThrow(
      /`useFormTool` must be used within `<ToolProvider>`/,
    )
  })
})

describe('useFormTool with a Controller', () => {
  const pinSchema = z.object({ pin: z.string().length(4) })

  function PinForm({ tm }: { tm: Toolmark }) {
    const form = useForm({ resolver: zodResolver(pinSchema), defaultValues: { pin: '' } })
    useFormTool(form, {
      name: 'pin',
      description: 'Sets the card PIN.',
      schema: pinSchema,
      onSubmit: () => null,
      toolmark: tm,
    })
    const [shown, setShown] = useState(false)
    return (
      <>
        <Controller
          control={form.control}
          name="pin"
          render={({ field }) => (
            <input
              aria-label="PIN"
              name={field.name}
              type={shown ? 'text' : 'password'}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
        <button type="button" onClick={() => setShown(true)}>
          Show
        </button>
      </>
    )
  }

  it('finds a secret input by name and keeps it masked after it turns visible', async () => {
    const tm = createToolmark()
    render(
      <StrictMode>
        <PinForm tm={tm} />
      </StrictMode>,
    )
    await flush()

    const first = await call(tm, 'pin.fill', { values: { pin: '1234' } })
    fireEvent.click(screen.getByRole('button', { name: 'Show' }))
    const second = await call(tm, 'pin.fill', { values: { pin: '5678' } })

    expect(screen.getByLabelText('PIN')).toHaveAttribute('type', 'text')
    expect(screen.getByLabelText('PIN')).toHaveValue('5678')
    expect(first).toMatchObject({ data: { changes: [{ path: 'pin', after: REDACTED }] } })
    expect(second).toMatchObject({
      data: { changes: [{ path: 'pin', before: REDACTED, after: REDACTED }] },
    })
  })
})

const accessSchema = z.object({
  email: z.email('Enter an email address'),
  password: z.string().min(6, 'At least 6 characters'),
  system: z.string().min(1, 'Name the system'),
  reason: z.string().min(5, 'Say why, in a few words'),
})
type Access = z.infer<typeof accessSchema>

/** One useForm, its fields split into three steps; only the visible step is rendered. */
function AccessWizard({
  tm,
  onSubmit = (values: Access) => ({ id: 1, ...values }),
  onStepChange,
}: {
  tm: Toolmark
  onSubmit?: (values: Access) => unknown
  onStepChange?: (id: string) => void
}) {
  const form = useForm<Access>({
    resolver: zodResolver(accessSchema),
    defaultValues: { email: '', password: '', system: '', reason: '' },
  })
  const { step, setStep } = useFormTool(form, {
    name: 'access',
    title: 'Request access',
    description: 'The access-request wizard.',
    schema: accessSchema,
    onSubmit,
    steps: formSteps([
      { id: 'who', title: 'Who', fields: ['email', 'password'] },
      { id: 'system', title: 'System', fields: ['system'] },
      { id: 'why', title: 'Why', fields: ['reason'] },
    ]),
    sensitive: ['password'],
    onStepChange,
    toolmark: tm,
  })
  return (
    <form onSubmit={form.handleSubmit(onSubmit)}>
      <h2>Step: {step}</h2>
      {step === 'who' && (
        <>
          <label>
            Email <input {...form.register('email')} />
          </label>
          <label>
            Password <input type="password" {...form.register('password')} />
          </label>
          <button type="button" onClick={() => setStep('system')}>
            Next
          </button>
        </>
      )}
      {step === 'system' && (
        <label>
          System <input {...form.register('system')} />
        </label>
      )}
      {step === 'why' && (
        <label>
          Reason <input {...form.register('reason')} />
        </label>
      )}
    </form>
  )
}

describe('useFormTool with steps', () => {
  it('fills every step at once and shows the step with the first issue, else the last', async () => {
    const tm = createToolmark()
    const onStepChange = vi.fn()
    render(
      <StrictMode>
        <AccessWizard tm={tm} onStepChange={onStepChange} />
      </StrictMode>,
    )
    await flush()
    expect(screen.getByRole('heading')).toHaveTextContent('Step: who')

    const first = await call(tm, 'access.fill', {
      values: {
        who: { email: 'ana@example.com', password: 'hunter22' },
        why: { reason: 'On call' },
      },
    })

    expect(first).toMatchObject({
      status: 'ok',
      data: {
        changes: [
          { path: 'who.email', after: 'ana@example.com' },
          { path: 'who.password', after: REDACTED },
          { path: 'why.reason', after: 'On call' },
        ],
      },
    })
    expect(screen.getByRole('heading')).toHaveTextContent('Step: system')
    expect(onStepChange).toHaveBeenLastCalledWith('system')

    await call(tm, 'access.fill', { values: { system: { system: 'VPN' } } })

    expect(screen.getByRole('heading')).toHaveTextContent('Step: why')
    expect(screen.getByLabelText('Reason')).toHaveValue('On call')
  })

  it('writes nothing on any step when one step is invalid', async () => {
    const tm = createToolmark()
    render(
      <StrictMode>
        <AccessWizard tm={tm} />
      </StrictMode>,
    )
    await flush()

    const result = await call(tm, 'access.fill', {
      values: { who: { email: 'ana@example.com' }, why: { reason: 'no' } },
    })

    expect(result).toEqual({
      status: 'invalid',
      issues: [{ path: 'values.why.reason', message: 'Say why, in a few words' }],
    })
    expect(screen.getByLabelText('Email')).toHaveValue('')
    expect(screen.getByRole('heading')).toHaveTextContent('Step: who')
  })

  it('skips what the person typed on an earlier step', async () => {
    const tm = createToolmark()
    render(
      <StrictMode>
        <AccessWizard tm={tm} />
      </StrictMode>,
    )
    await flush()
    await userEvent.type(screen.getByLabelText('Email'), 'me@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Next' }))

    const result = await call(tm, 'access.fill', {
      values: { who: { email: 'ana@example.com' }, system: { system: 'VPN' } },
    })

    expect(result).toMatchObject({
      data: {
        changes: [{ path: 'system.system', after: 'VPN' }],
        skipped: [{ path: 'who.email', reason: 'user_edited' }],
      },
    })
    // The first step with an issue is "who" (no password yet): the wizard goes back there.
    expect(screen.getByRole('heading')).toHaveTextContent('Step: who')
    expect(screen.getByLabelText('Email')).toHaveValue('me@example.com')
  })

  it('submits invalid with the incomplete step’s paths and shows that step', async () => {
    const tm = createToolmark()
    const onSubmit = vi.fn()
    render(
      <StrictMode>
        <AccessWizard tm={tm} onSubmit={onSubmit} />
      </StrictMode>,
    )
    await flush()
    await call(tm, 'access.fill', {
      values: {
        who: { email: 'ana@example.com', password: 'hunter22' },
        why: { reason: 'On call this week' },
      },
    })

    const result = await call(tm, 'access.submit', {}, 'human')

    expect(result).toEqual({
      status: 'invalid',
      issues: [{ path: 'system.system', message: 'Name the system' }],
    })
    expect(screen.getByRole('heading')).toHaveTextContent('Step: system')
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('confirms the whole submission across steps and masks the password in the result', async () => {
    const tm = createToolmark()
    const onSubmit = vi.fn((values: Access) => ({ id: 7, ...values }))
    render(
      <StrictMode>
        <AccessWizard tm={tm} onSubmit={onSubmit} />
      </StrictMode>,
    )
    await flush()
    await call(tm, 'access.fill', {
      values: {
        who: { email: 'ana@example.com', password: 'hunter22' },
        system: { system: 'VPN' },
        why: { reason: 'On call this week' },
      },
    })

    const asked = (await call(tm, 'access.submit')) as { confirmId: string }
    const entry = tm.confirmations.list()[0]
    const result = await act(() => tm.confirmations.approve(asked.confirmId))

    expect(entry.input).toEqual({
      who: { email: 'ana@example.com', password: REDACTED },
      system: { system: 'VPN' },
      why: { reason: 'On call this week' },
    })
    expect(entry.labels).toMatchObject({ who: 'Who', system: 'System', why: 'Why' })
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ password: 'hunter22' })
    expect(result).toEqual({
      status: 'ok',
      data: {
        id: 7,
        email: 'ana@example.com',
        password: REDACTED,
        system: 'VPN',
        reason: 'On call this week',
      },
    })
  })
})

const whoSchema = z.object({ email: z.email('Enter an email address') })
const systemSchema = z.object({ name: z.string().min(1, 'Name the system') })

/** Two steps, each its own useForm, both rendered by the wizard component. */
function TwoFormWizard({ tm, onSubmit }: { tm: Toolmark; onSubmit: (values: any) => unknown }) {
  const who = useForm({ resolver: zodResolver(whoSchema), defaultValues: { email: '' } })
  const system = useForm({ resolver: zodResolver(systemSchema), defaultValues: { name: '' } })
  const { step, setStep } = rhf.useWizardTool({
    name: 'access',
    title: 'Request access',
    description: 'The access-request wizard.',
    steps: [
      { id: 'who', title: 'Who', form: who, schema: whoSchema },
      { id: 'system', title: 'System', form: system, schema: systemSchema },
    ],
    onSubmit,
    toolmark: tm,
  })
  return step === 'who' ? (
    <form>
      <label>
        Email <input {...who.register('email')} />
      </label>
      {who.formState.errors.email && <p role="alert">{who.formState.errors.email.message}</p>}
      <button type="button" onClick={() => setStep('system')}>
        Next
      </button>
    </form>
  ) : (
    <form>
      <label>
        System <input {...system.register('name')} />
      </label>
      {system.formState.errors.name && <p role="alert">{system.formState.errors.name.message}</p>}
    </form>
  )
}

describe('useWizardTool', () => {
  it("ends StrictMode's extra mount cycle with each tool registered once", async () => {
    const tm = createToolmark()
    const { unmount } = render(
      <StrictMode>
        <TwoFormWizard tm={tm} onSubmit={() => null} />
      </StrictMode>,
    )
    await flush()

    expect(tm.manifest().tools.map((t) => t.name)).toEqual([
      'access.fill',
      'access.state',
      'access.submit',
    ])
    unmount()
    await flush()
    expect(tm.manifest().tools).toEqual([])
  })

  it('fills both forms in one call and moves to the last step when all is valid', async () => {
    const tm = createToolmark()
    render(
      <StrictMode>
        <TwoFormWizard tm={tm} onSubmit={() => null} />
      </StrictMode>,
    )
    await flush()

    const result = await call(tm, 'access.fill', {
      values: { who: { email: 'ana@example.com' }, system: { name: 'VPN' } },
    })

    expect(result).toMatchObject({ status: 'ok', data: { skipped: [] } })
    expect(screen.getByLabelText('System')).toHaveValue('VPN')
  })

  it('submits with every step’s values once all steps are valid, and shows the first invalid step', async () => {
    const tm = createToolmark()
    const onSubmit = vi.fn(() => ({ id: 3 }))
    render(
      <StrictMode>
        <TwoFormWizard tm={tm} onSubmit={onSubmit} />
      </StrictMode>,
    )
    await flush()
    await call(tm, 'access.fill', { values: { system: { name: 'VPN' } } })
    expect(screen.getByLabelText('Email')).toBeInTheDocument()

    const incomplete = await call(tm, 'access.submit', {}, 'human')

    expect(incomplete).toEqual({
      status: 'invalid',
      issues: [{ path: 'who.email', message: 'Enter an email address' }],
    })
    expect(screen.getByRole('alert')).toHaveTextContent('Enter an email address')

    await call(tm, 'access.fill', { values: { who: { email: 'ana@example.com' } } })
    const done = await call(tm, 'access.submit', {}, 'human')

    expect(done).toEqual({ status: 'ok', data: { id: 3 } })
    expect(onSubmit).toHaveBeenCalledWith({
      who: { email: 'ana@example.com' },
      system: { name: 'VPN' },
    })
  })

  it('keeps the agent’s own values its own across re-renders with new step objects', async () => {
    const tm = createToolmark()
    const register = vi.spyOn(tm, 'register')
    const { rerender } = render(
      <StrictMode>
        <TwoFormWizard tm={tm} onSubmit={() => null} />
      </StrictMode>,
    )
    await flush()
    const registrations = register.mock.calls.length
    await call(tm, 'access.fill', { values: { who: { email: 'a@example.com' } } })
    rerender(
      <StrictMode>
        <TwoFormWizard tm={tm} onSubmit={() => 'again'} />
      </StrictMode>,
    )
    await flush()

    const again = await call(tm, 'access.fill', { values: { who: { email: 'b@example.com' } } })

    expect(register.mock.calls.length).toBe(registrations)
    expect(again).toMatchObject({ data: { skipped: [] } })
  })
})

describe('useWizardTool registers again only when agents would see a change', () => {
  function InlineWizard({
    tm,
    max,
    onStepChange,
  }: {
    tm: Toolmark
    max: number
    onStepChange?: (id: string) => void
  }) {
    const who = useForm({ defaultValues: { email: '' } })
    const why = useForm({ defaultValues: { reason: '' } })
    rhf.useWizardTool({
      name: 'access',
      description: 'The access-request wizard.',
      steps: [
        // Inline schemas: a new object every render.
        { id: 'who', form: who, schema: z.object({ email: z.string() }) },
        { id: 'why', form: why, schema: z.object({ reason: z.string().max(max) }) },
      ],
      onSubmit: (values) => values,
      onStepChange,
      toolmark: tm,
    })
    return null
  }

  it('keeps its tools across re-renders with inline schemas, and registers again when a schema changes', async () => {
    const tm = createToolmark()
    const register = vi.spyOn(tm, 'register')
    const { rerender } = render(<InlineWizard tm={tm} max={10} />)
    await flush()
    const registrations = register.mock.calls.length
    expect(registrations).toBeGreaterThan(0)

    rerender(<InlineWizard tm={tm} max={10} />)
    rerender(<InlineWizard tm={tm} max={10} />)
    await flush()
    expect(register.mock.calls.length).toBe(registrations)

    rerender(<InlineWizard tm={tm} max={5} />)
    await flush()
    expect(register.mock.calls.length).toBe(registrations * 2)
    expect(
      await call(tm, 'access.fill', { values: { why: { reason: 'too long here' } } }),
    ).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'values.why.reason' }],
    })
  })

  it('tells the latest onStepChange where a fill leads', async () => {
    const tm = createToolmark()
    const first = vi.fn()
    const second = vi.fn()
    const { rerender } = render(<InlineWizard tm={tm} max={10} onStepChange={first} />)
    await flush()
    rerender(<InlineWizard tm={tm} max={10} onStepChange={second} />)
    await flush()

    await call(tm, 'access.fill', {
      values: { who: { email: 'ana@example.com' }, why: { reason: 'audit' } },
    })

    expect(first).not.toHaveBeenCalled()
    expect(second).toHaveBeenCalledWith('why')
  })
})

describe('useWizardTool options and secrets', () => {
  const loginSchema = z.object({ user: z.string(), pin: z.string() })
  const teamSchema = z.object({ team: z.string() })

  function Wizard({ tm, teams }: { tm: Toolmark; teams: string[] }) {
    const login = useForm({ defaultValues: { user: '', pin: '' } })
    const team = useForm({ defaultValues: { team: '' } })
    rhf.useWizardTool({
      name: 'join',
      description: 'Joins a team.',
      steps: [
        { id: 'login', form: login, schema: loginSchema, sensitive: ['pin'] },
        {
          id: 'team',
          form: team,
          schema: teamSchema,
          options: optionLookups({ team: () => teams.map((t) => ({ value: t, title: t })) }),
        },
      ],
      onSubmit: (values) => values,
      toolmark: tm,
    })
    return <input aria-label="User" {...login.register('user')} />
  }

  it('serves each step’s options with the latest lookup and masks each step’s secrets', async () => {
    const tm = createToolmark()
    const { rerender } = render(
      <StrictMode>
        <Wizard tm={tm} teams={['red']} />
      </StrictMode>,
    )
    await flush()
    rerender(
      <StrictMode>
        <Wizard tm={tm} teams={['blue']} />
      </StrictMode>,
    )

    const options = await call(tm, 'join.options', { field: 'team.team' })
    const filled = await call(tm, 'join.fill', { values: { login: { user: 'ana', pin: '1234' } } })
    const submitted = await call(tm, 'join.submit', {}, 'human')

    expect(options).toMatchObject({ data: { options: [{ value: 'blue', title: 'blue' }] } })
    expect(filled).toMatchObject({
      data: { changes: [{ path: 'login.pin', after: REDACTED }, { path: 'login.user' }] },
    })
    expect(submitted).toEqual({
      status: 'ok',
      data: { login: { user: 'ana', pin: REDACTED }, team: { team: '' } },
    })
    expect(screen.getByLabelText('User')).toHaveValue('ana')
  })
})

describe('useFormTool and useWizardTool with formSteps and optionLookups', () => {
  const accessSchema = z.object({ email: z.string(), manager: z.string(), reason: z.string() })
  type Access = z.infer<typeof accessSchema>

  /** Declares its steps and lookups inline, as an app would; `plain` passes them undressed. */
  function Access({ tm, plain }: { tm: Toolmark; plain?: 'steps' | 'options' }) {
    const form = useForm<Access>({
      resolver: zodResolver(accessSchema),
      defaultValues: { email: '', manager: '', reason: '' },
    })
    const declared = [
      { id: 'who', title: 'Who', fields: ['email', 'manager'] },
      { id: 'why', title: 'Why', fields: ['reason'] },
    ]
    const lookups = { manager: () => [{ value: 'u1', title: 'Ana' }] }
    const { step } = useFormTool(form, {
      name: 'access',
      description: 'The access-request wizard.',
      schema: accessSchema,
      onSubmit: (values) => values,
      steps: plain === 'steps' ? (declared as never) : formSteps(declared),
      options: plain === 'options' ? (lookups as never) : optionLookups(lookups),
      toolmark: tm,
    })
    return <p>Step: {step}</p>
  }

  /** Shows what a hook threw, as an app's error boundary would. */
  class Caught extends Component<{ children: ReactNode }, { error?: Error }> {
    override state: { error?: Error } = {}
    static getDerivedStateFromError(error: Error) {
      return { error }
    }
    override render() {
      return this.state.error ? <p role="alert">{this.state.error.message}</p> : this.props.children
    }
  }

  it('serves a form with both: lookups at the step path, the step follows the fill, inline declarations register once', async () => {
    const tm = createToolmark()
    const register = vi.spyOn(tm, 'register')
    const { rerender } = render(
      <StrictMode>
        <Access tm={tm} />
      </StrictMode>,
    )
    await flush()
    const registrations = register.mock.calls.length
    rerender(
      <StrictMode>
        <Access tm={tm} />
      </StrictMode>,
    )
    await flush()

    const found = await call(tm, 'access.options', { field: 'who.manager', query: 'a' })
    await call(tm, 'access.fill', {
      values: { who: { email: 'ana@example.com', manager: 'u1' }, why: { reason: '' } },
    })

    expect(register.mock.calls.length).toBe(registrations)
    expect(found).toEqual({
      status: 'ok',
      data: { field: 'who.manager', options: [{ value: 'u1', title: 'Ana' }], more: false },
    })
    expect(screen.getByText('Step: why')).toBeInTheDocument()
  })

  it('throws the fix in development when steps are a plain list', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const tm = createToolmark({ dev: true })

    render(
      <Caught>
        <Access tm={tm} plain="steps" />
      </Caught>,
    )
    await flush()

    expect(screen.getByRole('alert')).toHaveTextContent(
      `[toolmark] useFormTool("access"): steps must come from formSteps([...]) (import { formSteps } from '@toolmark/core/forms')`,
    )
    expect(tm.manifest().tools).toEqual([])
  })

  it('throws the fix in development when options are a plain object', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const tm = createToolmark({ dev: true })

    render(
      <Caught>
        <Access tm={tm} plain="options" />
      </Caught>,
    )
    await flush()

    expect(screen.getByRole('alert')).toHaveTextContent(
      `[toolmark] useFormTool("access"): options must come from optionLookups({ field: lookup }) (import { optionLookups } from '@toolmark/core/forms')`,
    )
    expect(tm.manifest().tools).toEqual([])
  })

  describe('in a production build', () => {
    beforeEach(() => {
      vi.stubEnv('NODE_ENV', 'production')
    })
    afterEach(() => {
      vi.unstubAllEnvs()
    })

    it('reports plain steps as invalid_form and registers nothing', async () => {
      const tm = createToolmark()
      const errors: ErrorEvent[] = []
      tm.events.on('error', (e) => errors.push(e))

      render(
        <StrictMode>
          <Access tm={tm} plain="steps" />
        </StrictMode>,
      )
      await flush()

      expect(errors[0]).toEqual({
        code: 'invalid_form',
        message: 'useFormTool("access"): plain steps',
      })
      expect(tm.manifest().tools).toEqual([])
      expect(screen.getByText('Step:')).toBeInTheDocument()
    })

    it('reports plain options as invalid_form and registers nothing', async () => {
      const tm = createToolmark()
      const errors: ErrorEvent[] = []
      tm.events.on('error', (e) => errors.push(e))

      render(<Access tm={tm} plain="options" />)
      await flush()

      expect(errors).toEqual([
        { code: 'invalid_form', message: 'useFormTool("access"): plain lookups' },
      ])
      expect(tm.manifest().tools).toEqual([])
    })

    it('reports a wizard step’s plain options as invalid_form and registers nothing', async () => {
      const tm = createToolmark()
      const errors: ErrorEvent[] = []
      tm.events.on('error', (e) => errors.push(e))
      function Join() {
        const login = useForm({ defaultValues: { user: '' } })
        const team = useForm({ defaultValues: { team: '' } })
        rhf.useWizardTool({
          name: 'join',
          description: 'Joins a team.',
          steps: [
            { id: 'login', form: login, schema: z.object({ user: z.string() }) },
            {
              id: 'team',
              form: team,
              schema: z.object({ team: z.string() }),
              options: { team: () => [] } as never,
            },
          ],
          onSubmit: (values) => values,
          toolmark: tm,
        })
        return null
      }

      render(<Join />)
      await flush()

      expect(errors).toEqual([
        { code: 'invalid_form', message: 'useWizardTool("join"): step plain lookups: team' },
      ])
      expect(tm.manifest().tools).toEqual([])
    })
  })
})

describe('useFormTool with fileFields', () => {
  const reportSchema = z.object({ title: z.string(), shot: z.any() })
  type Report = z.infer<typeof reportSchema>

  /** A bug report whose screenshot agents attach; `plain` passes the rules undressed. */
  function Report({ tm, plain }: { tm: Toolmark; plain?: boolean }) {
    const form = useForm<Report>({
      resolver: zodResolver(reportSchema),
      defaultValues: { title: '', shot: null },
    })
    const rules = { shot: { accept: 'image/*', maxBytes: 1000 } }
    useFormTool(form, {
      name: 'report',
      description: 'The bug report.',
      schema: reportSchema,
      onSubmit: (values) => values,
      files: plain ? (rules as never) : fileFields(rules),
      toolmark: tm,
    })
    return <p>Report</p>
  }

  /** Shows what a hook threw, as an app's error boundary would. */
  class Caught extends Component<{ children: ReactNode }, { error?: Error }> {
    override state: { error?: Error } = {}
    static getDerivedStateFromError(error: Error) {
      return { error }
    }
    override render() {
      return this.state.error ? <p role="alert">{this.state.error.message}</p> : this.props.children
    }
  }

  it('attaches a { ref } file to a declared field, and inline rules register once', async () => {
    const shot = new File([new Uint8Array(4)], 'shot.png', { type: 'image/png' })
    const tm = createToolmark({ files: { resolve: (ref) => (ref === 'shot' ? shot : undefined) } })
    const register = vi.spyOn(tm, 'register')
    const { rerender } = render(
      <StrictMode>
        <Report tm={tm} />
      </StrictMode>,
    )
    await flush()
    const registrations = register.mock.calls.length
    rerender(
      <StrictMode>
        <Report tm={tm} />
      </StrictMode>,
    )
    await flush()

    const filled = await call(tm, 'report.fill', { values: { shot: { ref: 'shot' } } })

    expect(register.mock.calls.length).toBe(registrations)
    expect(filled).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'shot', after: { file: { name: 'shot.png', size: 4, type: 'image/png' } } },
        ],
        skipped: [],
      },
    })
  })

  it('throws the fix in development when the rules are a plain object', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const tm = createToolmark({ dev: true })

    render(
      <Caught>
        <Report tm={tm} plain />
      </Caught>,
    )
    await flush()

    expect(screen.getByRole('alert')).toHaveTextContent(
      `[toolmark] useFormTool("report"): files must come from fileFields({...}) (import { fileFields } from '@toolmark/core/forms')`,
    )
    expect(tm.manifest().tools).toEqual([])
  })

  describe('in a production build', () => {
    beforeEach(() => {
      vi.stubEnv('NODE_ENV', 'production')
    })
    afterEach(() => {
      vi.unstubAllEnvs()
    })

    it('reports plain file rules as invalid_form and registers nothing', async () => {
      const tm = createToolmark()
      const errors: ErrorEvent[] = []
      tm.events.on('error', (e) => errors.push(e))

      render(
        <StrictMode>
          <Report tm={tm} plain />
        </StrictMode>,
      )
      await flush()

      expect(errors[0]).toEqual({
        code: 'invalid_form',
        message: 'useFormTool("report"): plain files',
      })
      expect(tm.manifest().tools).toEqual([])
    })
  })
})
