import { StrictMode, createRef } from 'react'
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { z } from 'zod'
import { createToolmark, errorResult, invalid, ok } from '@toolmark/core'
import type { ToolResult, Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, UnstyledConfirmDialog } from '@toolmark/react'

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

  it('names the approve button of a destructive request by its title, in danger colors', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok({ deleted: true }))
    tm.register({
      name: 'tickets.delete',
      title: 'Delete ticket',
      description: 'Deletes a ticket for good',
      hints: { destructive: true },
      input: z.object({ id: z.number() }),
      summary: ({ id }) => `Delete ticket #${id} for good`,
      run,
    })
    registerClose(tm)
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await act(async () => {
      await tm.call('tickets.delete', { id: 7 }, { caller: 'inapp' })
      await tm.call('tickets.close', { id: 8 }, { caller: 'test' })
    })

    const dialog = screen.getByRole('alertdialog', { name: 'Delete ticket' })
    expect(dialog).toHaveAttribute('data-tone', 'danger')
    expect(within(dialog).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument()
    const remove = within(dialog).getByRole('button', { name: 'Delete ticket' })
    expect(remove).toHaveAttribute('data-variant', 'danger')
    expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()

    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete ticket' }))
    await act(async () => {})
    expect(run).toHaveBeenCalledTimes(1)

    // The next request (another caller's) is not destructive: a plain Approve again.
    expect(dialog).toHaveAccessibleDescription('Close ticket #8 and notify the requester')
    expect(dialog).not.toHaveAttribute('data-tone')
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toHaveAttribute(
      'data-variant',
      'primary',
    )
  })

  it('says "Delete" on a destructive request without a title, and takes a label for it', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'files.purge',
      description: 'Purges the trash',
      hints: { destructive: true },
      summary: () => 'Empty the trash for good',
      run: () => ok(true),
    })
    const { rerender } = render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await act(() => tm.call('files.purge', {}, { caller: 'inapp' }))
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveAttribute('data-variant', 'danger')

    rerender(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog labels={{ approveDestructive: ({ tool }) => `Run ${tool} anyway` }} />
        </ToolProvider>
      </StrictMode>,
    )
    expect(screen.getByRole('button', { name: 'Run files.purge anyway' })).toBeInTheDocument()
  })

  it('tells custom actions when the request is destructive', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'tickets.delete',
      description: 'Deletes a ticket',
      hints: { destructive: true },
      summary: () => 'Delete ticket #1 for good',
      run: () => ok(true),
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog
            renderActions={({ approve, deny, denyRef, destructive }) => (
              <div>
                <button ref={denyRef} onClick={deny}>
                  Keep
                </button>
                <button onClick={approve} data-danger={destructive}>
                  Go
                </button>
              </div>
            )}
          />
        </ToolProvider>
      </StrictMode>,
    )
    await act(() => tm.call('tickets.delete', {}, { caller: 'inapp' }))

    expect(screen.getByRole('button', { name: 'Go' })).toHaveAttribute('data-danger', 'true')
  })

  it('shows several requests of one caller as one review list and approves the selected ones in queue order', async () => {
    const tm = createToolmark()
    const ran: number[] = []
    const close = vi.fn(() => ok(true))
    registerClose(tm, close)
    tm.register({
      name: 'tickets.reopen',
      title: 'Reopen ticket',
      description: 'Reopens a ticket',
      hints: { consequential: true },
      input: z.object({ id: z.number() }),
      summary: ({ id }) => `Reopen ticket #${id}`,
      run: ({ id }) => {
        ran.push(id)
        return ok(true)
      },
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await act(async () => {
      await tm.call('tickets.reopen', { id: 1 }, { caller: 'inapp' })
      await tm.call('tickets.close', { id: 2 }, { caller: 'inapp' })
      await tm.call('tickets.reopen', { id: 3 }, { caller: 'inapp' })
    })

    const dialog = screen.getByRole('alertdialog', { name: 'Review 3 requests' })
    expect(dialog).toHaveTextContent('Requested by Assistant')
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(3)
    expect(
      within(dialog).getByRole('checkbox', { name: 'Reopen ticket Reopen ticket #1' }),
    ).toBeChecked()
    expect(
      within(dialog).getByRole('checkbox', {
        name: 'Close ticket Close ticket #2 and notify the requester',
      }),
    ).toBeChecked()
    expect(within(dialog).queryByRole('button', { name: 'Approve all' })).not.toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Next' })).not.toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Deny all' })).toHaveFocus()

    // The person leaves the close out.
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Close ticket #2/ }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve selected (2)' }))
    await waitFor(() => expect(ran).toEqual([1, 3]))
    expect(close).not.toHaveBeenCalled()
    // The unticked one stays pending, now alone: a dialog of its own.
    expect(tm.confirmations.list().map((e) => e.summary)).toEqual([
      'Close ticket #2 and notify the requester',
    ])
    expect(await screen.findByRole('alertdialog', { name: 'Close ticket' })).toBeInTheDocument()
  })

  it("keeps callers apart: one caller's list at a time, the others waiting", async () => {
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
      await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
      await tm.call('tickets.close', { id: 2 }, { caller: 'test' })
      await tm.call('tickets.close', { id: 3 }, { caller: 'inapp' })
    })

    const dialog = screen.getByRole('alertdialog', { name: 'Review 2 requests' })
    expect(dialog).toHaveTextContent('Requested by Assistant')
    expect(dialog).toHaveTextContent('1 more request waits after this')
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(2)
    expect(dialog).not.toHaveTextContent('Close ticket #2')

    fireEvent.click(within(dialog).getByRole('button', { name: 'Deny all' }))
    await act(async () => {})

    expect(run).not.toHaveBeenCalled()
    const next = screen.getByRole('alertdialog', { name: 'Close ticket' })
    expect(next).toHaveTextContent('Requested by Test')
    expect(next).toHaveAccessibleDescription('Close ticket #2 and notify the requester')
    expect(within(next).getByRole('button', { name: 'Deny' })).toHaveFocus()
  })

  it('reports a review row that was withdrawn meanwhile and runs the rest', async () => {
    const tm = createToolmark()
    const closed: number[] = []
    tm.register({
      name: 'tickets.close',
      title: 'Close ticket',
      description: 'Closes a ticket',
      hints: { consequential: true },
      input: z.object({ id: z.number() }),
      summary: ({ id }) => `Close ticket #${id}`,
      run: ({ id }) => {
        closed.push(id)
        return ok(true)
      },
    })
    tm.register({
      name: 'tickets.reopen',
      title: 'Reopen ticket',
      description: 'Reopens a ticket',
      hints: { consequential: true },
      input: z.object({ id: z.number() }),
      summary: ({ id }) => `Reopen ticket #${id}`,
      run: () => ok(true),
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await act(async () => {
      await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
      await tm.call('tickets.reopen', { id: 2 }, { caller: 'inapp' })
      await tm.call('tickets.close', { id: 3 }, { caller: 'inapp' })
    })
    const dialog = screen.getByRole('alertdialog', { name: 'Review 3 requests' })

    // The app takes the reopen tool away from the assistant while the person reads.
    await act(async () => {
      tm.setPolicy({ inapp: { tools: { deny: ['tickets.reopen'] } } })
      await new Promise((r) => setTimeout(r, 0))
    })

    const withdrawn = within(dialog).getByRole('checkbox', { name: /Reopen ticket #2/ })
    expect(withdrawn).toBeDisabled()
    expect(withdrawn).not.toBeChecked()
    expect(withdrawn).toHaveAccessibleDescription('This request was withdrawn')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve selected (2)' }))

    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
    expect(closed).toEqual([1, 3])
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
              timeLeft: (s) => `Expire dans ${s} s`,
              approveSelected: (n) => `Autoriser la sélection (${n})`,
              reviewTitle: (n) => `${n} demandes`,
            }}
          />
        </ToolProvider>
      </StrictMode>,
    )

    await act(async () => {
      await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
      await tm.call('tickets.close', { id: 2 }, { caller: 'inapp' })
    })

    const dialog = screen.getByRole('alertdialog', { name: '2 demandes' })
    expect(dialog).toHaveTextContent('Demandé par Assistant IA')
    expect(dialog).toHaveTextContent('Expire dans 600 s')
    expect(screen.getByRole('button', { name: 'Autoriser la sélection (2)' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Deny all' })).toBeInTheDocument()

    await act(() => tm.confirmations.reject(tm.confirmations.list()[0].id))
    expect(screen.getByRole('button', { name: 'Refuser' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Autoriser' })).toBeInTheDocument()
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

  it('asks the same way as <UnstyledConfirmDialog>, with no stylesheet and the props passed on', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok(true))
    registerClose(tm, run)
    const ref = createRef<HTMLDialogElement>()
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <UnstyledConfirmDialog ref={ref} className="my-dialog" labels={{ approve: 'Allow' }} />
        </ToolProvider>
      </StrictMode>,
    )

    const asked = await act(() => tm.call('tickets.close', { id: 7 }, { caller: 'inapp' }))

    const dialog = screen.getByRole('alertdialog', { name: 'Close ticket' })
    expect(dialog).toBe(ref.current)
    expect(dialog).toHaveClass('my-dialog')
    expect(dialog).toHaveAttribute('data-toolmark-confirm')
    expect(document.querySelector('dialog style')).toBeNull()
    expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Allow' }))
    })
    expect(asked.status).toBe('needs_confirmation')
    expect(run).toHaveBeenCalledTimes(1)
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
            renderActions={({ approve, deny, denyRef, pending }) => (
              <div>
                <button ref={denyRef} onClick={deny}>
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
    expect(screen.getByRole('button', { name: 'No thanks' })).toHaveFocus()
    fireEvent.click(screen.getByRole('button', { name: 'Go ahead' }))
    await act(async () => {})

    expect(run).toHaveBeenCalledTimes(1)
  })

  it('gives the dialog element to a ref object and to a callback ref', async () => {
    const tm = createToolmark()
    const objectRef = createRef<HTMLDialogElement>()
    const seen: (HTMLDialogElement | null)[] = []
    const { unmount } = render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog ref={objectRef} />
          <ConfirmDialog ref={(node) => void seen.push(node)} data-testid="second" />
        </ToolProvider>
      </StrictMode>,
    )

    expect(objectRef.current).toBeInstanceOf(HTMLDialogElement)
    expect(objectRef.current).toHaveAttribute('role', 'alertdialog')
    expect(seen[0]).toBe(screen.getByTestId('second'))
    unmount()
    expect(objectRef.current).toBeNull()
    expect(seen.at(-1)).toBeNull()
  })

  it('runs the tool once when a custom Approve calls approve twice in one click', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok(true))
    registerClose(tm, run)
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog
            renderActions={({ approve, deny, denyRef }) => (
              <div>
                <button ref={denyRef} onClick={deny}>
                  No
                </button>
                <button
                  onClick={() => {
                    approve()
                    approve()
                  }}
                >
                  Yes
                </button>
              </div>
            )}
          />
        </ToolProvider>
      </StrictMode>,
    )
    await act(() => tm.call('tickets.close', { id: 3 }, { caller: 'inapp' }))

    fireEvent.click(screen.getByRole('button', { name: 'Yes' }))
    await act(async () => {})

    expect(run).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  })

  it('moves on when the request on screen is answered somewhere else', async () => {
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
      await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
      await tm.call('tickets.close', { id: 2 }, { caller: 'test' })
    })
    const [first] = tm.confirmations.list()

    await act(() => tm.confirmations.reject(first.id))

    const dialog = screen.getByRole('alertdialog')
    expect(dialog).toHaveAccessibleDescription('Close ticket #2 and notify the requester')
    expect(dialog).not.toHaveTextContent('waits after this')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Deny' })).toHaveFocus()
  })

  it('leaves out a values table that would only repeat the summary ("Id | 7")', async () => {
    const tm = createToolmark()
    registerClose(tm)
    tm.register({
      name: 'tickets.archive',
      title: 'Archive ticket',
      description: 'Archives a ticket',
      hints: { consequential: true },
      input: z.object({ id: z.number() }),
      run: () => ok(true),
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await act(() => tm.call('tickets.close', { id: 7 }, { caller: 'inapp' }))

    const dialog = screen.getByRole('alertdialog', { name: 'Close ticket' })
    expect(dialog).toHaveAccessibleDescription('Close ticket #7 and notify the requester')
    expect(within(dialog).queryByRole('table')).not.toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()

    // A summary that does not say the value (no summary at all: the tool's title) keeps it.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deny' }))
    await act(async () => {})
    await act(() => tm.call('tickets.archive', { id: 7 }, { caller: 'inapp' }))
    const archive = screen.getByRole('alertdialog', { name: 'Archive ticket' })
    const table = within(archive).getByRole('table', { name: 'Values' })
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['FieldValue', 'Id7'])
  })

  it('leaves the repeated values out of each row of a review list, the summaries still there', async () => {
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
      await tm.call('tickets.close', { id: 3 }, { caller: 'inapp' })
      await tm.call('tickets.close', { id: 5 }, { caller: 'inapp' })
    })

    const dialog = screen.getByRole('alertdialog', { name: 'Review 2 requests' })
    expect(
      within(dialog).getByRole('checkbox', {
        name: 'Close ticket Close ticket #5 and notify the requester',
      }),
    ).toBeChecked()
    expect(within(dialog).queryByRole('table')).not.toBeInTheDocument()
  })

  it('shows the input field by field, secrets masked, when a tool has no summary and no changes', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok(true))
    tm.register({
      name: 'payments.send',
      title: 'Send a payment',
      description: 'Sends money to an account',
      hints: { consequential: true },
      input: z.object({
        amount: z.number(),
        to: z.string(),
        pin: z.string(),
        beneficiary: z.object({ fullName: z.string(), bank_code: z.string() }),
      }),
      sensitive: ['pin'],
      run,
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
        'payments.send',
        {
          amount: 1_000_000,
          to: 'XX00 ATTACKER',
          pin: '4321',
          beneficiary: { fullName: 'Mallory', bank_code: 'ZZ' },
        },
        { caller: 'inapp' },
      ),
    )

    const dialog = screen.getByRole('alertdialog', { name: 'Send a payment' })
    const table = within(dialog).getByRole('table', { name: 'Values' })
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'FieldValue',
      'Amount1000000',
      'ToXX00 ATTACKER',
      'Pin••••••hidden',
      'Beneficiary › Full nameMallory',
      'Beneficiary › Bank codeZZ',
    ])
    expect(table).not.toHaveTextContent('4321')
    expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()
    expect(run).not.toHaveBeenCalled()
  })

  it("shows the hidden characters of a file's name as marks when a tool's input looks like a file", async () => {
    const tm = createToolmark()
    tm.register({
      name: 'files.share',
      title: 'Share a file',
      description: 'Shares a file with a person',
      hints: { consequential: true },
      input: z.object({
        attachment: z.object({
          file: z.object({ name: z.string(), size: z.number(), type: z.string() }),
        }),
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

    // Not made by the forms: an agent wrote this description, name and type included.
    const name = 'invoice\u202efdp.exe\u200b'
    await act(() =>
      tm.call(
        'files.share',
        { attachment: { file: { name, size: 2048, type: 'application/\u2060pdf' } } },
        { caller: 'inapp' },
      ),
    )

    const dialog = screen.getByRole('alertdialog', { name: 'Share a file' })
    const table = within(dialog).getByRole('table', { name: 'Values' })
    const row = within(table).getByRole('row', { name: /Attachment/ })
    expect(row).toHaveTextContent('invoice⟦RLO⟧fdp.exe⟦ZWSP⟧ (2 KB, application/⟦WJ⟧pdf)')
    expect(row.textContent).not.toMatch(/[\u202e\u200b\u2060]/)
    expect(within(row).getByTitle('Hidden character U+202E')).toBeInTheDocument()
  })

  it('names input values by the entry labels and reads lists and nested arrays', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'orders.place',
      description: 'Places an order',
      hints: { destructive: true },
      input: z.object({
        to: z.string(),
        tags: z.array(z.string()),
        lines: z.array(z.object({ sku: z.string(), qty: z.number() })),
        notes: z.array(z.string()),
        gift: z.boolean(),
      }),
      confirmation: () => ({ labels: { to: 'Ship to', 'lines.0.qty': 'First line quantity' } }),
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
        'orders.place',
        {
          to: 'Quai 3, Lyon',
          tags: ['urgent', 'fragile'],
          lines: [
            { sku: 'TONER-9', qty: 2 },
            { sku: 'PAPER-A4', qty: 10 },
          ],
          notes: [],
          gift: false,
        },
        { caller: 'inapp' },
      ),
    )

    const table = screen.getByRole('table', { name: 'Values' })
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'FieldValue',
      'Ship toQuai 3, Lyon',
      'Tagsurgent, fragile',
      'Lines 1 › SkuTONER-9',
      'First line quantity2',
      'Lines 2 › SkuPAPER-A4',
      'Lines 2 › Qty10',
      'Notes—no value',
      'Giftfalse',
    ])
    expect(within(table).getByRole('rowheader', { name: 'Ship to' })).toBeInTheDocument()
  })

  it('folds a big input after 20 rows and cuts long text, each with a button for the rest', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'bulk.import',
      description: 'Imports records',
      hints: { consequential: true },
      input: z.record(z.string(), z.string()),
      run: () => ok(true),
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    const input: Record<string, string> = { story: 'x'.repeat(1_000) }
    for (let i = 1; i <= 24; i++) input[`field${i}`] = `value ${i}`

    await act(() => tm.call('bulk.import', input, { caller: 'inapp' }))

    const table = screen.getByRole('table', { name: 'Values' })
    expect(within(table).getAllByRole('row')).toHaveLength(21)
    const story = within(table).getByRole('row', { name: /^Story/ })
    expect(story).toHaveTextContent(`Story${'x'.repeat(280)}… Show 720 more characters`)

    fireEvent.click(within(story).getByRole('button', { name: 'Show 720 more characters' }))
    expect(story).toHaveTextContent(`Story${'x'.repeat(1_000)}`)
    expect(within(story).queryByRole('button')).not.toBeInTheDocument()

    fireEvent.click(screen.getByRole('button', { name: 'Show 5 more' }))
    expect(within(table).getAllByRole('row')).toHaveLength(26)
    expect(within(table).getAllByRole('row').at(-1)).toHaveTextContent('Field24value 24')
    expect(screen.queryByRole('button', { name: /^Show \d+ more$/ })).not.toBeInTheDocument()
    // Role queries over 26 rows of isolated text take seconds in jsdom on a loaded machine.
  }, 20_000)

  it('shows every value of a whole submission and marks the changed ones, before and after', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'ticket.submit',
      title: 'Create ticket',
      description: 'Submits the ticket form',
      hints: { consequential: true },
      sensitive: ['password'],
      confirmation: () => ({
        summary: 'Submit the ticket form',
        input: {
          title: 'Printer jammed',
          priority: 'high',
          requester: { email: 'ana@example.com' },
          password: 'hunter2',
        },
        changes: [
          { path: 'title', before: '', after: 'Printer jammed' },
          { path: 'priority', before: 'normal', after: 'high' },
          { path: 'attachments', after: 2 },
        ],
        labels: {
          title: 'Title',
          priority: 'Priority',
          'requester.email': 'Requester email',
          password: 'Portal password',
          attachments: 'Attachments',
        },
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

    const dialog = screen.getByRole('alertdialog', { name: 'Create ticket' })
    expect(within(dialog).queryByRole('table', { name: 'Changes' })).not.toBeInTheDocument()
    const table = within(dialog).getByRole('table', { name: 'Values' })
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'FieldValue',
      'Title ChangedBefore: —no value After: Printer jammed',
      'Priority ChangedBefore: normal After: high',
      'Requester emailana@example.com',
      'Portal password••••••hidden',
      'Attachments ChangedBefore: —no value After: 2',
    ])
    expect(within(table).getByRole('rowheader', { name: 'Priority Changed' })).toBeInTheDocument()
    expect(within(table).getByRole('rowheader', { name: 'Requester email' })).toBeInTheDocument()
    expect(table).not.toHaveTextContent('hunter2')
  })

  it('keeps the values a custom change view leaves out of a whole submission', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'ticket.submit',
      description: 'Submits the ticket form',
      hints: { consequential: true },
      confirmation: () => ({
        input: { title: 'Printer jammed', priority: 'normal' },
        changes: [{ path: 'title', before: '', after: 'Printer jammed' }],
      }),
      run: () => ok(true),
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog
            renderChanges={(changes) => (
              <p data-testid="changes">{changes.map((c) => `${c.path}=${c.after}`).join()}</p>
            )}
          />
        </ToolProvider>
      </StrictMode>,
    )

    await act(() => tm.call('ticket.submit', {}, { caller: 'inapp' }))

    expect(screen.getByTestId('changes')).toHaveTextContent('title=Printer jammed')
    const table = screen.getByRole('table', { name: 'Values' })
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['FieldValue', 'Prioritynormal'])
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

    it('says the request expired when the registry ends it, whatever the clock on screen says', async () => {
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
      expect(screen.getByRole('alertdialog')).toHaveTextContent('Expires in 0:03')
      // The dialog's clock stands still; the registry keeps the clock it was made with.
      const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now())
      try {
        await act(async () => vi.advanceTimersByTime(3_000))
        expect(tm.confirmations.list()).toEqual([])
        expect(screen.getByRole('alert')).toHaveTextContent('This request expired')
        expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument()
      } finally {
        clock.mockRestore()
      }
      expect(run).not.toHaveBeenCalled()
    })

    it('keeps a request the registry has not ended open when the clock on screen passes its expiry', async () => {
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
      // The dialog's clock runs ahead of the registry's: only the registry ends the request.
      const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 10_000)
      try {
        await act(async () => vi.advanceTimersByTime(1_000))
        expect(screen.queryByRole('alert')).not.toBeInTheDocument()
        expect(screen.getByRole('alertdialog')).toHaveTextContent('Expires in 0:00')
        fireEvent.click(screen.getByRole('button', { name: 'Approve' }))
        await act(async () => {})
      } finally {
        clock.mockRestore()
      }
      expect(run).toHaveBeenCalledTimes(1)
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
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
