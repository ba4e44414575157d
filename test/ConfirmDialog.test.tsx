import { StrictMode } from 'react'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { z } from 'zod'
import { createToolmark, errorResult, invalid, ok } from '@toolmark/core'
import type { ToolResult, Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'

function registerClose(tm: Toolmark, run: () => ToolResult | Promise<ToolResult> = () => ok(true)) {
  return tm.register({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Closes a ticket',
    hints: { consequential: true },
    input: z.object({ id: z.number() }),
    summary: ({ id }) => `Close ticket #${id} and notify the requester`,
    run,
  })
}

describe('ConfirmDialog', () => {
  it('stays closed and empty while nothing is pending', () => {
    const tm = createToolmark()

    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(tm.confirmations.hasPresenter()).toBe(true)
  })

  it('shows the title, who asks, the summary and the time left', async () => {
    const tm = createToolmark()
    registerClose(tm)
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await act(() => tm.call('tickets.close', { id: 42 }, { caller: 'inapp' }))

    const dialog = screen.getByRole('alertdialog', { name: 'Close ticket' })
    expect(dialog).toHaveAccessibleDescription('Close ticket #42 and notify the requester')
    expect(dialog).toHaveTextContent('Requested by Assistant')
    expect(dialog).toHaveTextContent('Expires in 10:00')
    expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()
  })

  it.each([
    ['webmcp', 'Browser agent'],
    ['mcp', 'Desktop app'],
    ['test', 'Test'],
  ] as const)('names a %s caller "%s"', async (caller, label) => {
    const tm = createToolmark({ confirm: { test: 'deferred' } })
    registerClose(tm)
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await act(async () => {
      void tm.call('tickets.close', { id: 1 }, { caller })
    })

    expect(screen.getByRole('alertdialog')).toHaveTextContent(`Requested by ${label}`)
  })

  it('names a changed field by its label and falls back to its path', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'ticket.submit',
      title: 'Create ticket',
      description: 'Submits the ticket form',
      hints: { consequential: true },
      confirmation: () => ({
        changes: [
          { path: 'requester.email', after: 'ana@example.com' },
          { path: 'title', after: 'Printer jammed' },
        ],
        labels: { 'requester.email': 'Requester email' },
      }),
      run: () => ok(true),
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await act(() => tm.call('ticket.submit', {}, { caller: 'inapp' }))

    const table = within(screen.getByRole('alertdialog')).getByRole('table')
    expect(within(table).getByRole('rowheader', { name: 'Requester email' })).toBeInTheDocument()
    expect(within(table).getByRole('rowheader', { name: 'title' })).toBeInTheDocument()
  })

  it('shows the tool name when the tool has no title', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'wipe',
      description: 'Wipes the cache',
      hints: { consequential: true },
      run: () => ok(true),
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await act(() => tm.call('wipe', {}, { caller: 'inapp' }))

    expect(screen.getByRole('alertdialog', { name: 'wipe' })).toBeInTheDocument()
  })

  it('lists the changes and masks redacted values with an accessible "hidden"', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'account.update',
      title: 'Update account',
      description: 'Updates the account',
      hints: { consequential: true },
      input: z.object({ email: z.string(), password: z.string() }),
      sensitive: ['password'],
      confirmation: ({ email, password }) => ({
        changes: [
          { path: 'email', before: 'ada@old.example', after: email },
          { path: 'password', before: 'hunter2', after: password },
          { path: 'nickname', after: 'Ada' },
        ],
      }),
      run: () => ok(true),
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await act(() =>
      tm.call(
        'account.update',
        { email: 'ada@new.example', password: 's3cret!' },
        { caller: 'inapp' },
      ),
    )

    const table = screen.getByRole('table', { name: 'Changes' })
    const rows = within(table).getAllByRole('row')
    expect(rows.map((row) => row.textContent)).toEqual([
      'FieldBeforeAfter',
      'emailada@old.exampleada@new.example',
      'password••••••hidden••••••hidden',
      'nickname—no valueAda',
    ])
    expect(table).not.toHaveTextContent('hunter2')
    expect(table).not.toHaveTextContent('s3cret!')
    expect(within(rows[2]).getAllByText('••••••')[0]).toHaveAttribute('aria-hidden', 'true')
  })

  it('approves: shows Working… until the tool finishes, then closes', async () => {
    const tm = createToolmark()
    let finish!: () => void
    registerClose(tm, () => new Promise((resolve) => (finish = () => resolve(ok(true)))))
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await act(() => tm.call('tickets.close', { id: 5 }, { caller: 'inapp' }))

    fireEvent.click(screen.getByRole('button', { name: 'Approve' }))
    await act(async () => {})

    expect(screen.getByRole('button', { name: 'Working…' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Deny' })).toBeDisabled()
    expect(screen.getByRole('alertdialog')).toHaveAttribute('aria-busy', 'true')

    await act(async () => finish())

    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  })

  it('surfaces an error outcome with a Close button instead of closing', async () => {
    const tm = createToolmark()
    registerClose(tm, () => errorResult('The ticket service is down'))
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await act(() => tm.call('tickets.close', { id: 5 }, { caller: 'inapp' }))

    fireEvent.click(screen.getByRole('button', { name: 'Approve' }))
    await act(async () => {})

    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('The action failed')
    expect(alert).toHaveTextContent('The ticket service is down')
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus()
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument()

    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  })

  it('lists the issues of an invalid outcome', async () => {
    const tm = createToolmark()
    registerClose(tm, () => invalid([{ path: 'id', message: 'Ticket is already closed' }]))
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await act(() => tm.call('tickets.close', { id: 5 }, { caller: 'inapp' }))

    fireEvent.click(screen.getByRole('button', { name: 'Approve' }))
    await act(async () => {})

    expect(screen.getByRole('alert')).toHaveTextContent('The action was not accepted')
    expect(screen.getByRole('listitem')).toHaveTextContent('id: Ticket is already closed')
  })

  it('denies, which cancels the call', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok(true))
    registerClose(tm, run)
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    let call!: Promise<ToolResult>
    await act(async () => {
      call = tm.call('tickets.close', { id: 5 }, { caller: 'webmcp' })
    })

    fireEvent.click(screen.getByRole('button', { name: 'Deny' }))

    expect(await act(() => call)).toEqual({ status: 'cancelled', by: 'operator' })
    expect(run).not.toHaveBeenCalled()
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  })

  it('pages through a queue and answers all at once', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok(true))
    registerClose(tm, run)
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await act(async () => {
      for (const id of [1, 2, 3]) await tm.call('tickets.close', { id }, { caller: 'inapp' })
    })

    const dialog = screen.getByRole('alertdialog')
    expect(dialog).toHaveTextContent('1 of 3')
    expect(dialog).toHaveAccessibleDescription('Close ticket #1 and notify the requester')
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled()

    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(dialog).toHaveTextContent('2 of 3')
    expect(dialog).toHaveAccessibleDescription('Close ticket #2 and notify the requester')

    fireEvent.click(screen.getByRole('button', { name: 'Approve all' }))
    await act(async () => {})

    expect(run).toHaveBeenCalledTimes(3)
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  })

  it('stays on the same place in the queue after answering one', async () => {
    const tm = createToolmark()
    registerClose(tm)
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await act(async () => {
      for (const id of [1, 2, 3]) await tm.call('tickets.close', { id }, { caller: 'inapp' })
    })
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))

    fireEvent.click(screen.getByRole('button', { name: 'Deny' }))
    await act(async () => {})

    const dialog = screen.getByRole('alertdialog')
    expect(dialog).toHaveTextContent('2 of 2')
    expect(dialog).toHaveAccessibleDescription('Close ticket #3 and notify the requester')
  })

  it('uses the labels given for every visible string', async () => {
    const tm = createToolmark()
    registerClose(tm)
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog
            labels={{
              approve: 'Autoriser',
              deny: 'Refuser',
              callers: { inapp: 'Assistant IA' },
              requestedBy: (who) => `Demandé par ${who}`,
              position: (n, total) => `${n} sur ${total}`,
              timeLeft: (s) => `Expire dans ${s} s`,
              approveAll: 'Tout autoriser',
            }}
          />
        </ToolProvider>
      </StrictMode>,
    )

    await act(async () => {
      await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
      await tm.call('tickets.close', { id: 2 }, { caller: 'inapp' })
    })

    const dialog = screen.getByRole('alertdialog')
    expect(dialog).toHaveTextContent('Demandé par Assistant IA')
    expect(dialog).toHaveTextContent('1 sur 2')
    expect(dialog).toHaveTextContent('Expire dans 600 s')
    expect(screen.getByRole('button', { name: 'Refuser' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Autoriser' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Tout autoriser' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Deny all' })).toBeInTheDocument()
  })

  it('spreads other props on the dialog and runs consumer handlers first', async () => {
    const tm = createToolmark()
    registerClose(tm)
    const order: string[] = []
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog
            className="my-dialog"
            data-testid="confirm"
            onClick={() => order.push('consumer click')}
            onKeyDown={(event) => order.push(`consumer ${event.key}`)}
          />
        </ToolProvider>
      </StrictMode>,
    )
    await act(() => tm.call('tickets.close', { id: 1 }, { caller: 'inapp' }))

    const dialog = screen.getByTestId('confirm')
    fireEvent.keyDown(dialog, { key: 'a' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deny' }))

    expect(dialog).toHaveClass('my-dialog')
    expect(dialog).toHaveAttribute('role', 'alertdialog')
    expect(order).toEqual(['consumer a', 'consumer click'])
  })

  it('injects its scoped stylesheet unless unstyled', async () => {
    const tm = createToolmark()
    const { rerender } = render(
      <ToolProvider toolmark={tm}>
        <ConfirmDialog />
      </ToolProvider>,
    )
    const css = document.querySelector('dialog style')?.textContent ?? ''
    expect(css).toContain('[data-toolmark-confirm]')
    expect(css).toContain('prefers-color-scheme: dark')
    for (const rule of css.split('}')) {
      const selector = rule.split('{')[0].trim()
      if (!selector || selector.startsWith('@media') || selector.startsWith('--')) continue
      for (const part of selector.split(','))
        expect(part.trim()).toMatch(/^\[data-toolmark-confirm\]/)
    }

    rerender(
      <ToolProvider toolmark={tm}>
        <ConfirmDialog unstyled />
      </ToolProvider>,
    )
    expect(document.querySelector('dialog style')).toBeNull()
  })

  it('draws custom changes and actions through render props', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok(true))
    tm.register({
      name: 'rename',
      description: 'Renames',
      hints: { consequential: true },
      confirmation: () => ({ changes: [{ path: 'title', before: 'Old', after: 'New' }] }),
      run,
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog
            renderChanges={(changes) => (
              <p data-testid="changes">{changes.map((c) => `${c.path}=${c.after}`).join()}</p>
            )}
            renderActions={({ approve, deny, pending }) => (
              <div>
                <button autoFocus onClick={deny}>
                  No thanks
                </button>
                <button onClick={approve} disabled={pending}>
                  Go ahead
                </button>
              </div>
            )}
          />
        </ToolProvider>
      </StrictMode>,
    )
    await act(() => tm.call('rename', {}, { caller: 'inapp' }))

    expect(screen.getByTestId('changes')).toHaveTextContent('title=New')
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Go ahead' }))
    await act(async () => {})

    expect(run).toHaveBeenCalledTimes(1)
  })

  describe('with fake timers', () => {
    beforeEach(() => {
      vi.useFakeTimers({
        toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      })
    })
    afterEach(() => {
      vi.useRealTimers()
    })

    it('counts down every second and says when the request expired', async () => {
      const tm = createToolmark({ limits: { confirmationExpiryMs: 3_000 } })
      const run = vi.fn(() => ok(true))
      registerClose(tm, run)
      render(
        <StrictMode>
          <ToolProvider toolmark={tm}>
            <ConfirmDialog />
          </ToolProvider>
        </StrictMode>,
      )
      await act(() => tm.call('tickets.close', { id: 9 }, { caller: 'inapp' }))
      const dialog = screen.getByRole('alertdialog')
      expect(dialog).toHaveTextContent('Expires in 0:03')

      await act(async () => vi.advanceTimersByTime(1_000))
      expect(dialog).toHaveTextContent('Expires in 0:02')

      await act(async () => vi.advanceTimersByTime(2_000))
      expect(screen.getByRole('alert')).toHaveTextContent('This request expired')
      expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument()

      fireEvent.click(screen.getByRole('button', { name: 'Close' }))
      await act(async () => {})
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
      expect(run).not.toHaveBeenCalled()
      expect(tm.confirmations.list()).toEqual([])
    })

    it('runs no timer while nothing is pending', async () => {
      const tm = createToolmark()
      render(
        <StrictMode>
          <ToolProvider toolmark={tm}>
            <ConfirmDialog />
          </ToolProvider>
        </StrictMode>,
      )
      await act(async () => {})

      expect(vi.getTimerCount()).toBe(0)
    })
  })
})
