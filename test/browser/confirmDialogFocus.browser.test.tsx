import { StrictMode, useState } from 'react'
import { render } from 'vitest-browser-react'
import { page, userEvent } from 'vitest/browser'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'

/** A registry with a consequential tool; `runs` records every ticket it closed. */
function setup() {
  const tm = createToolmark()
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

/**
 * A chat-like page: a suggestion that goes away once used (as chat suggestions do), a composer,
 * and a heading. `opener` says what happens to the button that started the request.
 */
function Chat({
  tm,
  opener,
  withFallback = true,
}: {
  tm: Toolmark
  opener: 'stays' | 'unmounts' | 'disabled' | 'inert'
  withFallback?: boolean
}) {
  const [used, setUsed] = useState(false)
  const start = () => {
    setUsed(true)
    void tm.call('tickets.close', { id: 3 }, { caller: 'inapp' })
  }
  const gone = opener === 'unmounts' && used
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <main>
          <h1 tabIndex={-1}>Tickets</h1>
          <div inert={(opener === 'inert' && used) || undefined}>
            {gone ? null : (
              <button type="button" disabled={opener === 'disabled' && used} onClick={start}>
                close ticket 3
              </button>
            )}
          </div>
          <input aria-label="Message the assistant" />
        </main>
        <ConfirmDialog
          returnFocus={
            withFallback
              ? () => document.querySelector<HTMLElement>('[aria-label="Message the assistant"]')
              : undefined
          }
        />
      </ToolProvider>
    </StrictMode>
  )
}

const dialog = () => page.getByRole('alertdialog')
const button = (name: string) => page.getByRole('button', { name, exact: true })
const composer = () => page.getByRole('textbox', { name: 'Message the assistant' })

describe('where focus goes after ConfirmDialog', () => {
  it('goes back to the element that started the request when it is still there', async () => {
    const { tm } = setup()
    await render(<Chat tm={tm} opener="stays" />)
    await userEvent.click(button('close ticket 3'))
    await expect.element(button('Deny')).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    await expect.element(dialog()).not.toBeInTheDocument()
    await expect.element(button('close ticket 3')).toHaveFocus()
  })

  it('goes to returnFocus() after an approval when the element that started it unmounted', async () => {
    const { tm, runs } = setup()
    await render(<Chat tm={tm} opener="unmounts" />)
    await userEvent.click(button('close ticket 3'))
    await expect.element(button('Deny')).toHaveFocus()
    expect(button('close ticket 3').query()).toBeNull()
    await userEvent.click(button('Approve'))
    await expect.element(dialog()).not.toBeInTheDocument()
    expect(runs).toEqual([3])
    await expect.element(composer()).toHaveFocus()
  })

  it('goes to returnFocus() after a denial when the element that started it is disabled now', async () => {
    const { tm, runs } = setup()
    await render(<Chat tm={tm} opener="disabled" />)
    await userEvent.click(button('close ticket 3'))
    await expect.element(button('Deny')).toHaveFocus()
    await userEvent.click(button('Deny'))
    await expect.element(dialog()).not.toBeInTheDocument()
    expect(runs).toEqual([])
    await expect.element(composer()).toHaveFocus()
  })

  it('goes to returnFocus() when the element that started it sits in an inert region now', async () => {
    const { tm } = setup()
    await render(<Chat tm={tm} opener="inert" />)
    await userEvent.click(button('close ticket 3'))
    await expect.element(button('Deny')).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    await expect.element(dialog()).not.toBeInTheDocument()
    await expect.element(composer()).toHaveFocus()
  })

  it('goes to returnFocus() when nothing had focus before the dialog, and when the request is withdrawn', async () => {
    const { tm } = setup()
    await render(<Chat tm={tm} opener="stays" />)
    expect(document.activeElement).toBe(document.body)
    const controller = new AbortController()
    const call = tm.call('tickets.close', { id: 4 }, { caller: 'mcp', signal: controller.signal })
    await expect.element(button('Deny')).toHaveFocus()
    // The agent gives up (Stop, a cancellation): the dialog closes without an answer.
    controller.abort()
    expect(await call).toEqual({ status: 'cancelled', by: 'signal' })
    await expect.element(dialog()).not.toBeInTheDocument()
    await expect.element(composer()).toHaveFocus()
  })

  it('leaves focus on the page without returnFocus when the element that started it is gone', async () => {
    const { tm } = setup()
    await render(<Chat tm={tm} opener="unmounts" withFallback={false} />)
    await userEvent.click(button('close ticket 3'))
    await expect.element(button('Deny')).toHaveFocus()
    await userEvent.click(button('Deny'))
    await expect.element(dialog()).not.toBeInTheDocument()
    expect(document.activeElement).toBe(document.body)
  })

  it('does not move focus to a returnFocus() target that cannot take it', async () => {
    const { tm } = setup()
    await render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <input aria-label="Hidden composer" hidden />
          <ConfirmDialog
            returnFocus={() =>
              document.querySelector<HTMLElement>('[aria-label="Hidden composer"]')
            }
          />
        </ToolProvider>
      </StrictMode>,
    )
    void tm.call('tickets.close', { id: 5 }, { caller: 'inapp' })
    await expect.element(button('Deny')).toHaveFocus()
    await userEvent.click(button('Deny'))
    await expect.element(dialog()).not.toBeInTheDocument()
    expect(document.activeElement).toBe(document.body)
  })
})
