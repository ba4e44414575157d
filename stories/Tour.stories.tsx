import { StrictMode, useState } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { Controls, Description, Primary, Title } from '@storybook/addon-docs/blocks'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import type { TourMode, TourStep } from '@toolmark/core/tour'
import { ConfirmDialog, ToolProvider, useTool, useToolAnchor } from '@toolmark/react'
import { useFormTool } from '@toolmark/react/rhf'
import { TourOverlay, useTour, type TourOverlayProps } from '@toolmark/react/tour'
import { ready } from './toolReady'

const ticketSchema = z.object({
  title: z.string().min(3, 'Give the ticket a title of 3 characters or more'),
  priority: z.enum(['low', 'normal', 'high']),
})
type TicketValues = z.infer<typeof ticketSchema>

const row = { display: 'grid', gap: 4 } as const

/** The steps of each mode: tools and fields of the page below, never CSS selectors. */
const STEPS: Record<TourMode, TourStep[]> = {
  show: [
    { tool: 'tickets.find', title: 'Find a ticket', text: 'Search the open tickets first.' },
    {
      tool: 'ticket.fill',
      field: 'title',
      title: 'Title',
      text: 'Say what broke, in a few words.',
    },
    { tool: 'ticket.submit', title: 'Create', text: 'Sends the ticket to the help desk.' },
  ],
  guide: [
    { tool: 'tickets.find', title: 'Find a ticket', text: 'Click Search to see the open ones.' },
    {
      tool: 'ticket.fill',
      field: 'title',
      title: 'Title',
      text: 'Say what broke, in a few words.',
    },
  ],
  do: [
    {
      tool: 'ticket.fill',
      field: 'title',
      title: 'Title',
      text: 'Writing what broke.',
      value: 'Printer on floor 2 is jammed',
    },
    {
      tool: 'ticket.fill',
      field: 'priority',
      title: 'Priority',
      text: 'It is urgent.',
      value: 'high',
    },
    { tool: 'ticket.submit', title: 'Create', text: 'Creating the ticket, once you approve.' },
  ],
}

/** A small help desk: a search, a new-ticket form, and a button that starts the tour. */
function HelpDesk({ mode }: { mode: TourMode }) {
  const [found, setFound] = useState<number | null>(null)
  const [created, setCreated] = useState<string | null>(null)
  const { start } = useTour()
  const find = useTool({
    name: 'tickets.find',
    title: 'Find tickets',
    description: 'Lists the open tickets.',
    hints: { readOnly: true },
    input: z.object({}),
    run: () => (setFound(3), ok({ count: 3 })),
  })
  const searchAnchor = useToolAnchor<HTMLButtonElement>('tickets.find')
  const form = useForm<TicketValues>({
    resolver: zodResolver(ticketSchema),
    defaultValues: { title: '', priority: 'normal' },
  })
  const save = (values: TicketValues) => {
    setCreated(values.title)
    return { id: 7 }
  }
  useFormTool(form, {
    name: 'ticket',
    title: 'Create ticket',
    description: 'The new-ticket form.',
    schema: ticketSchema,
    onSubmit: save,
    submitSummary: (values) => `Create the ticket “${values.title}”`,
  })
  return (
    <main style={{ fontFamily: 'system-ui', display: 'grid', gap: 16, maxInlineSize: 420 }}>
      <h1 style={{ fontSize: 18, margin: 0 }}>Help desk</h1>
      <button type="button" onClick={() => start({ mode, steps: STEPS[mode], pauseMs: 300 })}>
        Show me how
      </button>
      <section aria-label="Search" style={row}>
        <button type="button" ref={searchAnchor} onClick={() => void find.call({})}>
          Search
        </button>
        {found !== null && <p>{found} open tickets</p>}
      </section>
      <form onSubmit={form.handleSubmit(save)} style={{ display: 'grid', gap: 12 }}>
        <label style={row}>
          Title
          <input {...form.register('title')} />
        </label>
        <label style={row}>
          Priority
          <select {...form.register('priority')}>
            <option value="low">Low</option>
            <option value="normal">Normal</option>
            <option value="high">High</option>
          </select>
        </label>
        <button type="submit">Create</button>
      </form>
      {created !== null && <p role="status">Ticket “{created}” created</p>}
    </main>
  )
}

/** The overlay's props, plus the mode of the tour the page's button starts. */
type StoryArgs = TourOverlayProps & { mode: TourMode }

/**
 * The docs page: one live tour. One frame only: each step takes the focus, and a page of frames
 * would fight over it.
 */
function TourDocs() {
  return (
    <>
      <Title />
      <Description />
      <Primary />
      <Controls />
    </>
  )
}

const meta = {
  title: 'Tour',
  component: TourOverlay,
  parameters: {
    layout: 'padded',
    // A tour is fixed to the window: each story in a frame of its own, on the docs page too.
    docs: { story: { inline: false, iframeHeight: 560 }, page: TourDocs },
  },
  args: { mode: 'show' },
  loaders: [() => ({ tm: createToolmark() })],
  render: ({ mode, ...props }, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <HelpDesk mode={mode} />
        <TourOverlay {...props} />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>
  ),
} satisfies Meta<StoryArgs>

export default meta
type Story = StoryObj<typeof meta>

/**
 * `show`: the tour points at each step in turn and the person moves on with Next (Done on the
 * last step) or Back. Ends on its last step.
 */
export const Show: Story = {
  args: { mode: 'show' },
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm, 'ticket.fill')

    await userEvent.click(canvas.getByRole('button', { name: 'Show me how' }))

    const panel = await canvas.findByRole('dialog', { name: 'Find a ticket' })
    await expect(panel).toHaveAccessibleDescription('Search the open tickets first.')
    await expect(panel).toHaveTextContent('Step 1 of 3')
    await expect(
      within(panel).getByText('Search the open tickets first.').closest('p'),
    ).toHaveFocus()
    await expect(within(panel).getByRole('button', { name: 'Back' })).toBeDisabled()

    await userEvent.click(within(panel).getByRole('button', { name: 'Next' }))
    await expect(panel).toHaveAccessibleName('Title')
    await userEvent.click(within(panel).getByRole('button', { name: 'Back' }))
    await expect(panel).toHaveAccessibleName('Find a ticket')
    await userEvent.click(within(panel).getByRole('button', { name: 'Next' }))
    await userEvent.click(within(panel).getByRole('button', { name: 'Next' }))

    await expect(panel).toHaveAccessibleName('Create')
    await expect(panel).toHaveTextContent('Step 3 of 3')
    await expect(within(panel).getByRole('button', { name: 'Done' })).toBeVisible()
  },
}

/**
 * `guide`: the tour waits for the person at each step. Searching (the tool's own button, a call
 * as `human`) finishes the first step; the title step waits until the field holds a title the
 * form's schema accepts, and says what is wrong as the person types. The play function's events
 * are scripted, not a person's, so it stops there and skips; a person typing moves it on. Ends
 * back on the page, the tour skipped through.
 */
export const Guide: Story = {
  args: { mode: 'guide' },
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm, 'ticket.fill')
    const start = canvas.getByRole('button', { name: 'Show me how' })
    await userEvent.click(start)

    const panel = await canvas.findByRole('dialog', { name: 'Find a ticket' })
    await expect(within(panel).queryByRole('button', { name: 'Next' })).toBeNull()

    await userEvent.click(canvas.getByRole('button', { name: 'Search' }))

    await waitFor(() => expect(panel).toHaveAccessibleName('Title'))
    await expect(panel).toHaveTextContent('Step 2 of 2')
    await expect(canvas.getByText('3 open tickets')).toBeVisible()

    await userEvent.click(within(panel).getByRole('button', { name: 'Skip' }))

    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull())
    await expect(start).toHaveFocus()
  },
}

/**
 * `do`: the tour does each step itself as caller `tour` while the person watches: it fills the
 * form, then asks before it creates the ticket, in `<ConfirmDialog>` on top of the tour. The
 * person approves and the tour goes on. Ends with the ticket created.
 */
export const Do: Story = {
  args: { mode: 'do' },
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm, 'ticket.fill')
    await userEvent.click(canvas.getByRole('button', { name: 'Show me how' }))

    const panel = await canvas.findByRole('dialog', { name: 'Title' })
    await expect(within(panel).getByRole('status')).toHaveTextContent('Doing it…')
    await expect(
      within(panel)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Stop tour'])

    const dialog = await canvas.findByRole(
      'alertdialog',
      { name: 'Create ticket' },
      { timeout: 5000 },
    )
    await expect(dialog).toHaveTextContent('Requested by Tour')
    await expect(within(panel).getByRole('status')).toHaveTextContent('Waiting for your approval')
    await expect(canvas.getByRole('textbox', { name: 'Title' })).toHaveValue(
      'Printer on floor 2 is jammed',
    )

    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))

    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull())
    await expect(canvas.getByRole('status')).toHaveTextContent(
      'Ticket “Printer on floor 2 is jammed” created',
    )
  },
}
