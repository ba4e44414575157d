import { StrictMode, useState } from 'react'
import { act, render, screen } from '@testing-library/react'
import { createToolmark } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ToolProvider, useToolAnchor } from '@toolmark/react'

function NewTicketButton({ tool = 'tickets.create', param }: { tool?: string; param?: string }) {
  const anchor = useToolAnchor<HTMLButtonElement>(tool, param)
  return (
    <button type="button" ref={anchor}>
      New ticket
    </button>
  )
}

function App({ tm, children }: { tm: Toolmark; children: React.ReactNode }) {
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>{children}</ToolProvider>
    </StrictMode>
  )
}

describe('useToolAnchor', () => {
  it('anchors the element while it is mounted, under StrictMode, and forgets it after', () => {
    const tm = createToolmark()
    const { unmount } = render(
      <App tm={tm}>
        <NewTicketButton />
      </App>,
    )

    expect(tm.anchor('tickets.create')).toBe(screen.getByRole('button', { name: 'New ticket' }))

    unmount()

    expect(tm.anchor('tickets.create')).toBeUndefined()
  })

  it('anchors a field of a tool under its param, and only there', () => {
    const tm = createToolmark()
    render(
      <App tm={tm}>
        <NewTicketButton tool="tickets.new.fill" param="title" />
      </App>,
    )

    expect(tm.anchor('tickets.new.fill', 'title')).toBe(screen.getByRole('button'))
    expect(tm.anchor('tickets.new.fill')).toBeUndefined()
  })

  it('moves the anchor when the tool name changes, leaving nothing under the old one', () => {
    const tm = createToolmark()
    let rename!: (name: string) => void
    function Renamed() {
      const [tool, setTool] = useState('tickets.create')
      rename = setTool
      return <NewTicketButton tool={tool} />
    }
    render(
      <App tm={tm}>
        <Renamed />
      </App>,
    )

    act(() => rename('tickets.open'))

    expect(tm.anchor('tickets.create')).toBeUndefined()
    expect(tm.anchor('tickets.open')).toBe(screen.getByRole('button'))
  })

  it('uses an explicit registry outside any provider', () => {
    const tm = createToolmark()
    function Explicit() {
      const anchor = useToolAnchor('tickets.create', undefined, { toolmark: tm })
      return <div ref={anchor}>Here</div>
    }
    render(
      <StrictMode>
        <Explicit />
      </StrictMode>,
    )

    expect(tm.anchor('tickets.create')).toBe(screen.getByText('Here'))
  })

  it('throws the provider message outside <ToolProvider>', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => render(<NewTicketButton />)).toThrow(
      /^`useToolAnchor` must be used within `<ToolProvider>`/,
    )
  })
})
