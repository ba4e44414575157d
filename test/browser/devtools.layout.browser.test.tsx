import { StrictMode } from 'react'
import { render } from 'vitest-browser-react'
import { page, userEvent } from 'vitest/browser'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import { ToolProvider } from '@toolmark/react'
import { ToolmarkDevtools } from '@toolmark/react/devtools'

/** A registry whose tools have the long names, signatures and descriptions of a real form. */
function setup() {
  const tm = createToolmark()
  const ticket = z.object({
    values: z.object({
      title: z.string().optional(),
      description: z.string().optional(),
      priority: z.enum(['low', 'normal', 'high', 'urgent']).optional(),
      category: z.enum(['hardware', 'software', 'network', 'access', 'other']).optional(),
      requesterEmail: z.string().optional(),
      location: z.string().optional(),
      dueDate: z.string().optional(),
    }),
    overwrite: z.boolean().optional(),
  })
  tm.register({
    name: 'helpdesk.tickets.newTicketForm.fill',
    title: 'Fill the new-ticket form',
    description:
      'Fills fields of the new-ticket form with a partial object; fields the person edited are skipped unless overwrite is true. Returns the changes and the skipped fields.',
    input: ticket,
    hints: { untrustedContent: true },
    run: () => ok({ changes: [], skipped: [] }),
  })
  tm.register({
    name: 'helpdesk.tickets.closeWithResolutionNote',
    title: 'Close a ticket',
    description: 'Closes a ticket with a resolution note.',
    input: z.object({ id: z.number().int(), note: z.string() }),
    hints: { consequential: true, destructive: true, untrustedContent: true },
    summary: ({ id }) => `Close ticket #${id} and write the resolution note below`,
    run: (input) => ok({ closed: input.id, note: 'A long note '.repeat(20) }),
  })
  return tm
}

function App({ tm }: { tm: ReturnType<typeof createToolmark> }) {
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <ToolmarkDevtools initialIsOpen />
      </ToolProvider>
    </StrictMode>
  )
}

const devtools = () => page.getByRole('complementary', { name: 'Toolmark devtools' })
const tab = (name: string) => page.getByRole('tab', { name, exact: false })

/** What sticks out of the panel sideways, or out of the window: empty when everything fits. */
function overflow(): string[] {
  const root = devtools().element()
  const panel = root.querySelector('[data-part="panel"]')!
  const box = panel.getBoundingClientRect()
  const out: string[] = []
  if (box.left < 0 || box.right > window.innerWidth)
    out.push(`panel ${Math.round(box.left)}–${Math.round(box.right)} in ${window.innerWidth}`)
  for (const scroller of panel.querySelectorAll<HTMLElement>('[role="tabpanel"], pre')) {
    if (scroller.scrollWidth > scroller.clientWidth + 1)
      out.push(`${scroller.tagName} scrolls ${scroller.scrollWidth} > ${scroller.clientWidth}`)
  }
  for (const element of panel.querySelectorAll<HTMLElement>('*')) {
    const rect = element.getBoundingClientRect()
    if (rect.width === 0) continue
    if (rect.left < box.left - 1 || rect.right > box.right + 1) {
      const name = element.getAttribute('aria-label') ?? element.textContent?.slice(0, 30)
      out.push(`${element.tagName} "${name}" ${Math.round(rect.left)}–${Math.round(rect.right)}`)
    }
  }
  return out
}

/** Every button of the open tab whose whole box is not inside the panel. */
function hiddenActions(): string[] {
  const panel = devtools().element().querySelector('[data-part="panel"]')!
  const box = panel.getBoundingClientRect()
  return [...panel.querySelectorAll<HTMLElement>('[role="tabpanel"] button, [role="tab"]')]
    .filter((button) => {
      const rect = button.getBoundingClientRect()
      return rect.width === 0 || rect.left < box.left || rect.right > box.right
    })
    .map((button) => button.getAttribute('aria-label') ?? button.textContent ?? '')
}

describe.each([
  { name: 'a phone', width: 360, height: 740 },
  { name: 'a 614 px panel', width: 646, height: 800 },
  { name: 'a desktop', width: 1280, height: 800 },
])('ToolmarkDevtools on $name ($width px)', ({ width, height }) => {
  beforeEach(async () => {
    await page.viewport(width, height)
  })

  it('fits every tab in its panel: nothing sideways, every action in view', async () => {
    const tm = setup()
    await render(<App tm={tm} />)
    await expect.element(tab('Tools')).toHaveAttribute('aria-selected', 'true')
    await userEvent.click(
      page.getByRole('button', { name: 'Input schema of helpdesk.tickets.newTicketForm.fill' }),
    )
    expect(overflow()).toEqual([])
    expect(hiddenActions()).toEqual([])
    const panelWidth = devtools().element().querySelector('[data-part="panel"]')!.clientWidth
    expect(panelWidth).toBeGreaterThan(Math.min(width - 48, 600))

    await userEvent.click(
      page.getByRole('button', { name: 'Try helpdesk.tickets.closeWithResolutionNote' }),
    )
    await expect.element(tab('Call')).toHaveAttribute('aria-selected', 'true')
    await userEvent.click(page.getByRole('button', { name: 'Run', exact: true }))
    await expect
      .poll(() => devtools().element().querySelector('[data-part="result"]')?.textContent)
      .toMatch(/needs_confirmation/)
    expect(overflow()).toEqual([])
    expect(hiddenActions()).toEqual([])

    await tm.call(
      'helpdesk.tickets.closeWithResolutionNote',
      { id: 4, note: 'Replaced the toner' },
      { caller: 'test' },
    )
    await userEvent.click(tab('Confirmations'))
    await expect.element(page.getByText(/Close ticket #4/).first()).toBeVisible()
    expect(overflow()).toEqual([])
    expect(hiddenActions()).toEqual([])

    await userEvent.click(tab('Activity'))
    await expect
      .element(page.getByText('helpdesk.tickets.closeWithResolutionNote').first())
      .toBeVisible()
    expect(overflow()).toEqual([])
    expect(hiddenActions()).toEqual([])
  })
})
