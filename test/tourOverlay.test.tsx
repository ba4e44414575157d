import { StrictMode } from 'react'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { startTour } from '@toolmark/core/tour'
import type { Tour, TourOptions, TourStep } from '@toolmark/core/tour'
import { ToolProvider, useTool, useToolAnchor } from '@toolmark/react'
import { TourOverlay, type TourOverlayProps } from '@toolmark/react/tour'

function Tickets() {
  useTool({
    name: 'tickets.find',
    description: 'Finds tickets.',
    input: z.object({ query: z.string() }),
    hints: { readOnly: true },
    run: () => ok([]),
  })
  const search = useToolAnchor<HTMLInputElement>('tickets.find', 'query')
  const list = useToolAnchor<HTMLUListElement>('tickets.find')
  return (
    <main>
      <button type="button">Show me how</button>
      <input aria-label="Search" ref={search} />
      <ul aria-label="Tickets" ref={list} />
    </main>
  )
}

function App({ tm, ...props }: { tm: Toolmark } & TourOverlayProps) {
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <Tickets />
        <TourOverlay {...props} />
      </ToolProvider>
    </StrictMode>
  )
}

const steps: TourStep[] = [
  { tool: 'tickets.find', field: 'query', title: 'Search', text: 'Type what broke.' },
  { tool: 'tickets.find', title: 'Results', text: 'Tickets show here.' },
]

function begin(tm: Toolmark, options: TourOptions): Tour {
  let tour!: Tour
  act(() => {
    tour = startTour(tm, options)
  })
  return tour
}

const panel = () => screen.getByRole('dialog')
const stepText = () => panel().querySelector('[data-part=text]')
const button = (name: string) => screen.getByRole('button', { name })

describe('<TourOverlay>', () => {
  it('renders nothing while no tour runs, nor after one ended', () => {
    const tm = createToolmark()
    const { container } = render(<App tm={tm} />)
    expect(container.querySelector('[data-toolmark-tour]')).toBeNull()

    const tour = begin(tm, { mode: 'show', steps })
    expect(container.querySelector('[data-toolmark-tour]')).not.toBeNull()
    act(() => tour.stop())

    expect(container.querySelector('[data-toolmark-tour]')).toBeNull()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('shows the step in a non-modal dialog labelled by its title and described by its text', () => {
    const tm = createToolmark()
    render(<App tm={tm} />)

    begin(tm, { mode: 'show', steps })

    expect(panel()).toHaveAttribute('aria-modal', 'false')
    expect(panel()).toHaveAccessibleName('Search')
    expect(panel()).toHaveAccessibleDescription('Type what broke.')
    expect(panel()).toHaveTextContent('Step 1 of 2')
    expect(stepText()).toHaveFocus()
    expect(stepText()).toHaveTextContent('Type what broke.')
    expect(document.querySelector('[data-part=highlight]')).toHaveAttribute('aria-hidden', 'true')
  })

  it('goes Next and Back in a show tour; Next says Done on the last step and ends the tour', async () => {
    const tm = createToolmark()
    render(<App tm={tm} />)
    const tour = begin(tm, { mode: 'show', steps })
    expect(button('Back')).toBeDisabled()

    await userEvent.click(button('Next'))
    expect(panel()).toHaveAccessibleName('Results')
    expect(panel()).toHaveTextContent('Step 2 of 2')
    expect(stepText()).toHaveFocus()
    expect(stepText()).toHaveTextContent('Tickets show here.')

    await userEvent.click(button('Back'))
    expect(panel()).toHaveAccessibleName('Search')

    await userEvent.click(button('Next'))
    await userEvent.click(button('Done'))

    // Step 1 was passed twice (Next, Back, Next): it still counts once.
    expect(await tour.finished).toEqual({ status: 'ok', data: { completed: 2, skipped: 0 } })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('stops with its Stop button, and gives focus back to where it was before the tour', async () => {
    const tm = createToolmark()
    render(<App tm={tm} />)
    await userEvent.click(button('Show me how'))
    const tour = begin(tm, { mode: 'show', steps })
    expect(button('Show me how')).not.toHaveFocus()

    await userEvent.click(button('Stop tour'))

    expect(tour.getSnapshot().status).toBe('stopped')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(button('Show me how')).toHaveFocus()
  })

  it('stops when Escape is pressed anywhere, but not while a confirmation is asked', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket.',
      input: z.object({ id: z.number() }),
      hints: { consequential: true },
      run: () => ok(true),
    })
    render(<App tm={tm} />)
    const tour = begin(tm, { mode: 'show', steps })
    await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
    expect(tm.confirmations.list()).toHaveLength(1)

    await userEvent.keyboard('{Escape}')
    expect(tour.getSnapshot().status).toBe('running')

    await act(() => tm.confirmations.reject(tm.confirmations.list()[0].id))
    await userEvent.click(screen.getByRole('textbox', { name: 'Search' }))
    await userEvent.keyboard('{Escape}')

    expect(tour.getSnapshot().status).toBe('stopped')
  })

  it('stops on Escape while the only request waiting is one its caller shows itself', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket.',
      input: z.object({ id: z.number() }),
      hints: { consequential: true },
      run: () => ok(true),
    })
    render(<App tm={tm} />)
    const tour = begin(tm, { mode: 'show', steps })
    // An AG-UI session in interrupt mode asks in its own UI: no dialog opens for it.
    void tm.call('tickets.close', { id: 1 }, { observe: { presentsConfirmations: true } })
    await vi.waitFor(() => expect(tm.confirmations.list()).toHaveLength(1))
    expect(tm.confirmations.list()[0].presentedByCaller).toBe(true)

    await userEvent.keyboard('{Escape}')

    expect(tour.getSnapshot().status).toBe('stopped')
  })

  it('offers Back and Skip in a guide tour, and shows what is wrong in a status region', async () => {
    const tm = createToolmark()
    render(<App tm={tm} />)
    const tour = begin(tm, { mode: 'guide', steps })
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull()

    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'x')
    expect(tour.getSnapshot().status).toBe('waiting')

    await userEvent.click(button('Skip'))
    expect(panel()).toHaveAccessibleName('Results')
    await userEvent.click(button('Skip'))

    expect(await tour.finished).toEqual({ status: 'ok', data: { completed: 0, skipped: 2 } })
  })

  it('shows only Stop in a do tour, with what it is doing', async () => {
    const tm = createToolmark()
    render(<App tm={tm} />)
    const tour = begin(tm, { mode: 'do', pauseMs: 60_000, steps })

    expect(screen.getByRole('status')).toHaveTextContent('Doing it…')
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Show me how',
      'Stop tour',
    ])

    await userEvent.click(button('Stop tour'))
    expect(tour.getSnapshot().status).toBe('stopped')
  })

  it('shows agent text as text: markup stays visible and invisible characters become marks', () => {
    const tm = createToolmark()
    render(<App tm={tm} />)

    begin(tm, {
      mode: 'show',
      steps: [
        {
          tool: 'tickets.find',
          title: 'Click <b>here</b>',
          text: 'Pay \u202Eevil\u202C now <img src=x onerror=alert(1)>',
        },
      ],
    })

    expect(panel().querySelector('b, img')).toBeNull()
    expect(panel()).toHaveAccessibleName('Click <b>here</b>')
    const text = screen.getByText(/Pay/)
    expect(text).toHaveTextContent('Pay ⟦RLO⟧evil⟦PDF⟧ now <img src=x onerror=alert(1)>')
    expect(text.textContent).not.toContain('\u202E')
    expect(panel().querySelector('[data-part=invisible]')).toHaveAttribute(
      'title',
      'Hidden character U+202E',
    )
  })

  it('takes labels, and leaves its stylesheet out when unstyled, passing className and style', () => {
    const tm = createToolmark()
    const { container } = render(
      <App
        tm={tm}
        unstyled
        className="my-tour"
        style={{ color: 'red' }}
        labels={{ progress: (i, n) => `Étape ${i} sur ${n}`, next: 'Suivant', stop: 'Arrêter' }}
      />,
    )

    begin(tm, { mode: 'show', steps })

    expect(panel()).toHaveTextContent('Étape 1 sur 2')
    expect(button('Suivant')).toBeInTheDocument()
    expect(button('Arrêter')).toBeInTheDocument()
    expect(button('Back')).toBeInTheDocument()
    const root = container.querySelector('[data-toolmark-tour]') as HTMLElement
    expect(root).toHaveClass('my-tour')
    expect(root.style.color).toBe('red')
    expect(root).toHaveAttribute('data-mode', 'show')
    expect(root.querySelector('style')).toBeNull()
  })

  it('injects its stylesheet by default', () => {
    const tm = createToolmark()
    const { container } = render(<App tm={tm} />)
    begin(tm, { mode: 'show', steps })
    expect(container.querySelector('[data-toolmark-tour] style')?.textContent).toContain(
      '[data-toolmark-tour]',
    )
  })

  it('throws the provider message outside <ToolProvider>', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => render(<TourOverlay />)).toThrow(
      /^`<TourOverlay>` must be used within `<ToolProvider>`/,
    )
  })
})
