import { StrictMode } from 'react'
import { render } from 'vitest-browser-react'
import { page, userEvent } from 'vitest/browser'
import axe from 'axe-core'
import { z } from 'zod'
import { createToolmark, grants, ok } from '@toolmark/core'
import type { ToolResult, Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, useAgentActivity } from '@toolmark/react'

/** A registry with a consequential close tool; `runs` records every ticket it closed. */
function setup() {
  // The registry makes grants, so the dialog offers them.
  const tm = createToolmark({ confirm: { grants: grants() } })
  const runs: number[] = []
  tm.register({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Closes a ticket',
    hints: { consequential: true },
    input: z.object({ id: z.number() }),
    summary: ({ id }) => `Close ticket #${id}`,
    run: ({ id }) => {
      runs.push(id)
      return ok({ closed: id })
    },
  })
  return { tm, runs }
}

/** The activity log as a person reads it: tool, caller and who approved. */
function Log() {
  const activity = useAgentActivity()
  return (
    <ol aria-label="Log">
      {activity.map((call) => (
        <li key={call.callId}>
          {call.tool} {call.status} {call.approvedBy ?? ''}
        </li>
      ))}
    </ol>
  )
}

function App({ tm }: { tm: Toolmark }) {
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <main>
          <h1>Tickets</h1>
          <Log />
        </main>
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>
  )
}

const dialog = () => page.getByRole('alertdialog')
const button = (name: string) => page.getByRole('button', { name, exact: true })

describe('grants in Chromium', () => {
  it('a browser agent asks once; Allow for this session lets its later closes run, logged by grant', async () => {
    const { tm, runs } = setup()
    await render(<App tm={tm} />)

    const first = tm.call('tickets.close', { id: 3 }, { caller: 'webmcp' })
    await expect.element(dialog()).toBeVisible()
    await expect.element(button('Deny')).toHaveFocus()
    const axeResults = await axe.run(dialog().element())
    expect(axeResults.violations.map((v) => v.id)).toEqual([])

    // Keyboard only: from Deny, Tab reaches "Allow for this session".
    await userEvent.keyboard('{Tab}')
    await expect.element(button('Allow for this session')).toHaveFocus()
    await userEvent.keyboard('{Enter}')
    expect(await first).toEqual({ status: 'ok', data: { closed: 3 } })
    await expect.element(dialog()).not.toBeInTheDocument()

    const later: ToolResult = await tm.call('tickets.close', { id: 9 }, { caller: 'webmcp' })
    expect(later).toEqual({ status: 'ok', data: { closed: 9 } })
    await expect.element(dialog()).not.toBeInTheDocument()
    expect(runs).toEqual([3, 9])
    await expect
      .element(page.getByRole('list', { name: 'Log' }).getByRole('listitem').first())
      .toHaveTextContent('tickets.close ok grant')

    // Revoked: the next close asks again.
    tm.confirmations.revokeGrant(tm.confirmations.grants()[0].id)
    const third = tm.call('tickets.close', { id: 11 }, { caller: 'webmcp' })
    await expect.element(dialog()).toBeVisible()
    await userEvent.click(button('Allow once'))
    expect(await third).toEqual({ status: 'ok', data: { closed: 11 } })
    expect(tm.confirmations.grants()).toEqual([])
  })

  it('Escape still denies while a grant is offered, and grants nothing', async () => {
    const { tm, runs } = setup()
    await render(<App tm={tm} />)
    const asked = tm.call('tickets.close', { id: 5 }, { caller: 'mcp' })
    await expect.element(button('Allow for this session')).toBeVisible()
    await userEvent.keyboard('{Escape}')
    expect(await asked).toEqual({ status: 'cancelled', by: 'operator' })
    expect(runs).toEqual([])
    expect(tm.confirmations.grants()).toEqual([])
  })
})
