import { StrictMode } from 'react'
import { render } from 'vitest-browser-react'
import { cdp, page, userEvent } from 'vitest/browser'
import axe from 'axe-core'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { startTour } from '@toolmark/core/tour'
import type { Tour, TourOptions, TourStep } from '@toolmark/core/tour'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'
import { useFormTool } from '@toolmark/react/rhf'
import { TourOverlay } from '@toolmark/react/tour'

const schema = z.object({
  title: z.string().min(3, 'At least 3 characters'),
  priority: z.enum(['low', 'normal', 'high']),
})
type Values = z.infer<typeof schema>

/** A new-ticket form served with `useFormTool`: its fields anchor `ticket.fill` by themselves. */
function TicketForm({ onSubmit }: { onSubmit: (values: Values) => unknown }) {
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { title: '', priority: 'normal' },
  })
  useFormTool(form, {
    name: 'ticket',
    title: 'Create ticket',
    description: 'The new-ticket form.',
    schema,
    onSubmit,
  })
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} style={{ display: 'grid', gap: 8, width: 320 }}>
      <label>
        Title <input {...form.register('title')} />
      </label>
      <label>
        Priority
        <select {...form.register('priority')}>
          <option value="low">Low</option>
          <option value="normal">Normal</option>
          <option value="high">High</option>
        </select>
      </label>
      <button type="submit">Create</button>
    </form>
  )
}

async function setup() {
  const tm = createToolmark()
  const created: Values[] = []
  await render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <main>
          <h1>Help desk</h1>
          <button type="button">Show me how</button>
          <TicketForm onSubmit={(values) => (created.push(values), { id: 7 })} />
        </main>
        <TourOverlay />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>,
  )
  await expect.poll(() => tm.anchor('ticket.fill', 'title')).toBeDefined()
  return { tm, created }
}

const steps: TourStep[] = [
  { tool: 'ticket.fill', field: 'title', title: 'Title', text: 'Say what broke, in a few words.' },
  { tool: 'ticket.fill', field: 'priority', title: 'Priority', text: 'How urgent it is.' },
  { tool: 'ticket.submit', title: 'Create', text: 'Send it to the help desk.' },
]

const begin = (tm: Toolmark, options: TourOptions): Tour => startTour(tm, options)
const panel = () => page.getByRole('dialog')
const stepText = () => panel().element().querySelector('[data-part=text]') as HTMLElement
const overlay = () => document.querySelector('[data-toolmark-tour]') as HTMLElement
const titleField = () => page.getByRole('textbox', { name: 'Title' })
const button = (name: string) => page.getByRole('button', { name, exact: true })

async function violations(element: Element) {
  const results = await axe.run(element)
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)
}

describe('<TourOverlay> in Chromium', () => {
  afterEach(async () => {
    await cdp().send('Emulation.setEmulatedMedia', { features: [] })
  })

  it('moves focus to the text of each step, and back to the start when it ends', async () => {
    const { tm } = await setup()
    await userEvent.click(button('Show me how'))
    begin(tm, { mode: 'show', steps })

    await expect.element(panel()).toHaveAccessibleName('Title')
    await expect.element(stepText()).toHaveFocus()
    await userEvent.click(button('Next'))
    await expect.element(panel()).toHaveAccessibleName('Priority')
    await expect.element(stepText()).toHaveFocus()
    await userEvent.click(button('Back'))
    await expect.element(stepText()).toHaveTextContent('Say what broke, in a few words.')
    await expect.element(stepText()).toHaveFocus()

    await userEvent.click(button('Next'))
    await userEvent.click(button('Next'))
    await userEvent.click(button('Done'))

    await expect.element(panel()).not.toBeInTheDocument()
    await expect.element(button('Show me how')).toHaveFocus()
  })

  it('stops on Escape, from the panel or from the page', async () => {
    const { tm } = await setup()
    await userEvent.click(button('Show me how'))
    const first = begin(tm, { mode: 'show', steps })
    await expect.element(panel()).toBeVisible()
    await expect.element(stepText()).toHaveFocus()

    await userEvent.keyboard('{Escape}')

    expect(first.getSnapshot().status).toBe('stopped')
    await expect.element(panel()).not.toBeInTheDocument()
    await expect.element(button('Show me how')).toHaveFocus()

    const second = begin(tm, { mode: 'guide', steps })
    await expect.element(panel()).toBeVisible()
    await userEvent.click(titleField())
    await userEvent.keyboard('{Escape}')
    expect(second.getSnapshot().status).toBe('stopped')
    await expect.element(panel()).not.toBeInTheDocument()
  })

  it('highlights the step element and places the panel next to it', async () => {
    const { tm } = await setup()
    begin(tm, { mode: 'show', steps })
    await expect.element(panel()).toBeVisible()

    const field = titleField().element().getBoundingClientRect()
    const ring = document.querySelector('[data-part=highlight]')!.getBoundingClientRect()
    const box = panel().element().getBoundingClientRect()
    expect(ring.left).toBeLessThanOrEqual(field.left)
    expect(ring.right).toBeGreaterThanOrEqual(field.right)
    expect(ring.top).toBeLessThanOrEqual(field.top)
    expect(ring.bottom).toBeGreaterThanOrEqual(field.bottom)
    const below = box.top >= field.bottom
    const above = box.bottom <= field.top
    expect(below || above).toBe(true)
    expect(overlay().dataset.placement).toBe(below ? 'below' : 'above')
  })

  for (const mode of ['show', 'guide', 'do'] as const) {
    it(`has no axe violations in a ${mode} tour, light and dark`, async () => {
      const { tm } = await setup()
      begin(tm, { mode, pauseMs: 60_000, steps })
      await expect.element(panel()).toBeVisible()
      if (mode === 'guide') {
        await userEvent.type(titleField(), 'ab')
        await expect.element(page.getByRole('status')).toHaveTextContent('At least 3 characters')
      }
      expect(await violations(overlay())).toEqual([])

      await cdp().send('Emulation.setEmulatedMedia', {
        features: [{ name: 'prefers-color-scheme', value: 'dark' }],
      })
      expect(getComputedStyle(panel().element()).backgroundColor).toBe('rgb(27, 30, 36)')
      expect(await violations(overlay())).toEqual([])
    })
  }

  it('fits a 390px-wide phone, docked to the bottom, with no sideways scroll', async () => {
    await page.viewport(390, 844)
    try {
      const { tm } = await setup()
      begin(tm, {
        mode: 'show',
        steps: [
          {
            ...steps[0],
            text: 'A long explanation that would push a fixed-width panel off a small screen. '.repeat(
              4,
            ),
          },
        ],
      })
      await expect.element(panel()).toBeVisible()

      const box = panel().element().getBoundingClientRect()
      expect(box.width).toBeLessThanOrEqual(390)
      expect(box.left).toBeGreaterThanOrEqual(0)
      expect(box.right).toBeLessThanOrEqual(document.documentElement.clientWidth)
      expect(box.bottom).toBeLessThanOrEqual(window.innerHeight)
      expect(window.innerHeight - box.bottom).toBeLessThan(16)
      expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(
        document.documentElement.clientWidth,
      )
      expect(await violations(overlay())).toEqual([])
    } finally {
      await page.viewport(1280, 720)
    }
  })

  it('moves without transitions and scrolls without smoothness under reduced motion', async () => {
    const { tm } = await setup()
    const title = titleField().element()
    const scrolls: (ScrollIntoViewOptions | boolean | undefined)[] = []
    const scroll = title.scrollIntoView.bind(title)
    title.scrollIntoView = (options) => (scrolls.push(options), scroll(options))

    const moving = begin(tm, { mode: 'show', steps })
    await expect.element(panel()).toBeVisible()
    expect(getComputedStyle(panel().element()).transitionProperty).not.toBe('none')
    expect(scrolls.at(-1)).toEqual({ block: 'center', behavior: 'smooth' })
    moving.stop()

    await cdp().send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-reduced-motion', value: 'reduce' }],
    })
    begin(tm, { mode: 'show', steps })
    await expect.element(panel()).toBeVisible()

    for (const part of ['panel', 'highlight']) {
      const element = overlay().querySelector(`[data-part=${part}]`)!
      expect(getComputedStyle(element).transitionProperty).toBe('none')
      expect(getComputedStyle(element).animationName).toBe('none')
    }
    expect(scrolls.at(-1)).toEqual({ block: 'center', behavior: 'auto' })
  })

  it('guides a person through a react-hook-form form as they type', async () => {
    const { tm } = await setup()
    const tour = begin(tm, { mode: 'guide', steps })
    await expect.element(panel()).toHaveAccessibleName('Title')
    const title = titleField()

    await userEvent.type(title, 'ab')

    await expect.element(page.getByRole('status')).toHaveTextContent('At least 3 characters')
    expect(tour.getSnapshot()).toMatchObject({ status: 'waiting', index: 0 })

    await userEvent.type(title, 'cd')

    // The priority holds a good value already: that step is done too, on to the last one.
    await expect.element(panel()).toHaveAccessibleName('Create')
    expect(tour.getSnapshot().index).toBe(2)
    expect(page.getByRole('status').element()).not.toHaveTextContent('At least 3 characters')
    // The person was typing: focus stays in the field, and the new step is announced.
    await expect.element(title).toHaveFocus()
    await expect.element(page.getByRole('status')).toHaveTextContent('Step 3 of 3: Create')
    await expect.element(title).toHaveValue('abcd')

    await userEvent.click(button('Create'))

    expect(await tour.finished).toMatchObject({ status: 'ok' })
    await expect.element(panel()).not.toBeInTheDocument()
  })

  it('does a step that needs approval in <ConfirmDialog> on top of the tour, then goes on', async () => {
    const { tm, created } = await setup()
    const tour = begin(tm, {
      mode: 'do',
      pauseMs: 0,
      steps: [{ ...steps[0], value: 'Printer jammed' }, { ...steps[1], value: 'high' }, steps[2]],
    })

    const dialog = page.getByRole('alertdialog')
    await expect.element(dialog).toBeVisible()
    await expect.element(panel()).toHaveAccessibleName('Create')
    await expect.element(page.getByRole('status')).toHaveTextContent('Waiting for your approval')
    expect(tour.getSnapshot().status).toBe('confirming')
    await expect.element(titleField()).toHaveValue('Printer jammed')
    // The dialog is in the top layer: above the tour, wherever the two meet.
    expect(dialog.element().matches(':modal')).toBe(true)
    const box = dialog.element().getBoundingClientRect()
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
    expect(dialog.element().contains(hit)).toBe(true)
    // Escape belongs to the dialog while it asks (it denies); the tour would stop with it.
    expect(created).toEqual([])

    await userEvent.click(button('Approve'))

    expect(await tour.finished).toMatchObject({ status: 'ok' })
    expect(created).toEqual([{ title: 'Printer jammed', priority: 'high' }])
    await expect.element(dialog).not.toBeInTheDocument()
    await expect.element(panel()).not.toBeInTheDocument()
  })

  it('keeps going under the dialog when Escape denies there, ending only on the denial', async () => {
    const { tm } = await setup()
    const tour = begin(tm, { mode: 'do', pauseMs: 0, steps: [steps[2]] })
    await expect.element(page.getByRole('alertdialog')).toBeVisible()
    const stops: string[] = []
    tour.on((event) => stops.push(event.type))

    await userEvent.keyboard('{Escape}')

    // The denial ends the tour (core: the person said no); the overlay did not stop it first.
    expect(await tour.finished).toEqual({ status: 'cancelled', by: 'operator' })
    expect(stops).toEqual(['stopped'])
    await expect.element(page.getByRole('alertdialog')).not.toBeInTheDocument()
  })
})
