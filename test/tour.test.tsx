import { StrictMode } from 'react'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { startTour } from '@toolmark/core/tour'
import type { Tour, TourStep } from '@toolmark/core/tour'
import { ToolProvider, useTool, useToolAnchor } from '@toolmark/react'
import { useTour } from '@toolmark/react/tour'

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
    <>
      <input aria-label="Search" ref={search} />
      <ul aria-label="Tickets" ref={list} />
    </>
  )
}

/** What `useTour` sees, written out as text. */
function TourState() {
  const { snapshot, next, stop } = useTour()
  return (
    <div>
      <p data-testid="state">
        {snapshot
          ? `${snapshot.mode} ${snapshot.status} ${snapshot.index} ${snapshot.step?.title ?? '-'}`
          : 'none'}
      </p>
      <button type="button" onClick={next}>
        Next
      </button>
      <button type="button" onClick={stop}>
        Stop
      </button>
    </div>
  )
}

function App({ tm }: { tm: Toolmark }) {
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <Tickets />
        <TourState />
      </ToolProvider>
    </StrictMode>
  )
}

const steps: TourStep[] = [
  { tool: 'tickets.find', field: 'query', title: 'Search', text: 'Type what broke.' },
  { tool: 'tickets.find', title: 'Results', text: 'Tickets show here.' },
]

const state = () => screen.getByTestId('state')

describe('useTour', () => {
  it('follows a tour started elsewhere with startTour, and its moves', async () => {
    const tm = createToolmark()
    render(<App tm={tm} />)
    expect(state()).toHaveTextContent('none')

    let tour!: Tour
    act(() => {
      tour = startTour(tm, { mode: 'show', steps })
    })

    expect(state()).toHaveTextContent('show running 0 Search')
    expect(tour.getSnapshot().anchor).toBe(screen.getByRole('textbox', { name: 'Search' }))

    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(state()).toHaveTextContent('show running 1 Results')

    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(state()).toHaveTextContent('show done 1 -')
    expect(await tour.finished).toEqual({ status: 'ok', data: { completed: 2, skipped: 0 } })
  })

  it('follows the second tour when it replaces the first', () => {
    const tm = createToolmark()
    render(<App tm={tm} />)
    let first!: Tour
    let second!: Tour
    act(() => {
      first = startTour(tm, { mode: 'show', steps })
    })

    act(() => {
      second = startTour(tm, { mode: 'guide', steps: [steps[1]] })
    })

    expect(first.getSnapshot().status).toBe('stopped')
    expect(state()).toHaveTextContent('guide waiting 0 Results')
    act(() => first.next())
    expect(state()).toHaveTextContent('guide waiting 0 Results')
    act(() => second.stop())
    expect(state()).toHaveTextContent('guide stopped 0 Results')
  })

  it('starts a tour itself, and stops it', async () => {
    const tm = createToolmark()
    function Start() {
      const { start } = useTour()
      return (
        <button type="button" onClick={() => start({ mode: 'show', steps })}>
          Show me how
        </button>
      )
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tickets />
          <Start />
          <TourState />
        </ToolProvider>
      </StrictMode>,
    )

    await userEvent.click(screen.getByRole('button', { name: 'Show me how' }))
    expect(state()).toHaveTextContent('show running 0 Search')

    await userEvent.click(screen.getByRole('button', { name: 'Stop' }))
    expect(state()).toHaveTextContent('show stopped 0 Search')
  })

  it('throws the provider message outside <ToolProvider>', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => render(<TourState />)).toThrow(/^`useTour` must be used within `<ToolProvider>`/)
  })
})
