import { StrictMode } from 'react'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { z } from 'zod'
import { createToolmark, errorResult, ok } from '@toolmark/core'
import type { ToolResult } from '@toolmark/core'
import { ToolProvider, useAgentActivity } from '@toolmark/react'

function Log({ limit }: { limit?: number }) {
  const activity = useAgentActivity({ limit })
  return (
    <ol>
      {activity.map((call) => (
        <li key={call.callId}>
          {call.tool} · {call.caller} · {call.status}
          {call.durationMs !== undefined ? ' · timed' : ''}
          {call.progress ? ` · ${call.progress.done}/${call.progress.total}` : ''}
          {call.undo ? <button onClick={() => call.undo?.()}>Undo {call.tool}</button> : null}
        </li>
      ))}
    </ol>
  )
}

describe('useAgentActivity', () => {
  it('lists calls newest first with caller, status and duration', async () => {
    const tm = createToolmark()
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    tm.register({ name: 'fail', description: 'Fails', run: () => errorResult('Nope') })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Log />
        </ToolProvider>
      </StrictMode>,
    )

    await act(async () => {
      await tm.call('ping', {}, { caller: 'inapp' })
      await tm.call('fail', {}, { caller: 'webmcp' })
      await tm.call('missing', {}, { caller: 'mcp' })
    })

    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'missing · mcp · refused · timed',
      'fail · webmcp · error · timed',
      'ping · inapp · ok · timed',
    ])
  })

  it('shows a call as running with its progress until the result arrives', async () => {
    const tm = createToolmark()
    let finish!: () => void
    tm.register({
      name: 'import',
      description: 'Imports rows',
      run: async (_input, ctx) => {
        ctx.progress({ done: 2, total: 5 })
        await new Promise<void>((resolve) => (finish = resolve))
        return ok(5)
      },
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Log />
        </ToolProvider>
      </StrictMode>,
    )

    let call!: Promise<ToolResult>
    await act(async () => {
      call = tm.call('import', {}, { caller: 'inapp' })
    })
    expect(screen.getByRole('listitem')).toHaveTextContent('import · inapp · running · 2/5')

    await act(async () => {
      finish()
      await call
    })
    expect(screen.getByRole('listitem')).toHaveTextContent('import · inapp · ok · timed · 2/5')
  })

  it('offers undo for a call that registered one, runs it once, then stops offering it', async () => {
    const tm = createToolmark()
    let value = 'draft'
    tm.register({
      name: 'rename',
      description: 'Renames',
      input: z.object({ to: z.string() }),
      run: ({ to }, ctx) => {
        const before = value
        value = to
        ctx.registerUndo(() => {
          value = before
          return ok({ restored: before })
        })
        return ok({ renamed: to })
      },
    })
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    const undone: ToolResult[] = []
    tm.events.on('undo', (event) => undone.push(event.result))
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Log />
        </ToolProvider>
      </StrictMode>,
    )

    await act(async () => {
      await tm.call('rename', { to: 'final' }, { caller: 'inapp' })
      await tm.call('ping', {}, { caller: 'inapp' })
    })
    const [pingRow, renameRow] = screen.getAllByRole('listitem')
    expect(within(pingRow).queryByRole('button')).not.toBeInTheDocument()
    expect(value).toBe('final')

    fireEvent.click(within(renameRow).getByRole('button', { name: 'Undo rename' }))
    await act(async () => {})

    expect(value).toBe('draft')
    expect(undone).toEqual([{ status: 'ok', data: { restored: 'draft' } }])
    expect(screen.queryByRole('button', { name: 'Undo rename' })).not.toBeInTheDocument()
  })

  it('stops offering undo when the tool goes away', async () => {
    const tm = createToolmark()
    const handle = tm.register({
      name: 'write',
      description: 'Writes',
      run: (_input, ctx) => {
        ctx.registerUndo(() => ok(null))
        return ok(null)
      },
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Log />
        </ToolProvider>
      </StrictMode>,
    )
    await act(async () => {
      await tm.call('write', {}, { caller: 'inapp' })
    })
    expect(screen.getByRole('button', { name: 'Undo write' })).toBeInTheDocument()

    await act(async () => {
      handle.dispose()
    })

    expect(screen.queryByRole('button', { name: 'Undo write' })).not.toBeInTheDocument()
  })

  it('replaces a deferred call’s needs_confirmation with how it ended once a person answers', async () => {
    const tm = createToolmark()
    const closed: number[] = []
    tm.register({
      name: 'close',
      description: 'Closes a ticket',
      input: z.object({ id: z.number() }),
      hints: { consequential: true },
      run: ({ id }) => {
        closed.push(id)
        return ok({ id })
      },
    })
    function Outcomes() {
      const activity = useAgentActivity()
      return (
        <ol>
          {activity.map((call) => (
            <li key={call.callId}>
              {call.tool} · {call.status} · {call.confirmation}
            </li>
          ))}
        </ol>
      )
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Outcomes />
        </ToolProvider>
      </StrictMode>,
    )

    await act(async () => {
      await tm.call('close', { id: 1 }, { caller: 'inapp' })
      await tm.call('close', { id: 2 }, { caller: 'inapp' })
    })
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'close · needs_confirmation · requested',
      'close · needs_confirmation · requested',
    ])

    const [first, second] = tm.confirmations.list()
    await act(async () => {
      await tm.confirmations.approve(first.id)
      await tm.confirmations.reject(second.id)
    })

    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'close · cancelled · rejected',
      'close · ok · approved',
    ])
    expect(closed).toEqual([1])
  })

  it('shows a deferred call that nobody answered as expired', async () => {
    vi.useFakeTimers()
    try {
      const tm = createToolmark({ limits: { confirmationExpiryMs: 5_000 } })
      tm.register({
        name: 'close',
        description: 'Closes',
        hints: { consequential: true },
        run: () => ok(true),
      })
      render(
        <StrictMode>
          <ToolProvider toolmark={tm}>
            <Log />
          </ToolProvider>
        </StrictMode>,
      )
      await act(async () => {
        await tm.call('close', {}, { caller: 'inapp' })
      })
      expect(screen.getByRole('listitem')).toHaveTextContent('close · inapp · needs_confirmation')

      await act(async () => {
        await vi.advanceTimersByTimeAsync(5_001)
      })

      expect(screen.getByRole('listitem')).toHaveTextContent('close · inapp · refused')
    } finally {
      vi.useRealTimers()
    }
  })

  it('keeps only the newest calls up to the limit', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'echo',
      description: 'Echoes',
      input: z.object({ n: z.number() }),
      run: ({ n }) => ok(n),
    })
    function Numbers() {
      const activity = useAgentActivity({ limit: 2 })
      return (
        <p>
          {activity
            .map((call) => (call.result?.status === 'ok' ? String(call.result.data) : '?'))
            .join(',')}
        </p>
      )
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Numbers />
        </ToolProvider>
      </StrictMode>,
    )

    await act(async () => {
      for (const n of [1, 2, 3]) await tm.call('echo', { n }, { caller: 'test' })
    })

    expect(screen.getByText('3,2')).toBeInTheDocument()
  })
})
