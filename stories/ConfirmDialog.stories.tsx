import { StrictMode, useEffect, useState } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { Controls, Description, Markdown, Primary, Title } from '@storybook/addon-docs/blocks'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { z } from 'zod'
import { createToolmark, errorResult, invalid, ok, questions } from '@toolmark/core'
import type { ConfirmEvent, QuestionAnswer, Toolmark } from '@toolmark/core'
import {
  ConfirmDialog,
  ToolProvider,
  questionForm,
  useTool,
  useToolmark,
  type ConfirmDialogProps,
} from '@toolmark/react'
import { fitWidth } from './fitWidth'

interface Ticket {
  id: number
  title: string
  priority: 'low' | 'normal' | 'high'
  assignee: string
  status: 'open' | 'closed'
}

const initialTickets: Ticket[] = [
  {
    id: 41,
    title: 'Printer on floor 2 is jammed',
    priority: 'normal',
    assignee: 'Ana',
    status: 'open',
  },
  { id: 42, title: 'VPN drops every hour', priority: 'high', assignee: 'Ben', status: 'open' },
  { id: 43, title: 'New laptop for Chloé', priority: 'low', assignee: 'Ana', status: 'open' },
]

/** The new-ticket form as the person left it: title and priority edited, the rest defaults. */
const draft = {
  title: 'Badge reader at the door is dead',
  priority: 'high' as const,
  assignee: 'Ana',
  requester: { email: 'chloe@example.com' },
}

/** A small help desk: a ticket list, and the tools an agent uses on it. */
function HelpDesk({ failure }: { failure?: string }) {
  const [tickets, setTickets] = useState(initialTickets)
  const [passwordChanged, setPasswordChanged] = useState(false)
  const [refunded, setRefunded] = useState(0)
  const find = (id: number) => tickets.find((t) => t.id === id)

  useTool({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Closes an open ticket by id and notifies the requester.',
    hints: { consequential: true },
    input: z.object({ id: z.number().int() }),
    summary: ({ id }) =>
      `Close #${id} “${find(id)?.title ?? 'unknown ticket'}” and notify the requester`,
    run: ({ id }) => {
      if (failure) return errorResult(failure)
      if (!find(id)) return invalid([{ path: 'id', message: `There is no ticket #${id}` }])
      setTickets((list) => list.map((t) => (t.id === id ? { ...t, status: 'closed' } : t)))
      return ok({ id, status: 'closed' })
    },
  })

  useTool({
    name: 'tickets.delete',
    title: 'Delete ticket',
    description: 'Deletes a ticket for good.',
    hints: { destructive: true },
    input: z.object({ id: z.number().int() }),
    summary: ({ id }) => `Delete #${id} “${find(id)?.title ?? 'unknown ticket'}” for good`,
    run: ({ id }) => {
      setTickets((list) => list.filter((t) => t.id !== id))
      return ok({ id, deleted: true })
    },
  })

  useTool({
    name: 'tickets.update',
    title: 'Update ticket',
    description: 'Changes the priority and/or assignee of a ticket.',
    hints: { consequential: true },
    input: z.object({
      id: z.number().int(),
      priority: z.enum(['low', 'normal', 'high']).optional(),
      assignee: z.string().optional(),
    }),
    summary: ({ id }) => `Update ticket #${id}`,
    confirmation: ({ id, priority, assignee }) => {
      const ticket = find(id)
      const changes = []
      if (priority !== undefined)
        changes.push({ path: 'priority', before: ticket?.priority, after: priority })
      if (assignee !== undefined)
        changes.push({ path: 'assignee', before: ticket?.assignee, after: assignee })
      return { changes }
    },
    run: ({ id, priority, assignee }) => {
      setTickets((list) =>
        list.map((t) =>
          t.id === id
            ? { ...t, priority: priority ?? t.priority, assignee: assignee ?? t.assignee }
            : t,
        ),
      )
      return ok({ id })
    },
  })

  useTool({
    name: 'account.setPassword',
    title: 'Change the support account password',
    description: 'Sets a new password for the shared support account.',
    hints: { consequential: true },
    input: z.object({ password: z.string().min(8) }),
    sensitive: ['password'],
    summary: () => 'Change the password of support@example.com',
    confirmation: ({ password }) => ({
      changes: [{ path: 'password', before: 'old-password', after: password }],
    }),
    run: () => {
      setPasswordChanged(true)
      return ok({ changed: true })
    },
  })

  useTool({
    name: 'billing.refund',
    title: 'Refund a customer',
    description: 'Sends a refund to a bank account.',
    hints: { consequential: true },
    input: z.object({
      amount: z.number().positive(),
      iban: z.string(),
      reason: z.string(),
      approvalPin: z.string(),
    }),
    sensitive: ['approvalPin'],
    // No summary: the dialog shows the input itself, field by field.
    confirmation: () => ({ labels: { iban: 'Bank account (IBAN)' } }),
    run: ({ amount }) => {
      setRefunded((total) => total + amount)
      return ok({ refunded: amount })
    },
  })

  useTool({
    name: 'tickets.create',
    title: 'Create ticket',
    description: 'Submits the new-ticket form as it is filled in.',
    hints: { consequential: true },
    // A form's submit: the whole submission, its labels, and what differs from the defaults.
    confirmation: () => ({
      summary: 'Submit the new ticket form',
      input: draft,
      changes: [
        { path: 'title', before: '', after: draft.title },
        { path: 'priority', before: 'normal', after: draft.priority },
        { path: 'status', before: 'draft', after: 'open' },
      ],
      labels: {
        title: 'Title',
        priority: 'Priority',
        assignee: 'Assignee',
        'requester.email': 'Requester email',
        status: 'Status',
      },
    }),
    run: () => {
      setTickets((list) => [...list, { id: 44, ...draft, status: 'open' }])
      return ok({ id: 44 })
    },
  })

  return (
    <main style={{ fontFamily: 'system-ui', minInlineSize: fitWidth(420) }}>
      <h1 style={{ fontSize: 18 }}>Help desk</h1>
      <ul aria-label="Tickets">
        {tickets.map((t) => (
          <li key={t.id}>
            #{t.id} {t.title} · {t.priority} · {t.assignee} · {t.status}
          </li>
        ))}
      </ul>
      <p>{passwordChanged ? 'Password changed' : 'Password unchanged'}</p>
      <p>{`Refunded: ${refunded} €`}</p>
      <Answers />
    </main>
  )
}

const ANSWERS: Record<string, string> = {
  approved: 'approved',
  rejected: 'denied',
  expired: 'expired',
}

/** What the person answered so far, from the registry's `confirm` events. */
function Answers() {
  const tm = useToolmark()
  const [answers, setAnswers] = useState<string[]>([])
  useEffect(
    () =>
      tm.events.on('confirm', (event) => {
        if (event.status === 'pending') return
        const what = event.entry.title ?? event.entry.tool
        setAnswers((list) => [...list, `${what}: ${ANSWERS[event.status] ?? event.status}`])
      }),
    [tm],
  )
  return (
    <>
      <h2 style={{ fontSize: 15 }}>Answers</h2>
      <ul aria-label="Answers">
        {answers.length === 0 ? <li>None yet</li> : null}
        {answers.map((answer, index) => (
          <li key={index}>{answer}</li>
        ))}
      </ul>
    </>
  )
}

const STATES = [
  'Approved',
  'Denied',
  'With Changes',
  'Redacted',
  'Review List',
  'Review Some Approved',
  'Review Withdrawn Row',
  'Review Denied All',
  'Destructive',
  'Inline From Browser Agent',
  'Inline Approved',
  'Expired',
  'Error Outcome',
  'Keyboard Only',
  'Keyboard Approved',
  'Input Without Summary',
  'Whole Submission',
  'Custom Actions',
  'Question',
  'Question Invalid',
  'Question Answered',
  'Question Without Form',
]

/**
 * The docs page: the component's description, one live request, the props. One frame only: a
 * modal dialog takes the focus, and a page of frames would fight over it.
 */
function ConfirmDialogDocs() {
  return (
    <>
      <Title />
      <Description />
      <Primary />
      <Markdown>
        {`Every other state is a story of its own in the sidebar, ending on screen in the state it names: ${STATES.join(', ')}.`}
      </Markdown>
      <Controls />
    </>
  )
}

/** Resolves with the next terminal `confirm` event (the outcome a deferred caller gets later). */
function nextOutcome(tm: Toolmark) {
  return new Promise<ConfirmEvent>((resolve) => {
    const off = tm.events.on('confirm', (event) => {
      if (event.status === 'pending') return
      off()
      resolve(event)
    })
  })
}

/** The dialog's props, plus what a story changes about the app around it. */
type StoryArgs = ConfirmDialogProps & {
  /** Makes `tickets.close` fail with this message. */
  failure?: string
  /** A short confirmation expiry for the registry. */
  expiryMs?: number
  /** Gives the registry `questions({ form: questionForm })`, the form questions are answered with. */
  asks?: boolean
}

const meta = {
  title: 'ConfirmDialog',
  component: ConfirmDialog,
  parameters: {
    layout: 'padded',
    // The docs page plays the first story in a frame of its own, so the dialog is on screen (a
    // modal dialog in a frame does not cover the page); every other state is its own story.
    docs: { story: { inline: false, iframeHeight: 600 }, page: ConfirmDialogDocs },
  },
  loaders: [
    (context) => ({
      tm: createToolmark({
        limits: context.args.expiryMs ? { confirmationExpiryMs: context.args.expiryMs } : {},
        // Runs may ask; the form comes with the registry where the story's app asks.
        confirm: { questions: questions(context.args.asks ? { form: questionForm } : {}) },
      }),
    }),
  ],
  render: ({ failure, expiryMs: _expiryMs, asks: _asks, ...props }, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <HelpDesk failure={failure} />
        <ConfirmDialog {...props} />
      </ToolProvider>
    </StrictMode>
  ),
} satisfies Meta<StoryArgs>

export default meta
type Story = StoryObj<typeof meta>

const answers = (canvasElement: HTMLElement) =>
  within(canvasElement).getByRole('list', { name: 'Answers' })

/** The assistant asks to close one ticket: the dialog says who asks, what and until when. */
export const Single: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())

    const asked = await tm.call('tickets.close', { id: 42 }, { caller: 'inapp' })
    await expect(asked.status).toBe('needs_confirmation')

    const dialog = await canvas.findByRole('alertdialog', { name: 'Close ticket' })
    await expect(dialog).toHaveTextContent('Requested by Assistant')
    await expect(dialog).toHaveAccessibleDescription(
      'Close #42 “VPN drops every hour” and notify the requester',
    )
    await expect(dialog).toHaveTextContent('Expires in 10:00')
    await expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()
    // Nothing happens until the person answers.
    await expect(canvas.getByRole('list', { name: 'Tickets' })).not.toHaveTextContent('closed')
  },
}

/** The person approves: the tool runs, the dialog closes, the ticket is closed. */
export const Approved: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())
    const outcome = nextOutcome(tm)
    await tm.call('tickets.close', { id: 42 }, { caller: 'inapp' })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Close ticket' })

    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))

    await expect((await outcome).result).toEqual({
      status: 'ok',
      data: { id: 42, status: 'closed' },
    })
    await waitFor(() => expect(canvas.queryByRole('alertdialog')).toBeNull())
    await expect(canvas.getByRole('list', { name: 'Tickets' })).toHaveTextContent(
      '#42 VPN drops every hour · high · Ben · closed',
    )
    await expect(answers(canvasElement)).toHaveTextContent('Close ticket: approved')
  },
}

/** The person denies: the call ends `cancelled` by the operator and nothing changes. */
export const Denied: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())
    const outcome = nextOutcome(tm)
    await tm.call('tickets.close', { id: 42 }, { caller: 'inapp' })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Close ticket' })

    await userEvent.click(within(dialog).getByRole('button', { name: 'Deny' }))

    await expect((await outcome).result).toEqual({ status: 'cancelled', by: 'operator' })
    await waitFor(() => expect(canvas.queryByRole('alertdialog')).toBeNull())
    await expect(canvas.getByRole('list', { name: 'Tickets' })).not.toHaveTextContent('closed')
    await expect(answers(canvasElement)).toHaveTextContent('Close ticket: denied')
  },
}

/** Every value the call sends, the changed ones marked with their value before and after. */
export const WithChanges: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.update')).toBeDefined())

    await tm.call(
      'tickets.update',
      { id: 41, priority: 'high', assignee: 'Dev' },
      { caller: 'inapp' },
    )

    const dialog = await canvas.findByRole('alertdialog', { name: 'Update ticket' })
    // The id is sent too and no change shows it: every value is listed, the changed ones marked.
    const rows = within(within(dialog).getByRole('table', { name: 'Values' })).getAllByRole('row')
    await expect(rows.map((row) => row.textContent)).toEqual([
      'FieldValue',
      'Id41',
      'Priority ChangedBefore: normal After: high',
      'Assignee ChangedBefore: Ana After: Dev',
    ])
    await expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()
  },
}

/** Secrets are masked in the change table: the person sees that a password changes, not which. */
export const Redacted: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('account.setPassword')).toBeDefined())

    await tm.call('account.setPassword', { password: 'correct horse battery' }, { caller: 'inapp' })

    const dialog = await canvas.findByRole('alertdialog', {
      name: 'Change the support account password',
    })
    const table = within(dialog).getByRole('table', { name: 'Changes' })
    await expect(table).not.toHaveTextContent('correct horse battery')
    await expect(table).not.toHaveTextContent('old-password')
    await expect(within(table).getAllByText('••••••')).toHaveLength(2)
    await expect(within(table).getAllByText('hidden')).toHaveLength(2)
  },
}

/**
 * Three requests of the assistant wait at once: one review list, a checkbox per row (ticked, as
 * every row is on screen), each row's values, Deny all and Approve selected (3). No blind
 * "Approve all", no pages.
 */
export const ReviewList: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())

    for (const id of [41, 42, 43]) await tm.call('tickets.close', { id }, { caller: 'inapp' })

    const dialog = await canvas.findByRole('alertdialog', { name: 'Review 3 requests' })
    await expect(dialog).toHaveTextContent('Requested by Assistant')
    await expect(within(dialog).getAllByRole('checkbox')).toHaveLength(3)
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Approve selected (3)' })).toBeEnabled(),
    )
    await expect(within(dialog).getByRole('button', { name: 'Deny all' })).toHaveFocus()
    await expect(within(dialog).queryByRole('button', { name: 'Approve all' })).toBeNull()
  },
}

/**
 * The person unticks one row and approves the other two: they run one after another, in queue
 * order; the unticked request keeps waiting, now alone in the dialog.
 */
export const ReviewSomeApproved: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())
    for (const id of [41, 42, 43]) await tm.call('tickets.close', { id }, { caller: 'inapp' })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Review 3 requests' })

    await userEvent.click(within(dialog).getByRole('checkbox', { name: /#42/ }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve selected (2)' }))

    const left = await canvas.findByRole('alertdialog', { name: 'Close ticket' })
    await expect(left).toHaveAccessibleDescription(/#42/)
    await expect(answers(canvasElement)).toHaveTextContent('Close ticket: approved')
    await expect(tm.confirmations.list()).toHaveLength(1)
  },
}

/**
 * While the person reads, the app takes one tool away from the assistant: that row stays in the
 * list, marked withdrawn, and cannot be ticked; the rest can still be approved.
 */
export const ReviewWithdrawnRow: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.delete')).toBeDefined())
    await tm.call('tickets.close', { id: 41 }, { caller: 'inapp' })
    await tm.call('tickets.delete', { id: 43 }, { caller: 'inapp' })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Review 2 requests' })

    tm.setPolicy({ inapp: { tools: { deny: ['tickets.delete'] } } })

    const withdrawn = await within(dialog).findByRole('checkbox', { name: /#43/ })
    await waitFor(() => expect(withdrawn).toBeDisabled())
    await expect(withdrawn).toHaveAccessibleDescription('This request was withdrawn')
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Approve selected (1)' })).toBeEnabled(),
    )
  },
}

/** A review list denied at once: every call ends `cancelled`, no ticket changes. */
export const ReviewDeniedAll: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())
    for (const id of [41, 42, 43]) await tm.call('tickets.close', { id }, { caller: 'inapp' })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Review 3 requests' })

    await userEvent.click(within(dialog).getByRole('button', { name: 'Deny all' }))

    await waitFor(() => expect(canvas.queryByRole('alertdialog')).toBeNull())
    await expect(tm.confirmations.list()).toEqual([])
    await expect(canvas.getByRole('list', { name: 'Tickets' })).not.toHaveTextContent('closed')
    await expect(within(answers(canvasElement)).getAllByRole('listitem')).toHaveLength(3)
    await expect(answers(canvasElement)).toHaveTextContent('Close ticket: denied')
  },
}

/** A destructive request looks like one: a danger edge, and the button says what it does. */
export const Destructive: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.delete')).toBeDefined())

    await tm.call('tickets.delete', { id: 43 }, { caller: 'inapp' })

    const dialog = await canvas.findByRole('alertdialog', { name: 'Delete ticket' })
    await expect(dialog).toHaveAttribute('data-tone', 'danger')
    await expect(dialog).toHaveAccessibleDescription('Delete #43 “New laptop for Chloé” for good')
    const remove = within(dialog).getByRole('button', { name: 'Delete ticket' })
    await expect(remove).toHaveAttribute('data-variant', 'danger')
    await expect(within(dialog).queryByRole('button', { name: 'Approve' })).toBeNull()
    // The safe answer still has the focus.
    await expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()
  },
}

/** A browser agent (WebMCP) waits in the page for the answer: its call is still open. */
export const InlineFromBrowserAgent: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() =>
      expect(tm.manifest({ caller: 'webmcp' }).tools.map((t) => t.name)).toContain('tickets.close'),
    )

    let settled = false
    void tm.call('tickets.close', { id: 43 }, { caller: 'webmcp' }).then(() => (settled = true))

    const dialog = await canvas.findByRole('alertdialog', { name: 'Close ticket' })
    await expect(dialog).toHaveTextContent('Requested by Browser agent')
    await expect(tm.confirmations.list()[0]).toMatchObject({ caller: 'webmcp', mode: 'inline' })
    await expect(settled).toBe(false)
  },
}

/** Approved inline: the browser agent receives the tool's final result. */
export const InlineApproved: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() =>
      expect(tm.manifest({ caller: 'webmcp' }).tools.map((t) => t.name)).toContain('tickets.close'),
    )
    const call = tm.call('tickets.close', { id: 43 }, { caller: 'webmcp' })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Close ticket' })

    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))

    await expect(await call).toEqual({ status: 'ok', data: { id: 43, status: 'closed' } })
    await waitFor(() => expect(canvas.queryByRole('alertdialog')).toBeNull())
    await expect(canvas.getByRole('list', { name: 'Tickets' })).toHaveTextContent(
      '#43 New laptop for Chloé · low · Ana · closed',
    )
  },
}

/** Nobody answers in time: the countdown runs out and the dialog says so. */
export const Expired: Story = {
  args: { expiryMs: 2_000 },
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())

    const call = tm.call('tickets.close', { id: 41 }, { caller: 'webmcp' })

    const dialog = await canvas.findByRole('alertdialog')
    await expect(dialog).toHaveTextContent('Expires in 0:02')
    await waitFor(
      () => expect(within(dialog).getByRole('alert')).toHaveTextContent('This request expired'),
      { timeout: 4_000 },
    )
    await expect(within(dialog).queryByRole('button', { name: 'Approve' })).toBeNull()
    await expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus()
    await expect(await call).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
    await expect(canvas.getByRole('list', { name: 'Tickets' })).not.toHaveTextContent('closed')
  },
}

/** The approved tool fails: the person sees why instead of the dialog closing silently. */
export const ErrorOutcome: Story = {
  args: { failure: 'The ticket service did not answer' },
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())

    await tm.call('tickets.close', { id: 42 }, { caller: 'inapp' })
    const dialog = await canvas.findByRole('alertdialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))

    const alert = await within(dialog).findByRole('alert')
    await expect(alert).toHaveTextContent('The action failed')
    await expect(alert).toHaveTextContent('The ticket service did not answer')
    await expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus()
    await expect(canvas.getByRole('list', { name: 'Tickets' })).not.toHaveTextContent('closed')
  },
}

/** From the keyboard alone: focus starts on Deny, Tab reaches Approve, Shift+Tab goes back. */
export const KeyboardOnly: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())

    await tm.call('tickets.close', { id: 41 }, { caller: 'inapp' })
    const dialog = await canvas.findByRole('alertdialog')
    await expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()

    await userEvent.tab()
    await expect(within(dialog).getByRole('button', { name: 'Approve' })).toHaveFocus()
    await userEvent.tab({ shift: true })
    await expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()
    await userEvent.tab()
    // Ready: Enter approves from here (KeyboardApproved); Escape would deny.
    await expect(within(dialog).getByRole('button', { name: 'Approve' })).toHaveFocus()
  },
}

/** Tab to Approve, Enter: the tool runs, as it would with a click. */
export const KeyboardApproved: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())
    await tm.call('tickets.close', { id: 41 }, { caller: 'inapp' })
    await canvas.findByRole('alertdialog')

    await userEvent.keyboard('{Tab}{Enter}')

    await waitFor(() => expect(canvas.queryByRole('alertdialog')).toBeNull())
    await expect(canvas.getByRole('list', { name: 'Tickets' })).toHaveTextContent(
      '#41 Printer on floor 2 is jammed · normal · Ana · closed',
    )
    await expect(answers(canvasElement)).toHaveTextContent('Close ticket: approved')
  },
}

/**
 * A tool without a summary or changes: the dialog shows what the agent sent, field by field,
 * with people's names for the fields and the secret masked, so nothing is approved unseen.
 */
export const InputWithoutSummary: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('billing.refund')).toBeDefined())

    await tm.call(
      'billing.refund',
      { amount: 1_000_000, iban: 'XX00 ATTACKER 0001', reason: 'Goodwill', approvalPin: '4321' },
      { caller: 'inapp' },
    )

    const dialog = await canvas.findByRole('alertdialog', { name: 'Refund a customer' })
    const table = within(dialog).getByRole('table', { name: 'Values' })
    await expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'FieldValue',
      'Amount1000000',
      'Bank account (IBAN)XX00 ATTACKER 0001',
      'ReasonGoodwill',
      'Approval pin••••••hidden',
    ])
    await expect(table).not.toHaveTextContent('4321')
    await expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()
    await expect(canvas.getByText('Refunded: 0 €')).toBeVisible()
  },
}

/**
 * A form's submit: every submitted value in the form's order, the edited ones marked with their
 * value before and after, and a change outside the submission (the status) listed too.
 */
export const WholeSubmission: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.create')).toBeDefined())

    await tm.call('tickets.create', {}, { caller: 'inapp' })

    const dialog = await canvas.findByRole('alertdialog', { name: 'Create ticket' })
    await expect(within(dialog).queryByRole('table', { name: 'Changes' })).toBeNull()
    const table = within(dialog).getByRole('table', { name: 'Values' })
    await expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'FieldValue',
      'Title ChangedBefore: —no value After: Badge reader at the door is dead',
      'Priority ChangedBefore: normal After: high',
      'AssigneeAna',
      'Requester emailchloe@example.com',
      'Status ChangedBefore: draft After: open',
    ])
    await expect(within(table).getAllByText('Changed')).toHaveLength(3)
  },
}

/**
 * Design-system buttons through `renderActions`: the dialog hands over `denyRef`, so focus still
 * starts on the safe action without the app doing anything about it.
 */
export const CustomActions: Story = {
  args: {
    renderActions: ({ approve, deny, denyRef, pending }) => (
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
        <button type="button" ref={denyRef} onClick={deny} disabled={pending}>
          Keep it open
        </button>
        <button type="button" onClick={approve} disabled={pending}>
          Yes, close it
        </button>
      </div>
    ),
  },
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())

    await tm.call('tickets.close', { id: 43 }, { caller: 'inapp' })

    const dialog = await canvas.findByRole('alertdialog', { name: 'Close ticket' })
    await expect(within(dialog).getByRole('button', { name: 'Keep it open' })).toHaveFocus()
    await expect(within(dialog).getByRole('button', { name: 'Yes, close it' })).toBeVisible()
    await expect(within(dialog).queryByRole('button', { name: 'Deny' })).toBeNull()
  },
}

const printer = z.object({
  floor: z.number().int().min(0).max(12).meta({ title: 'Floor' }),
  model: z.enum(['laser', 'inkjet']).meta({ title: 'Model' }),
  urgent: z.boolean().meta({ title: 'Urgent' }),
  note: z.string().max(200).optional().meta({
    title: 'Note',
    description: 'Anything the technician should know',
  }),
})

/**
 * A tool that files a printer ticket and asks the person which printer it is (`ctx.ask`), as the
 * assistant would when the chat left it out, once the dialog can show it; `heard` resolves with
 * what the run heard.
 */
async function askAboutPrinter(tm: Toolmark) {
  // The registry lets runs ask (`questions()`, given where an app creates it), and a question
  // needs someone who can see it: wait for the dialog to be mounted, or `ctx.ask` answers
  // `no_presenter` at once.
  await waitFor(() => expect(tm.confirmations.hasPresenter()).toBe(true))
  let heard!: (answer: QuestionAnswer) => void
  const answer = new Promise<QuestionAnswer>((resolve) => (heard = resolve))
  tm.register({
    name: 'tickets.file',
    title: 'File a printer ticket',
    description: 'Files a ticket about a broken printer, asking which one',
    run: async (_input, ctx) => {
      const given = await ctx.ask({ prompt: 'Which printer is it?', schema: printer })
      heard(given)
      return ok(given.answered ? 'filed' : given.reason)
    },
  })
  return { heard: answer }
}

/** Asks the printer question for a call from `caller`, and finds the dialog showing it. */
async function openPrinterQuestion(
  canvasElement: HTMLElement,
  loaded: Record<string, unknown>,
  caller: 'inapp' | 'webmcp',
) {
  const tm = loaded.tm as Toolmark
  await askAboutPrinter(tm)
  void tm.call('tickets.file', {}, { caller })
  const dialog = await within(canvasElement).findByRole('alertdialog', {
    name: 'File a printer ticket',
  })
  return { tm, dialog }
}

/**
 * The assistant asks a question instead of asking for an approval: a small form drawn from the
 * question's schema (a number, a choice, a box, an optional note), answered or declined.
 */
export const Question: Story = {
  args: { asks: true },
  play: async ({ canvasElement, loaded }) => {
    const { dialog } = await openPrinterQuestion(canvasElement, loaded, 'inapp')
    await expect(dialog).toHaveAccessibleDescription('Which printer is it?')
    await expect(within(dialog).getByRole('spinbutton', { name: 'Floor' })).toHaveFocus()
    await expect(within(dialog).getByRole('combobox', { name: 'Model' })).toBeVisible()
    await expect(within(dialog).getByRole('checkbox', { name: 'Urgent' })).not.toBeChecked()
    await expect(
      within(dialog).getByRole('textbox', { name: 'Note (optional)' }),
    ).toHaveAccessibleDescription('Anything the technician should know')
    await expect(within(dialog).getByRole('button', { name: 'Answer' })).toBeVisible()
    await expect(within(dialog).getByRole('button', { name: 'Decline' })).toBeVisible()
    await expect(within(dialog).queryByRole('button', { name: 'Approve' })).toBeNull()
  },
}

/** An answer the schema refuses: each issue beside its field, focus on the first, still asking. */
export const QuestionInvalid: Story = {
  args: { asks: true },
  play: async ({ canvasElement, loaded }) => {
    const { tm, dialog } = await openPrinterQuestion(canvasElement, loaded, 'webmcp')
    const floor = within(dialog).getByRole('spinbutton', { name: 'Floor' })

    await userEvent.type(floor, '40')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Answer' }))

    await waitFor(() => expect(floor).toHaveAttribute('aria-invalid', 'true'))
    await expect(floor).toHaveFocus()
    await expect(within(dialog).getByRole('combobox', { name: 'Model' })).toHaveAttribute(
      'aria-invalid',
      'true',
    )
    await expect(tm.confirmations.list()).toHaveLength(1)
  },
}

/** Answered: the run goes on with the typed value, and the dialog closes. */
export const QuestionAnswered: Story = {
  args: { asks: true },
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    const { heard } = await askAboutPrinter(tm)
    const call = tm.call('tickets.file', {}, { caller: 'mcp' })
    const dialog = await canvas.findByRole('alertdialog', { name: 'File a printer ticket' })

    await userEvent.type(within(dialog).getByRole('spinbutton', { name: 'Floor' }), '2')
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Model' }), 'laser')
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Urgent' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Answer' }))

    await expect(await heard).toEqual({
      answered: true,
      value: { floor: 2, model: 'laser', urgent: true },
    })
    await expect(await call).toEqual({ status: 'ok', data: 'filed' })
    await waitFor(() => expect(canvas.queryByRole('alertdialog')).toBeNull())
  },
}

/**
 * A registry whose `questions()` came without a form: the question's prompt, a line saying it
 * cannot be answered here, and Decline only (focused). The app that asks gives
 * `questions({ form: questionForm })`; one that never asks does not bundle the form.
 */
export const QuestionWithoutForm: Story = {
  play: async ({ canvasElement, loaded }) => {
    const { dialog } = await openPrinterQuestion(canvasElement, loaded, 'webmcp')
    await expect(dialog).toHaveAccessibleDescription('Which printer is it?')
    await expect(dialog).toHaveTextContent('This question cannot be answered here, only declined.')
    await expect(within(dialog).queryByRole('spinbutton')).toBeNull()
    const decline = within(dialog).getByRole('button', { name: 'Decline' })
    await waitFor(() => expect(decline).toHaveFocus())
    await expect(within(dialog).queryByRole('button', { name: 'Answer' })).toBeNull()
  },
}
