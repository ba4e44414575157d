import { StrictMode } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'
import { useFormTool } from '@toolmark/react/rhf'
import type { UseFormToolResult } from '@toolmark/react/rhf'
import { fitWidth } from './fitWidth'

const schema = z.object({
  title: z.string().min(1, 'Give the ticket a title'),
  priority: z.enum(['low', 'normal', 'high']),
  description: z.string(),
})
type Values = z.infer<typeof schema>

const row = { display: 'grid', gap: 4 } as const
const badge = {
  display: 'inline-block',
  paddingInline: 8,
  borderRadius: 999,
  border: '1px solid #c7d2fe',
  background: '#eef0ff',
  color: '#4338ca',
  fontSize: 12,
} as const

/** "filled by assistant" and a revert control, while the field holds the agent's value. */
function Filled({ tool, path }: { tool: UseFormToolResult; path: keyof Values }) {
  const by = tool.provenance.get(path)
  if (!by) return null
  return (
    <span style={{ display: 'flex', gap: 8, alignItems: 'center' }} data-agent-filled={path}>
      <span id={`${path}-agent`} style={badge}>
        filled by assistant
      </span>
      <button
        type="button"
        aria-label="Revert to the value before the assistant"
        aria-describedby={`${path}-agent`}
        onClick={() => void tool.revertField(path)}
      >
        Revert
      </button>
    </span>
  )
}

/** A new-ticket form that marks the fields an agent wrote. */
function TicketForm() {
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { title: '', priority: 'normal', description: '' },
  })
  const tool = useFormTool(form, {
    name: 'ticket',
    title: 'Create ticket',
    description: 'The new-ticket form of the help desk.',
    schema,
    onSubmit: (values) => ({ title: values.title }),
  })
  return (
    <form
      style={{ fontFamily: 'system-ui', display: 'grid', gap: 12, minInlineSize: fitWidth(420) }}
    >
      <h1 style={{ fontSize: 18, margin: 0 }}>New ticket</h1>
      <label style={row}>
        Title
        <input {...form.register('title')} />
      </label>
      <Filled tool={tool} path="title" />
      <label style={row}>
        Priority
        <select {...form.register('priority')}>
          <option value="low">Low</option>
          <option value="normal">Normal</option>
          <option value="high">High</option>
        </select>
      </label>
      <Filled tool={tool} path="priority" />
      <label style={row}>
        Description
        <textarea {...form.register('description')} />
      </label>
      <Filled tool={tool} path="description" />
    </form>
  )
}

const meta = {
  title: 'Forms/What the agent wrote',
  parameters: { layout: 'padded' },
  loaders: [() => ({ tm: createToolmark({ confirm: { inapp: 'deferred' } }) })],
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

const ready = (tm: Toolmark) => waitFor(() => expect(tm.describe('ticket.fill')).toBeDefined())
const marks = (root: HTMLElement) => root.querySelectorAll('[data-agent-filled]')

/** The agent fills two fields: each shows "filled by assistant" with a revert control. */
export const AgentFilledBadges: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm)

    await tm.call(
      'ticket.fill',
      { values: { title: 'Printer jams on floor 3', priority: 'high' } },
      { caller: 'inapp' },
    )

    await waitFor(() => expect(marks(canvasElement)).toHaveLength(2))
    await expect(canvas.getAllByText('filled by assistant')).toHaveLength(2)
    await expect(
      canvas.getAllByRole('button', { name: 'Revert to the value before the assistant' }),
    ).toHaveLength(2)
  },
}

/** Reverting the title puts back what it held; the agent's priority stays, still marked. */
export const RevertOneField: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm)
    await tm.call(
      'ticket.fill',
      { values: { title: 'Printer jams on floor 3', priority: 'high' } },
      { caller: 'inapp' },
    )
    await waitFor(() => expect(marks(canvasElement)).toHaveLength(2))

    const title = canvasElement.querySelector('[data-agent-filled="title"]') as HTMLElement
    await userEvent.click(within(title).getByRole('button'))

    await waitFor(() => expect(canvas.getByLabelText('Title')).toHaveValue(''))
    await expect(canvas.getByLabelText('Priority')).toHaveValue('high')
    await waitFor(() => expect(marks(canvasElement)).toHaveLength(1))
  },
}

/** The person edits a field the agent filled: it is theirs now, and its mark goes. */
export const EditedByPerson: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm)
    await tm.call(
      'ticket.fill',
      { values: { title: 'Printer jams', description: 'Since Monday' } },
      { caller: 'inapp' },
    )
    await waitFor(() => expect(marks(canvasElement)).toHaveLength(2))

    await userEvent.type(canvas.getByLabelText('Title'), ' on floor 3')

    await waitFor(() => expect(marks(canvasElement)).toHaveLength(1))
    await expect(canvasElement.querySelector('[data-agent-filled="description"]')).not.toBeNull()
  },
}

/** The submit confirmation marks the fields the agent filled ("Filled by assistant"). */
export const SubmitMarksAgentFields: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm)
    await tm.call('ticket.fill', { values: { title: 'Printer jams' } }, { caller: 'inapp' })
    await userEvent.type(canvas.getByLabelText('Description'), 'Mine')

    await tm.call('ticket.submit', {}, { caller: 'inapp' })

    const dialog = within(await canvas.findByRole('alertdialog'))
    const rows = dialog.getAllByRole('row')
    const titleRow = rows.find((r) => within(r).queryByRole('rowheader', { name: /Title/ }))!
    const descriptionRow = rows.find((r) =>
      within(r).queryByRole('rowheader', { name: /Description/ }),
    )!
    await expect(within(titleRow).getByText('Filled by assistant')).toBeInTheDocument()
    await expect(within(descriptionRow).queryByText('Filled by assistant')).toBeNull()
  },
}
