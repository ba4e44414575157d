import { StrictMode, useState } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { Controls, Description, Markdown, Primary, Title } from '@storybook/addon-docs/blocks'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { z } from 'zod'
import { createToolmark, grants, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import {
  ConfirmDialog,
  ToolProvider,
  useAgentActivity,
  useConfirmations,
  useTool,
} from '@toolmark/react'

/** Three open tickets and the consequential tool an agent closes them with. */
function Tickets() {
  const [closed, setClosed] = useState<number[]>([])
  useTool({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Closes an open ticket by id.',
    hints: { consequential: true },
    input: z.object({ id: z.number().int() }),
    summary: ({ id }) => `Close ticket #${id}`,
    run: ({ id }) => {
      setClosed((list) => [...list, id])
      return ok({ id, status: 'closed' })
    },
  })
  return (
    <ul aria-label="Tickets">
      {[3, 5, 9].map((id) => (
        <li key={id}>
          #{id} · {closed.includes(id) ? 'closed' : 'open'}
        </li>
      ))}
    </ul>
  )
}

/** The grants the person gave, with Revoke, and the calls with who approved them. */
function GrantsAndLog() {
  const { grants, revokeGrant } = useConfirmations({ presenter: false })
  const activity = useAgentActivity()
  return (
    <>
      <ul aria-label="Grants">
        {grants.map((grant) => (
          <li key={grant.id}>
            {grant.tool} for {grant.caller}, used {grant.uses}{' '}
            <button type="button" onClick={() => revokeGrant(grant.id)}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <ol aria-label="Calls">
        {activity.map((call) => (
          <li key={call.callId}>
            {call.tool} #{(call.result as { data?: { id?: number } } | undefined)?.data?.id} ·{' '}
            {call.status} · {call.approvedBy ?? 'not asked'}
          </li>
        ))}
      </ol>
    </>
  )
}

/**
 * The docs page: the first story, in one frame. Each story's modal dialog takes the focus, and a
 * page of frames would fight over it; the others are stories of their own in the sidebar.
 */
function GrantDocs() {
  return (
    <>
      <Title />
      <Description />
      <Primary />
      <Markdown>
        {
          'What happens once the session is allowed, and after a revoke, are the Granted and Revoked stories in the sidebar.'
        }
      </Markdown>
      <Controls />
    </>
  )
}

const meta = {
  title: 'ConfirmDialog/Grant',
  component: ConfirmDialog,
  parameters: {
    layout: 'padded',
    docs: { story: { inline: false, iframeHeight: 500 }, page: GrantDocs },
  },
  // The registry makes grants (`grants()`), so the dialog offers them.
  loaders: [() => ({ tm: createToolmark({ confirm: { grants: grants() } }) })],
  render: (props, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <Tickets />
        <GrantsAndLog />
        <ConfirmDialog {...props} />
      </ToolProvider>
    </StrictMode>
  ),
} satisfies Meta<typeof ConfirmDialog>

export default meta
type Story = StoryObj<typeof meta>

/** On a registry that makes grants, a request the ceilings allow offers "Allow once" and "Allow for this session". */
export const Offered: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())
    await tm.call('tickets.close', { id: 3 }, { caller: 'inapp' })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Close ticket' })
    await expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()
    await expect(
      within(dialog).getByRole('button', { name: 'Allow for this session' }),
    ).toBeVisible()
    await expect(within(dialog).getByRole('button', { name: 'Allow once' })).toBeVisible()
  },
}

/**
 * "Allow for this session": ticket #3 closes, and the assistant's later closes (#5, #9) run
 * without a dialog; the log says a grant let them through.
 */
export const Granted: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())
    await tm.call('tickets.close', { id: 3 }, { caller: 'inapp' })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Close ticket' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Allow for this session' }))
    await waitFor(() => expect(canvas.queryByRole('alertdialog')).toBeNull())

    await expect(await tm.call('tickets.close', { id: 5 }, { caller: 'inapp' })).toEqual({
      status: 'ok',
      data: { id: 5, status: 'closed' },
    })
    await expect(await tm.call('tickets.close', { id: 9 }, { caller: 'inapp' })).toEqual({
      status: 'ok',
      data: { id: 9, status: 'closed' },
    })
    await expect(canvas.queryByRole('alertdialog')).toBeNull()
    await waitFor(() =>
      expect(canvas.getByRole('list', { name: 'Grants' })).toHaveTextContent(
        'tickets.close for inapp, used 2',
      ),
    )
    await waitFor(() =>
      expect(canvas.getByRole('list', { name: 'Calls' })).toHaveTextContent(
        'tickets.close #9 · ok · grant',
      ),
    )
    await expect(canvas.getByRole('list', { name: 'Tickets' })).toHaveTextContent(
      '#3 · closed#5 · closed#9 · closed',
    )
  },
}

/** Revoked: the next close asks again. */
export const Revoked: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())
    await tm.call('tickets.close', { id: 3 }, { caller: 'inapp' })
    const dialog = await canvas.findByRole('alertdialog', { name: 'Close ticket' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Allow for this session' }))
    await waitFor(() => expect(canvas.queryByRole('alertdialog')).toBeNull())
    await userEvent.click(canvas.getByRole('button', { name: 'Revoke' }))
    await expect(tm.confirmations.grants()).toEqual([])

    await tm.call('tickets.close', { id: 9 }, { caller: 'inapp' })
    await expect(
      await canvas.findByRole('alertdialog', { name: 'Close ticket' }),
    ).toHaveAccessibleDescription('Close ticket #9')
  },
}
