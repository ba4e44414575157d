import { StrictMode } from 'react'
import { render } from 'vitest-browser-react'
import { cdp, page, userEvent } from 'vitest/browser'
import axe from 'axe-core'
import { z } from 'zod'
import { createToolmark, errorResult, ok } from '@toolmark/core'
import type { ToolResult, Toolmark, ToolmarkOptions } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, type ConfirmDialogProps } from '@toolmark/react'

/** A registry with a consequential tool; `runs` records every ticket it closed. */
function setup(
  options: ToolmarkOptions = {},
  run: (id: number) => ToolResult | Promise<ToolResult> = (id) => ok({ closed: id }),
) {
  const tm = createToolmark(options)
  const runs: number[] = []
  tm.register({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Closes a ticket',
    hints: { consequential: true },
    input: z.object({ id: z.number() }),
    summary: ({ id }) => `Close ticket #${id} and notify the requester`,
    run: ({ id }) => {
      runs.push(id)
      return run(id)
    },
  })
  return { tm, runs }
}

function App({ tm, ...props }: { tm: Toolmark } & ConfirmDialogProps) {
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <main>
          <h1>Tickets</h1>
          <button type="button">Start</button>
        </main>
        <ConfirmDialog {...props} />
      </ToolProvider>
    </StrictMode>
  )
}

const dialog = () => page.getByRole('alertdialog')
const button = (name: string) => page.getByRole('button', { name, exact: true })

async function violations(element: Element) {
  const results = await axe.run(element)
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)
}

describe('ConfirmDialog in Chromium', () => {
  it('opens as a modal with focus on Deny and gives focus back when it closes', async () => {
    const { tm } = setup()
    await render(<App tm={tm} />)
    await userEvent.click(button('Start'))
    await expect.element(button('Start')).toHaveFocus()

    void tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })

    await expect.element(dialog()).toBeVisible()
    const element = dialog().element() as HTMLDialogElement
    expect(element.open).toBe(true)
    expect(element.matches(':modal')).toBe(true)
    await expect.element(button('Deny')).toHaveFocus()

    await userEvent.click(button('Deny'))

    await expect.element(dialog()).not.toBeInTheDocument()
    await expect.element(button('Start')).toHaveFocus()
  })

  it('denies with Escape and never runs the tool', async () => {
    const { tm, runs } = setup()
    await render(<App tm={tm} />)
    const call = tm.call('tickets.close', { id: 2 }, { caller: 'webmcp' })
    await expect.element(button('Deny')).toHaveFocus()

    await userEvent.keyboard('{Escape}')

    expect(await call).toEqual({ status: 'cancelled', by: 'operator' })
    expect(runs).toEqual([])
    await expect.element(dialog()).not.toBeInTheDocument()
  })

  it("denies only the request on screen with Escape and keeps the next caller's request", async () => {
    const { tm, runs } = setup()
    await render(<App tm={tm} />)
    const first = tm.call('tickets.close', { id: 1 }, { caller: 'webmcp' })
    const second = tm.call('tickets.close', { id: 2 }, { caller: 'mcp' })
    await expect.element(dialog()).toHaveTextContent('1 more request waits after this')

    await userEvent.keyboard('{Escape}')

    expect(await first).toEqual({ status: 'cancelled', by: 'operator' })
    await expect
      .element(dialog())
      .toHaveAccessibleDescription('Close ticket #2 and notify the requester')
    expect((dialog().element() as HTMLDialogElement).open).toBe(true)
    await expect.element(button('Deny')).toHaveFocus()
    expect(tm.confirmations.list()).toHaveLength(1)

    await userEvent.click(button('Approve'))
    expect(await second).toEqual({ status: 'ok', data: { closed: 2 } })
    expect(runs).toEqual([2])
  })

  it('does nothing on a click on the backdrop: no approval, no denial', async () => {
    const { tm, runs } = setup()
    await render(<App tm={tm} />)
    void tm.call('tickets.close', { id: 3 }, { caller: 'inapp' })
    await expect.element(dialog()).toBeVisible()
    const element = dialog().element() as HTMLDialogElement
    const rect = element.getBoundingClientRect()
    const clicks: { target: EventTarget | null; x: number; y: number }[] = []
    element.addEventListener('click', (event) =>
      clicks.push({ target: event.target, x: event.clientX, y: event.clientY }),
    )

    // Left of the dialog's box, halfway down: the backdrop (the page around is inert).
    await userEvent.click(dialog(), { position: { x: -rect.left / 2, y: rect.height / 2 } })
    await new Promise((resolve) => setTimeout(resolve, 100))

    // The click did land outside the dialog's box, on its backdrop.
    expect(clicks).toHaveLength(1)
    expect(clicks[0].target).toBe(element)
    expect(clicks[0].x).toBeLessThan(rect.left)
    expect(element.open).toBe(true)
    expect(tm.confirmations.list()).toHaveLength(1)
    expect(runs).toEqual([])
  })

  it('approves with the keyboard only: Tab to Approve, then Enter', async () => {
    const { tm, runs } = setup()
    await render(<App tm={tm} />)
    const call = tm.call('tickets.close', { id: 4 }, { caller: 'webmcp' })
    await expect.element(button('Deny')).toHaveFocus()

    await userEvent.keyboard('{Tab}')
    await expect.element(button('Approve')).toHaveFocus()
    await userEvent.keyboard('{Enter}')

    expect(await call).toEqual({ status: 'ok', data: { closed: 4 } })
    expect(runs).toEqual([4])
    await expect.element(dialog()).not.toBeInTheDocument()
  })

  it('approves with the keyboard only: Tab to Approve, then Space', async () => {
    const { tm, runs } = setup()
    await render(<App tm={tm} />)
    const call = tm.call('tickets.close', { id: 5 }, { caller: 'webmcp' })
    await expect.element(button('Deny')).toHaveFocus()

    await userEvent.keyboard('{Tab}')
    await userEvent.keyboard(' ')

    expect(await call).toEqual({ status: 'ok', data: { closed: 5 } })
    expect(runs).toEqual([5])
  })

  it('counts down live and shows that the request expired', async () => {
    const { tm, runs } = setup({ limits: { confirmationExpiryMs: 3_000 } })
    await render(<App tm={tm} />)
    const call = tm.call('tickets.close', { id: 6 }, { caller: 'webmcp' })

    await expect.element(dialog()).toHaveTextContent('Expires in 0:03')
    await expect.element(dialog(), { timeout: 2_500 }).toHaveTextContent('Expires in 0:02')
    await expect.element(dialog(), { timeout: 2_500 }).toHaveTextContent('Expires in 0:01')
    await expect
      .element(page.getByRole('alert'), { timeout: 3_000 })
      .toHaveTextContent('This request expired')

    expect(await call).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
    expect(button('Approve').query()).toBeNull()
    await expect.element(button('Close')).toHaveFocus()
    await userEvent.keyboard('{Enter}')
    await expect.element(dialog()).not.toBeInTheDocument()
    expect(runs).toEqual([])
  })

  it('reviews several requests of one agent with the keyboard only: Space unticks, Enter approves the rest in order', async () => {
    const { tm, runs } = setup()
    await render(<App tm={tm} />)
    const calls = [1, 2, 3].map((id) => tm.call('tickets.close', { id }, { caller: 'webmcp' }))

    await expect.element(page.getByRole('alertdialog', { name: 'Review 3 requests' })).toBeVisible()
    await expect.element(button('Deny all')).toHaveFocus()
    await expect.element(button('Approve selected (3)')).toBeEnabled()
    expect(button('Approve all').query()).toBeNull()
    expect(button('Next').query()).toBeNull()

    // Back from Deny all to the last row's checkbox; Space unticks it.
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}')
    const third = page.getByRole('checkbox', { name: /Close ticket #3/ })
    await expect.element(third).toHaveFocus()
    await userEvent.keyboard(' ')
    await expect.element(third).not.toBeChecked()
    await userEvent.keyboard('{Tab}{Tab}')
    await expect.element(button('Approve selected (2)')).toHaveFocus()
    await userEvent.keyboard('{Enter}')

    expect(await calls[0]).toEqual({ status: 'ok', data: { closed: 1 } })
    expect(await calls[1]).toEqual({ status: 'ok', data: { closed: 2 } })
    expect(runs).toEqual([1, 2])
    // The unticked one waits on its own, focus on its Deny.
    await expect
      .element(dialog())
      .toHaveAccessibleDescription('Close ticket #3 and notify the requester')
    await expect.element(button('Deny')).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    expect(await calls[2]).toEqual({ status: 'cancelled', by: 'operator' })
    await expect.element(dialog()).not.toBeInTheDocument()
    expect(runs).toEqual([1, 2])
  })

  it('denies every open row of a review list with Escape', async () => {
    const { tm, runs } = setup()
    await render(<App tm={tm} />)
    const calls = [1, 2].map((id) => tm.call('tickets.close', { id }, { caller: 'webmcp' }))
    await expect.element(button('Deny all')).toHaveFocus()

    await userEvent.keyboard('{Escape}')

    expect(await Promise.all(calls)).toEqual([
      { status: 'cancelled', by: 'operator' },
      { status: 'cancelled', by: 'operator' },
    ])
    expect(runs).toEqual([])
    await expect.element(dialog()).not.toBeInTheDocument()
  })

  it('on a small screen, scrolls the list inside the dialog and ticks only the rows that came on screen', async () => {
    await page.viewport(360, 560)
    try {
      const { tm, runs } = setup()
      await render(<App tm={tm} />)
      const ids = [1, 2, 3, 4, 5, 6, 7, 8]
      for (const id of ids) await tm.call('tickets.close', { id }, { caller: 'inapp' })
      await expect
        .element(page.getByRole('alertdialog', { name: 'Review 8 requests' }))
        .toBeVisible()

      const list = page.getByRole('list', { name: 'Review 8 requests' }).element() as HTMLElement
      expect(list.scrollHeight).toBeGreaterThan(list.clientHeight)
      const dialogBox = dialog().element().getBoundingClientRect()
      expect(dialogBox.bottom).toBeLessThanOrEqual(window.innerHeight)
      // Rows below the fold are not ticked: one click approves only what was on screen.
      const count = () =>
        page
          .getByRole('checkbox')
          .elements()
          .filter((box) => (box as HTMLInputElement).checked).length
      await expect.poll(count).toBeGreaterThan(0)
      expect(count()).toBeLessThan(ids.length)
      const unseen = page.getByRole('checkbox', { name: /Close ticket #8 / })
      await expect.element(unseen).not.toBeChecked()
      expect(await violations(dialog().element())).toEqual([])

      // Jumping to the end skips the rows in between: they stay unticked.
      list.scrollTop = list.scrollHeight
      await expect.element(unseen).toBeChecked()
      await expect
        .element(page.getByRole('checkbox', { name: /Close ticket #5 / }))
        .not.toBeChecked()
      // Scrolling back through the list, as a person reads it, ticks each row that comes on screen.
      for (const row of [...list.querySelectorAll('li')].reverse()) {
        row.scrollIntoView({ block: 'nearest' })
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)))
      }
      await expect.element(button(`Approve selected (${ids.length})`)).toBeEnabled()
      await userEvent.click(button(`Approve selected (${ids.length})`))
      await expect.element(dialog()).not.toBeInTheDocument()
      expect(runs).toEqual(ids)
    } finally {
      await page.viewport(1280, 720)
    }
  })

  it('shows Working… while the tool runs, then surfaces its error', async () => {
    let fail!: () => void
    const { tm } = setup(
      {},
      () => new Promise((resolve) => (fail = () => resolve(errorResult('Mail server is down')))),
    )
    await render(<App tm={tm} />)
    await userEvent.click(button('Start'))
    const call = tm.call('tickets.close', { id: 7 }, { caller: 'webmcp' })
    await expect.element(button('Deny')).toHaveFocus()

    await userEvent.click(button('Approve'))

    await expect.element(button('Working…')).toBeDisabled()
    await expect.element(button('Deny')).toBeDisabled()
    await userEvent.keyboard('{Escape}')
    await expect.element(button('Working…')).toBeVisible()

    fail()
    expect(await call).toEqual({ status: 'error', message: 'Mail server is down' })
    await expect.element(page.getByRole('alert')).toHaveTextContent('The action failed')
    await expect.element(page.getByRole('alert')).toHaveTextContent('Mail server is down')
    await expect.element(button('Close')).toHaveFocus()

    await userEvent.keyboard('{Escape}')

    await expect.element(dialog()).not.toBeInTheDocument()
    await expect.element(button('Start')).toHaveFocus()
  })

  describe('accessibility', () => {
    afterEach(async () => {
      await cdp().send('Emulation.setEmulatedMedia', { features: [] })
    })

    async function openQueueWithChanges(tm: Toolmark) {
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
            { path: 'password', before: 'x', after: password },
            { path: 'nickname', after: 'Ada' },
          ],
        }),
        run: () => ok(true),
      })
      await tm.call(
        'account.update',
        { email: 'a@new.example', password: 'pw' },
        { caller: 'inapp' },
      )
      await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
      await expect.element(dialog()).toHaveAccessibleName('Review 2 requests')
      await expect.element(page.getByRole('table', { name: 'Changes' })).toBeVisible()
    }

    it('has no axe violations while open in the light theme', async () => {
      await cdp().send('Emulation.setEmulatedMedia', {
        features: [{ name: 'prefers-color-scheme', value: 'light' }],
      })
      const { tm } = setup()
      await render(<App tm={tm} />)
      await openQueueWithChanges(tm)
      const element = dialog().element()
      expect(getComputedStyle(element).backgroundColor).toBe('rgb(255, 255, 255)')

      expect(await violations(element)).toEqual([])
    })

    it('has no axe violations while open in the dark theme of prefers-color-scheme', async () => {
      await cdp().send('Emulation.setEmulatedMedia', {
        features: [{ name: 'prefers-color-scheme', value: 'dark' }],
      })
      const { tm } = setup()
      await render(<App tm={tm} />)
      await openQueueWithChanges(tm)
      const element = dialog().element()
      expect(matchMedia('(prefers-color-scheme: dark)').matches).toBe(true)
      expect(getComputedStyle(element).backgroundColor).toBe('rgb(27, 30, 36)')

      expect(await violations(element)).toEqual([])
    })

    it('has no axe violations with the dark theme forced by colorScheme', async () => {
      const { tm } = setup()
      await render(<App tm={tm} colorScheme="dark" />)
      await openQueueWithChanges(tm)
      const element = dialog().element()
      expect(getComputedStyle(element).backgroundColor).toBe('rgb(27, 30, 36)')

      expect(await violations(element)).toEqual([])
    })

    it('follows the dark color-scheme the app declares on its root, over a light system', async () => {
      await cdp().send('Emulation.setEmulatedMedia', {
        features: [{ name: 'prefers-color-scheme', value: 'light' }],
      })
      document.documentElement.style.colorScheme = 'dark'
      try {
        const { tm } = setup()
        await render(<App tm={tm} />)
        await openQueueWithChanges(tm)
        const element = dialog().element()
        expect(matchMedia('(prefers-color-scheme: dark)').matches).toBe(false)
        await expect.poll(() => getComputedStyle(element).backgroundColor).toBe('rgb(27, 30, 36)')
        expect(getComputedStyle(element).colorScheme).toBe('dark')

        expect(await violations(element)).toEqual([])
      } finally {
        document.documentElement.style.colorScheme = ''
      }
    })

    it('follows a light color-scheme the app declares over a dark system, and a switch while open', async () => {
      await cdp().send('Emulation.setEmulatedMedia', {
        features: [{ name: 'prefers-color-scheme', value: 'dark' }],
      })
      document.documentElement.style.colorScheme = 'light'
      try {
        const { tm } = setup()
        await render(<App tm={tm} />)
        await openQueueWithChanges(tm)
        const element = dialog().element()
        await expect
          .poll(() => getComputedStyle(element).backgroundColor)
          .toBe('rgb(255, 255, 255)')
        expect(await violations(element)).toEqual([])

        // The app switches to its dark theme while the dialog is open.
        document.documentElement.style.colorScheme = 'dark'
        await expect.poll(() => getComputedStyle(element).backgroundColor).toBe('rgb(27, 30, 36)')
        // Declaring both schemes hands the choice back to the system (dark here).
        document.documentElement.style.colorScheme = 'light dark'
        await expect.poll(() => element.getAttribute('data-app-color-scheme')).toBeNull()
        expect(getComputedStyle(element).backgroundColor).toBe('rgb(27, 30, 36)')
        expect(await violations(element)).toEqual([])
      } finally {
        document.documentElement.style.colorScheme = ''
      }
    })

    it('lets colorScheme="light" win over a dark app and a dark system', async () => {
      await cdp().send('Emulation.setEmulatedMedia', {
        features: [{ name: 'prefers-color-scheme', value: 'dark' }],
      })
      document.documentElement.style.colorScheme = 'dark'
      try {
        const { tm } = setup()
        await render(<App tm={tm} colorScheme="light" />)
        void tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
        await expect.element(dialog()).toBeVisible()

        expect(getComputedStyle(dialog().element()).backgroundColor).toBe('rgb(255, 255, 255)')
      } finally {
        document.documentElement.style.colorScheme = ''
      }
    })

    async function openInputAndSubmission(tm: Toolmark) {
      tm.register({
        name: 'payments.send',
        title: 'Send a payment',
        description: 'Sends money',
        hints: { consequential: true },
        input: z.object({ amount: z.number(), to: z.string(), pin: z.string() }),
        sensitive: ['pin'],
        run: () => ok(true),
      })
      tm.register({
        name: 'ticket.submit',
        title: 'Create ticket',
        description: 'Submits the ticket form',
        hints: { consequential: true },
        confirmation: () => ({
          summary: 'Submit the ticket form',
          input: { title: 'Printer jammed', priority: 'high', body: 'Paper '.repeat(80) },
          changes: [{ path: 'priority', before: 'normal', after: 'high' }],
          labels: { title: 'Title', priority: 'Priority', body: 'Description' },
        }),
        run: () => ok(true),
      })
      await tm.call(
        'payments.send',
        { amount: 1e6, to: 'XX00 ATTACKER', pin: '1' },
        { caller: 'inapp' },
      )
      await tm.call('ticket.submit', {}, { caller: 'test' })
      await expect.element(page.getByRole('table', { name: 'Values' })).toBeVisible()
    }

    for (const scheme of ['light', 'dark'] as const) {
      it(`has no axe violations with the input and a whole submission shown, ${scheme}`, async () => {
        await cdp().send('Emulation.setEmulatedMedia', {
          features: [{ name: 'prefers-color-scheme', value: scheme }],
        })
        const { tm } = setup()
        await render(<App tm={tm} />)
        await openInputAndSubmission(tm)
        const values = page.getByRole('table', { name: 'Values' })
        await expect.element(values).toHaveTextContent('ToXX00 ATTACKER')
        expect(await violations(dialog().element())).toEqual([])

        await userEvent.click(button('Deny'))
        await expect.element(values).toHaveTextContent('Priority ChangedBefore: normal After: high')
        await expect.element(button('Show 200 more characters')).toBeVisible()
        expect(await violations(dialog().element())).toEqual([])
      })
    }

    for (const scheme of ['light', 'dark'] as const) {
      it(`shows a destructive request in danger colors, named by its verb, axe-clean, ${scheme}`, async () => {
        await cdp().send('Emulation.setEmulatedMedia', {
          features: [{ name: 'prefers-color-scheme', value: scheme }],
        })
        const { tm } = setup()
        const deleted: number[] = []
        tm.register({
          name: 'tickets.delete',
          title: 'Delete ticket',
          description: 'Deletes a ticket for good',
          hints: { destructive: true },
          input: z.object({ id: z.number() }),
          summary: ({ id }) => `Delete ticket #${id} for good`,
          run: ({ id }) => {
            deleted.push(id)
            return ok({ id })
          },
        })
        await render(<App tm={tm} />)
        void tm.call('tickets.delete', { id: 7 }, { caller: 'inapp' })

        const remove = button('Delete ticket')
        await expect.element(remove).toBeVisible()
        await expect.element(button('Deny')).toHaveFocus()
        expect(page.getByRole('button', { name: 'Approve' }).query()).toBeNull()
        const danger = scheme === 'light' ? 'rgb(180, 35, 24)' : 'rgb(255, 155, 144)'
        expect(getComputedStyle(remove.element()).backgroundColor).toBe(danger)
        expect(getComputedStyle(dialog().element()).borderTopColor).toBe(danger)
        expect(await violations(dialog().element())).toEqual([])

        // Keyboard: Tab from Deny reaches the danger button; Enter runs it once.
        await userEvent.keyboard('{Tab}')
        await expect.element(remove).toHaveFocus()
        await userEvent.keyboard('{Enter}')
        await expect.element(dialog()).not.toBeInTheDocument()
        expect(deleted).toEqual([7])
      })
    }

    it('has no axe violations while showing an error outcome', async () => {
      const { tm } = setup({}, () => errorResult('Mail server is down'))
      await render(<App tm={tm} />)
      void tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
      await userEvent.click(button('Approve'))
      await expect.element(page.getByRole('alert')).toBeVisible()

      expect(await violations(dialog().element())).toEqual([])
    })
  })

  it('starts focus on a custom Deny given denyRef, and Escape still denies', async () => {
    const { tm, runs } = setup()
    await render(
      <App
        tm={tm}
        renderActions={({ approve, deny, denyRef }) => (
          <div>
            <button type="button" ref={denyRef} onClick={deny}>
              Not now
            </button>
            <button type="button" onClick={approve}>
              Go ahead
            </button>
          </div>
        )}
      />,
    )
    const call = tm.call('tickets.close', { id: 8 }, { caller: 'webmcp' })
    await expect.element(button('Not now')).toHaveFocus()

    await userEvent.keyboard('{Escape}')

    expect(await call).toEqual({ status: 'cancelled', by: 'operator' })
    expect(runs).toEqual([])
  })

  it('wraps a long value inside the dialog instead of widening it', async () => {
    const { tm } = setup()
    tm.register({
      name: 'notes.save',
      description: 'Saves a note',
      hints: { consequential: true },
      input: z.object({ text: z.string() }),
      run: () => ok(true),
    })
    await render(<App tm={tm} />)
    void tm.call('notes.save', { text: 'word'.repeat(60) }, { caller: 'inapp' })
    const values = page.getByRole('table', { name: 'Values' })
    await expect.element(values).toBeVisible()

    const box = dialog().element().getBoundingClientRect()
    const table = values.element().getBoundingClientRect()
    expect(table.right).toBeLessThanOrEqual(box.right)
    expect(dialog().element().scrollWidth).toBeLessThanOrEqual(dialog().element().clientWidth)
  })

  it('lays out right to left with logical properties', async () => {
    const { tm } = setup()
    await render(
      <div dir="rtl">
        <App tm={tm} />
      </div>,
    )
    void tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
    await expect.element(dialog()).toBeVisible()

    const deny = button('Deny').element().getBoundingClientRect()
    const approve = button('Approve').element().getBoundingClientRect()
    // The primary action sits at the inline end: the left in a right-to-left page.
    expect(approve.right).toBeLessThan(deny.left)
    expect(getComputedStyle(dialog().element()).textAlign).toBe('start')
  })
})
