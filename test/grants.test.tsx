import { StrictMode } from 'react'
import { vi } from 'vitest'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { z } from 'zod'
import { createToolmark, grants, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, useConfirmations } from '@toolmark/react'
import { ToolmarkDevtools } from '@toolmark/react/devtools'

/** A registry that makes grants, as an app that offers them creates it. */
const granting = () => createToolmark({ confirm: { grants: grants() } })

function registerClose(tm: Toolmark, extra: Record<string, unknown> = {}) {
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
    ...extra,
  })
  return runs
}

const renderDialog = (tm: Toolmark, offerGrants?: boolean) =>
  render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <ConfirmDialog offerGrants={offerGrants} />
      </ToolProvider>
    </StrictMode>,
  )

describe('grants in ConfirmDialog', () => {
  it('offers Allow once and Allow for this session, with focus on Deny', async () => {
    const tm = granting()
    registerClose(tm)
    renderDialog(tm)
    await act(() => tm.call('tickets.close', { id: 3 }))

    const dialog = screen.getByRole('alertdialog', { name: 'Close ticket' })
    const buttons = within(dialog)
      .getAllByRole('button')
      .map((b) => b.textContent)
    expect(buttons).toEqual(['Deny', 'Allow for this session', 'Allow once'])
    expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()
  })

  it('offers no grant on a registry made without grants(), with nothing to warn about', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const tm = createToolmark()
      const runs = registerClose(tm)
      renderDialog(tm)
      await act(() => tm.call('tickets.close', { id: 3 }))

      const dialog = screen.getByRole('alertdialog', { name: 'Close ticket' })
      const buttons = within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent)
      expect(buttons).toEqual(['Deny', 'Approve'])
      expect(warn).not.toHaveBeenCalled()
      await act(async () => {
        fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))
      })
      expect(runs).toEqual([3])
      expect(tm.confirmations.grants()).toEqual([])
    } finally {
      warn.mockRestore()
    }
  })

  it('Allow for this session approves and lets later calls of the tool run without asking', async () => {
    const tm = granting()
    const runs = registerClose(tm)
    renderDialog(tm)
    await act(() => tm.call('tickets.close', { id: 3 }))

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Allow for this session' }))
    })
    expect(runs).toEqual([3])
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(tm.confirmations.grants()).toMatchObject([
      { tool: 'tickets.close', caller: 'inapp', pins: [], uses: 0 },
    ])

    let later: unknown
    await act(async () => {
      later = await tm.call('tickets.close', { id: 9 })
    })
    expect(later).toEqual({ status: 'ok', data: { closed: 9 } })
    expect(runs).toEqual([3, 9])
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  })

  it('Allow once approves this call only', async () => {
    const tm = granting()
    const runs = registerClose(tm)
    renderDialog(tm)
    await act(() => tm.call('tickets.close', { id: 3 }))
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Allow once' }))
    })
    expect(runs).toEqual([3])
    expect(tm.confirmations.grants()).toEqual([])
    await act(() => tm.call('tickets.close', { id: 4 }))
    expect(screen.getByRole('alertdialog')).toHaveAccessibleDescription('Close ticket #4')
  })

  it('offers no grant with offerGrants={false}, for a destructive tool, or for a tool with grant: false', async () => {
    const plain = granting()
    registerClose(plain)
    const { unmount } = renderDialog(plain, false)
    await act(() => plain.call('tickets.close', { id: 1 }))
    expect(screen.getByRole('button', { name: 'Approve' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Allow for this session' })).toBeNull()
    unmount()

    const destructive = granting()
    registerClose(destructive, { hints: { destructive: true } })
    const second = renderDialog(destructive)
    await act(() => destructive.call('tickets.close', { id: 1 }))
    expect(screen.getByRole('button', { name: 'Close ticket' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Allow for this session' })).toBeNull()
    second.unmount()

    const refusing = granting()
    registerClose(refusing, { grant: false })
    renderDialog(refusing)
    await act(() => refusing.call('tickets.close', { id: 1 }))
    expect(screen.getByRole('button', { name: 'Approve' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Allow for this session' })).toBeNull()
  })

  it('gives renderActions allowForSession only where a grant is allowed', async () => {
    const tm = granting()
    registerClose(tm)
    const seen: boolean[] = []
    render(
      <ToolProvider toolmark={tm}>
        <ConfirmDialog
          renderActions={(actions) => {
            seen.push(actions.allowForSession !== undefined)
            return (
              <>
                <button ref={actions.denyRef} onClick={actions.deny}>
                  No
                </button>
                {actions.allowForSession ? (
                  <button onClick={actions.allowForSession}>Always</button>
                ) : null}
              </>
            )
          }}
        />
      </ToolProvider>,
    )
    await act(() => tm.call('tickets.close', { id: 1 }))
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Always' }))
    })
    expect(seen).toContain(true)
    expect(tm.confirmations.grants()).toHaveLength(1)
  })
})

describe('grants in useConfirmations', () => {
  it('lists grants, re-renders when one is used or revoked, and revokes', async () => {
    const tm = granting()
    registerClose(tm)
    let revoke!: (id: string) => boolean
    function Grants() {
      const { grants, revokeGrant } = useConfirmations()
      revoke = revokeGrant
      return (
        <ul aria-label="Grants">
          {grants.map((g) => (
            <li key={g.id}>
              {g.tool} used {g.uses}
            </li>
          ))}
        </ul>
      )
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Grants />
        </ToolProvider>
      </StrictMode>,
    )
    const asked = await act(() => tm.call('tickets.close', { id: 1 }))
    const id = (asked as { confirmId: string }).confirmId
    await act(() => tm.confirmations.approve(id, { grant: { for: 'session' } }))
    expect(screen.getByRole('listitem')).toHaveTextContent('tickets.close used 0')
    await act(() => tm.call('tickets.close', { id: 2 }))
    expect(screen.getByRole('listitem')).toHaveTextContent('tickets.close used 1')
    let revoked: boolean | undefined
    act(() => {
      revoked = revoke(tm.confirmations.grants()[0].id)
    })
    expect(revoked).toBe(true)
    expect(screen.queryByRole('listitem')).toBeNull()
  })
})

describe('grants in the devtools', () => {
  it('lists grants with Revoke, and shows granted calls in the activity log', async () => {
    const tm = granting()
    registerClose(tm)
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ToolmarkDevtools initialIsOpen />
        </ToolProvider>
      </StrictMode>,
    )
    const id = ((await act(() => tm.call('tickets.close', { id: 1 }))) as { confirmId: string })
      .confirmId
    await act(() => tm.confirmations.approve(id, { grant: { for: 'session', pins: ['id'] } }))
    await act(() => tm.call('tickets.close', { id: 1 }))

    fireEvent.click(screen.getByRole('tab', { name: /Activity/ }))
    const calls = screen.getByRole('list', { name: 'Calls' })
    expect(within(calls).getAllByRole('listitem')[0]).toHaveTextContent('allowed by a grant')

    fireEvent.click(screen.getByRole('tab', { name: /Confirmations/ }))
    const grants = screen.getByRole('region', { name: 'Grants' })
    expect(grants).toHaveTextContent('for this session')
    expect(grants).toHaveTextContent('used 1 time')
    expect(grants).toHaveTextContent('Only calls with id = 1')
    fireEvent.click(within(grants).getByRole('button', { name: 'Revoke grant for Close ticket' }))
    expect(tm.confirmations.grants()).toEqual([])
    expect(screen.queryByRole('region', { name: 'Grants' })).toBeNull()
  })
})
