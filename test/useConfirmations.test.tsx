import { StrictMode } from 'react'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { z } from 'zod'
import { createToolmark, grants, ok, questions } from '@toolmark/core'
import type { ToolResult } from '@toolmark/core'
import { ToolProvider, useConfirmations } from '@toolmark/react'

const flush = () => act(async () => {})

function Pending() {
  const { items, approve, reject } = useConfirmations()
  return (
    <ul>
      {items.map((item) => (
        <li key={item.id}>
          {item.summary} ({item.caller})
          <button onClick={() => approve(item.id)}>Approve {item.tool}</button>
          <button onClick={() => reject(item.id)}>Reject {item.tool}</button>
        </li>
      ))}
    </ul>
  )
}

function registerClose(tm: ReturnType<typeof createToolmark>, closed: number[]) {
  return tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket',
    hints: { consequential: true },
    input: z.object({ id: z.number() }),
    summary: ({ id }) => `Close ticket #${id}`,
    run: ({ id }) => {
      closed.push(id)
      return ok({ closed: id })
    },
  })
}

describe('useConfirmations', () => {
  it('lists pending confirmations and approves one, running the tool', async () => {
    const tm = createToolmark()
    const closed: number[] = []
    registerClose(tm, closed)
    const outcomes: ToolResult[] = []
    tm.events.on('confirm', (event) => {
      if (event.result) outcomes.push(event.result)
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Pending />
        </ToolProvider>
      </StrictMode>,
    )

    const asked = await act(() => tm.call('tickets.close', { id: 12 }, { caller: 'inapp' }))
    expect(asked).toMatchObject({ status: 'needs_confirmation', summary: 'Close ticket #12' })
    expect(screen.getByRole('listitem')).toHaveTextContent('Close ticket #12 (inapp)')

    fireEvent.click(screen.getByRole('button', { name: 'Approve tickets.close' }))
    await flush()

    expect(closed).toEqual([12])
    expect(outcomes).toEqual([{ status: 'ok', data: { closed: 12 } }])
    expect(screen.queryByRole('listitem')).not.toBeInTheDocument()
  })

  it('rejects a confirmation, which cancels the call', async () => {
    const tm = createToolmark()
    const closed: number[] = []
    registerClose(tm, closed)
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Pending />
        </ToolProvider>
      </StrictMode>,
    )

    let inline!: Promise<ToolResult>
    await act(async () => {
      inline = tm.call('tickets.close', { id: 3 }, { caller: 'webmcp' })
    })
    fireEvent.click(screen.getByRole('button', { name: 'Reject tickets.close' }))

    expect(await act(() => inline)).toEqual({ status: 'cancelled', by: 'operator' })
    expect(closed).toEqual([])
    expect(screen.queryByRole('listitem')).not.toBeInTheDocument()
  })

  it('attaches a presenter while mounted, so inline callers may wait for a person', async () => {
    const tm = createToolmark()
    registerClose(tm, [])
    expect(await tm.call('tickets.close', { id: 1 }, { caller: 'webmcp' })).toMatchObject({
      status: 'refused',
      code: 'not_allowed',
    })

    const { unmount } = render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Pending />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    expect(tm.confirmations.hasPresenter()).toBe(true)
    expect(tm.manifest({ caller: 'webmcp' }).tools.map((t) => t.name)).toEqual(['tickets.close'])

    unmount()
    expect(tm.confirmations.hasPresenter()).toBe(false)
  })

  it('does not attach a presenter when presenter is false', async () => {
    const tm = createToolmark()
    function Count() {
      const { items } = useConfirmations({ presenter: false })
      return <p>{items.length} pending</p>
    }

    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Count />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    expect(tm.confirmations.hasPresenter()).toBe(false)
    expect(screen.getByText('0 pending')).toBeInTheDocument()
  })

  it('approves all and rejects all', async () => {
    const tm = createToolmark()
    const closed: number[] = []
    registerClose(tm, closed)
    function Bulk() {
      const { items, approveMany, rejectMany } = useConfirmations()
      return (
        <>
          <p>{items.length} pending</p>
          <button onClick={() => approveMany('all')}>Approve all</button>
          <button onClick={() => rejectMany('all')}>Reject all</button>
        </>
      )
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Bulk />
        </ToolProvider>
      </StrictMode>,
    )
    await act(async () => {
      await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
      await tm.call('tickets.close', { id: 2 }, { caller: 'inapp' })
    })
    expect(screen.getByText('2 pending')).toBeInTheDocument()

    fireEvent.click(screen.getByRole('button', { name: 'Approve all' }))
    await flush()
    expect(closed).toEqual([1, 2])
    expect(screen.getByText('0 pending')).toBeInTheDocument()

    await act(async () => {
      await tm.call('tickets.close', { id: 3 }, { caller: 'inapp' })
    })
    fireEvent.click(screen.getByRole('button', { name: 'Reject all' }))
    await flush()
    expect(closed).toEqual([1, 2])
    expect(screen.getByText('0 pending')).toBeInTheDocument()
  })

  it('approves the selected entries in queue order and denies the rest, leaving none it was not given', async () => {
    const tm = createToolmark()
    const closed: number[] = []
    registerClose(tm, closed)
    const answered: string[] = []
    function Review() {
      const { items, approveMany, rejectMany } = useConfirmations()
      // The person picked the third and the first, in that order.
      const picked = [items[2], items[0]].filter(Boolean).map((item) => item.id)
      return (
        <>
          <p>{items.map((item) => item.summary).join(' | ') || 'none'}</p>
          <button
            onClick={async () => {
              const answers = await approveMany(picked, { by: 'dialog' })
              answered.push(...answers.map((a) => `${a.id}:${a.result.status}`))
            }}
          >
            Approve selected
          </button>
          <button onClick={() => rejectMany(items.map((item) => item.id))}>Deny all</button>
        </>
      )
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Review />
        </ToolProvider>
      </StrictMode>,
    )
    await act(async () => {
      for (const id of [1, 2, 3]) await tm.call('tickets.close', { id }, { caller: 'inapp' })
    })
    const [first, , third] = tm.confirmations.list().map((e) => e.id)

    fireEvent.click(screen.getByRole('button', { name: 'Approve selected' }))
    await flush()

    expect(closed).toEqual([1, 3])
    expect(answered).toEqual([`${first}:ok`, `${third}:ok`])
    expect(screen.getByText('Close ticket #2')).toBeInTheDocument()

    fireEvent.click(screen.getByRole('button', { name: 'Deny all' }))
    await flush()
    expect(closed).toEqual([1, 3])
    expect(screen.getByText('none')).toBeInTheDocument()
  })

  it('keeps the same items array while nothing changes', async () => {
    const tm = createToolmark()
    registerClose(tm, [])
    const seen: unknown[] = []
    function Probe({ n }: { n: number }) {
      const { items } = useConfirmations()
      seen.push(items)
      return <p>{n}</p>
    }
    const { rerender } = render(
      <ToolProvider toolmark={tm}>
        <Probe n={1} />
      </ToolProvider>,
    )
    await act(() => tm.call('tickets.close', { id: 1 }, { caller: 'inapp' }))
    const before = seen.at(-1)

    rerender(
      <ToolProvider toolmark={tm}>
        <Probe n={2} />
      </ToolProvider>,
    )

    expect(seen.at(-1)).toBe(before)
    expect(before).toHaveLength(1)
  })
})

describe('useConfirmations answers what the registry enables', () => {
  function GrantingList() {
    const { items, approve } = useConfirmations({ presenter: false })
    return (
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <button onClick={() => approve(item.id, { grant: { for: 'session' } })}>
              Allow {item.summary}
            </button>
          </li>
        ))}
      </ul>
    )
  }

  it('brings no grant code of its own: without grants() an approval with a grant is refused and nothing runs', async () => {
    const tm = createToolmark()
    const closed: number[] = []
    registerClose(tm, closed)
    render(
      <ToolProvider toolmark={tm}>
        <GrantingList />
        <Pending />
      </ToolProvider>,
    )
    await act(() => tm.call('tickets.close', { id: 1 }, { caller: 'inapp' }))
    const [entry] = tm.confirmations.list()
    expect(entry.grantable).toBeUndefined()
    const answered = await act(() =>
      tm.confirmations.approve(entry.id, { grant: { for: 'session' } }),
    )
    expect(answered).toMatchObject({ status: 'refused', code: 'grant_not_allowed' })
    expect((answered as { message: string }).message).toMatch(/grants: grants\(\)/)
    expect(closed).toEqual([])
    expect(tm.confirmations.list()).toHaveLength(1)
    expect(tm.confirmations.grants()).toEqual([])
  })

  it('gives grants on a registry made with grants(), even as a list that is not the presenter', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    const closed: number[] = []
    registerClose(tm, closed)
    render(
      <ToolProvider toolmark={tm}>
        <GrantingList />
      </ToolProvider>,
    )
    await act(() => tm.call('tickets.close', { id: 1 }, { caller: 'inapp' }))
    fireEvent.click(screen.getByRole('button', { name: 'Allow Close ticket #1' }))
    await flush()
    expect(closed).toEqual([1])
    expect(tm.confirmations.grants()).toHaveLength(1)
    expect(await act(() => tm.call('tickets.close', { id: 2 }, { caller: 'inapp' }))).toEqual({
      status: 'ok',
      data: { closed: 2 },
    })
  })

  it('lets runs ask questions while it presents, on a registry made with questions()', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.register({
      name: 'tickets.file',
      description: 'Files a ticket',
      run: async (_input, ctx) => {
        const answer = await ctx.ask({ prompt: 'Which floor?', schema: z.number().int() })
        return ok(answer)
      },
    })
    render(
      <ToolProvider toolmark={tm}>
        <Pending />
      </ToolProvider>,
    )
    const filing = tm.call('tickets.file', {}, { caller: 'webmcp' })
    await flush()
    expect(screen.getByRole('listitem')).toHaveTextContent('Which floor? (webmcp)')
    await act(() => tm.confirmations.answer(tm.confirmations.list()[0].id, 4))
    expect(await filing).toEqual({ status: 'ok', data: { answered: true, value: 4 } })
  })
})
