import { StrictMode, useRef } from 'react'
import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, useDomFormTool } from '@toolmark/react'
import type { UseDomFormToolResult } from '@toolmark/react'
import { useFormTool, useWizardTool } from '@toolmark/react/rhf'
import type { UseFormToolResult } from '@toolmark/react/rhf'

const schema = z.object({ title: z.string(), note: z.string() })
type Values = z.infer<typeof schema>

function TicketForm({
  onTool,
  onRender,
}: {
  onTool?: (tool: UseFormToolResult) => void
  onRender?: () => void
}) {
  onRender?.()
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { title: '', note: '' },
  })
  const tool = useFormTool(form, {
    name: 'ticket',
    description: 'The new-ticket form.',
    schema,
    onSubmit: () => null,
  })
  onTool?.(tool)
  const badge = (path: keyof Values) =>
    tool.provenance.has(path) ? (
      <>
        <span>filled by assistant</span>
        <button type="button" onClick={() => void tool.revertField(path)}>
          Revert {path}
        </button>
      </>
    ) : null
  return (
    <form>
      <label>
        Title <input {...form.register('title')} />
      </label>
      {badge('title')}
      <label>
        Note <input {...form.register('note')} />
      </label>
      {badge('note')}
    </form>
  )
}

function renderForm(props: Parameters<typeof TicketForm>[0] = {}) {
  const tm = createToolmark()
  const ids: string[] = []
  tm.events.on('result', (e) => ids.push(e.callId))
  render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <TicketForm {...props} />
      </ToolProvider>
    </StrictMode>,
  )
  return { tm, ids }
}

const flush = () => act(async () => {})
const fill = (tm: Toolmark, values: Partial<Values>, caller: 'inapp' | 'webmcp' = 'inapp') =>
  act(() => tm.call('ticket.fill', { values }, { caller }))

describe('useFormTool provenance', () => {
  it('names the fields an agent filled, with the call and caller that wrote them', async () => {
    let tool: UseFormToolResult | undefined
    const { tm, ids } = renderForm({ onTool: (t) => (tool = t) })
    await flush()
    expect(tool!.provenance.size).toBe(0)

    await fill(tm, { title: 'Printer on fire' }, 'webmcp')

    expect([...tool!.provenance.keys()]).toEqual(['title'])
    expect(tool!.provenance.get('title')).toEqual({
      callId: ids.at(-1),
      caller: 'webmcp',
      at: expect.any(Number),
    })
    expect(screen.getAllByText('filled by assistant')).toHaveLength(1)
  })

  it('stops marking a field once the person edits it', async () => {
    const user = userEvent.setup()
    const { tm } = renderForm()
    await flush()
    await fill(tm, { title: 'Printer', note: 'Third floor' })
    expect(screen.getAllByText('filled by assistant')).toHaveLength(2)

    await user.type(screen.getByLabelText('Title'), '!')

    expect(screen.getAllByText('filled by assistant')).toHaveLength(1)
    expect(screen.queryByRole('button', { name: 'Revert title' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Revert note' })).toBeInTheDocument()
  })

  it('reverts one field, keeps the rest of the fill, and the fill’s undo leaves the reverted field', async () => {
    const user = userEvent.setup()
    const { tm, ids } = renderForm()
    await flush()
    await fill(tm, { title: 'Printer', note: 'Third floor' })
    const fillId = ids.at(-1)!

    await user.click(screen.getByRole('button', { name: 'Revert title' }))

    expect(screen.getByLabelText('Title')).toHaveValue('')
    expect(screen.getByLabelText('Note')).toHaveValue('Third floor')
    expect(screen.getAllByText('filled by assistant')).toHaveLength(1)

    await user.type(screen.getByLabelText('Title'), 'Printer')
    const undone = await act(() => tm.undo(fillId))

    expect(undone).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'note', before: 'Third floor' }],
        skipped: [{ path: 'title', reason: 'reverted' }],
      },
    })
    expect(screen.getByLabelText('Title')).toHaveValue('Printer')
    expect(screen.getByLabelText('Note')).toHaveValue('')
    expect(screen.queryByText('filled by assistant')).toBeNull()
  })

  it('returns a skipped outcome for a field the person changed since', async () => {
    const user = userEvent.setup()
    let tool: UseFormToolResult | undefined
    const { tm } = renderForm({ onTool: (t) => (tool = t) })
    await flush()
    await fill(tm, { title: 'Printer' })
    await user.type(screen.getByLabelText('Title'), '!')

    const outcome = await act(() => tool!.revertField('title'))

    expect(outcome).toEqual({ status: 'skipped', path: 'title', reason: 'user_edited' })
    expect(screen.getByLabelText('Title')).toHaveValue('Printer!')
  })

  it('keeps the same provenance and revertField while nothing the agent wrote changes', async () => {
    const user = userEvent.setup()
    const tools: UseFormToolResult[] = []
    let renders = 0
    const { tm } = renderForm({ onTool: (t) => tools.push(t), onRender: () => renders++ })
    await flush()
    await fill(tm, { title: 'Printer' })
    const held = tools.at(-1)!
    const before = renders

    await user.type(screen.getByLabelText('Note'), 'abc')

    expect(tools.at(-1)!.provenance).toBe(held.provenance)
    expect(tools.at(-1)!.revertField).toBe(held.revertField)
    expect(tools.at(-1)).toBe(held)
    // Typing into a field the agent did not write re-renders nothing through provenance.
    expect(renders).toBe(before)
  })
})

function DomForm({ onTool }: { onTool: (tool: UseDomFormToolResult) => void }) {
  const ref = useRef<HTMLFormElement>(null)
  onTool(useDomFormTool(ref, { name: 'contact', description: 'The contact form.' }))
  return (
    <form ref={ref}>
      <label>
        Email <input name="email" type="email" />
      </label>
      <label>
        Message <textarea name="message" />
      </label>
    </form>
  )
}

describe('useDomFormTool provenance', () => {
  it('names the fields an agent filled, drops one the person types into, and reverts another', async () => {
    const user = userEvent.setup()
    const tm = createToolmark()
    let tool: UseDomFormToolResult | undefined
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <DomForm onTool={(t) => (tool = t)} />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    await act(() =>
      tm.call('contact.fill', { values: { email: 'ana@example.com', message: 'Hello' } }),
    )
    expect([...tool!.provenance.keys()].sort()).toEqual(['email', 'message'])

    await user.type(screen.getByLabelText('Message'), '!')
    expect([...tool!.provenance.keys()]).toEqual(['email'])

    const outcome = await act(() => tool!.revertField('email'))
    expect(outcome).toMatchObject({ status: 'reverted', path: 'email' })
    expect(screen.getByLabelText('Email')).toHaveValue('')
    expect(tool!.provenance.size).toBe(0)
  })
})

describe('the submit confirmation', () => {
  it('marks the fields an agent filled, and not the ones the person typed', async () => {
    const user = userEvent.setup()
    const tm = createToolmark({ confirm: { inapp: 'deferred' } })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <TicketForm />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    await fill(tm, { title: 'Printer' })
    await user.type(screen.getByLabelText('Note'), 'Mine')

    await act(() => tm.call('ticket.submit', {}, { caller: 'inapp' }))

    const dialog = await screen.findByRole('alertdialog')
    const rows = within(dialog).getAllByRole('row')
    const title = rows.find((r) => within(r).queryByRole('rowheader', { name: /Title/ }))!
    const note = rows.find((r) => within(r).queryByRole('rowheader', { name: /Note/ }))!
    expect(within(title).getByText('Filled by assistant')).toBeInTheDocument()
    expect(within(note).queryByText('Filled by assistant')).toBeNull()
  })
})

describe('useWizardTool provenance', () => {
  const whoSchema = z.object({ email: z.string() })
  const whySchema = z.object({ reason: z.string() })

  function Wizard({ onTool }: { onTool: (tool: UseFormToolResult) => void }) {
    const who = useForm({ resolver: zodResolver(whoSchema), defaultValues: { email: '' } })
    const why = useForm({ resolver: zodResolver(whySchema), defaultValues: { reason: '' } })
    onTool(
      useWizardTool({
        name: 'access',
        description: 'The access-request wizard.',
        steps: [
          { id: 'who', form: who, schema: whoSchema },
          { id: 'why', form: why, schema: whySchema },
        ],
        onSubmit: (values) => values,
      }),
    )
    return (
      <form>
        <label>
          Email <input {...who.register('email')} />
        </label>
        <label>
          Reason <input {...why.register('reason')} />
        </label>
      </form>
    )
  }

  it('keys fields by step id and follows the person’s edits in each step’s form', async () => {
    const user = userEvent.setup()
    const tm = createToolmark()
    let tool: UseFormToolResult | undefined
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Wizard onTool={(t) => (tool = t)} />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    await act(() =>
      tm.call('access.fill', {
        values: { who: { email: 'ana@example.com' }, why: { reason: 'Audit' } },
      }),
    )
    expect([...tool!.provenance.keys()].sort()).toEqual(['who.email', 'why.reason'])

    await user.type(screen.getByLabelText('Reason'), '!')
    expect([...tool!.provenance.keys()]).toEqual(['who.email'])

    expect(await act(() => tool!.revertField('who.email'))).toMatchObject({ status: 'reverted' })
    expect(screen.getByLabelText('Email')).toHaveValue('')
    expect(tool!.provenance.size).toBe(0)
  })
})
