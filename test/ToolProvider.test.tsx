import { StrictMode, useState } from 'react'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import {
  ConfirmDialog,
  ToolProvider,
  ToolScope,
  useAgentActivity,
  useConfirmations,
  useTool,
  useToolmark,
} from '@toolmark/react'

describe('ToolProvider', () => {
  it('provides the registry it is given', () => {
    const tm = createToolmark()
    let seen: Toolmark | undefined
    function Probe() {
      seen = useToolmark()
      return null
    }

    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Probe />
        </ToolProvider>
      </StrictMode>,
    )

    expect(seen).toBe(tm)
  })

  it('creates one registry from options and keeps it across renders under StrictMode', () => {
    const seen = new Set<Toolmark>()
    function Probe() {
      const tm = useToolmark()
      seen.add(tm)
      const [n, setN] = useState(0)
      return <button onClick={() => setN(n + 1)}>render {n}</button>
    }
    function App() {
      return (
        <ToolProvider options={{ limits: { confirmationExpiryMs: 3_000 } }}>
          <Probe />
        </ToolProvider>
      )
    }

    render(
      <StrictMode>
        <App />
      </StrictMode>,
    )
    fireEvent.click(screen.getByRole('button'))
    fireEvent.click(screen.getByRole('button'))

    expect(screen.getByRole('button')).toHaveTextContent('render 2')
    expect(seen.size).toBe(1)
    expect([...seen][0].limits.confirmationExpiryMs).toBe(3_000)
  })

  it('lets an inner provider with another registry take over below it', async () => {
    const outer = createToolmark()
    const inner = createToolmark()
    function Tool() {
      useTool({ name: 'here', description: 'Where am I', run: () => ok(null) })
      return null
    }

    render(
      <StrictMode>
        <ToolProvider toolmark={outer}>
          <ToolScope name="outer">
            <ToolProvider toolmark={inner}>
              <Tool />
            </ToolProvider>
          </ToolScope>
        </ToolProvider>
      </StrictMode>,
    )
    await act(async () => {})

    expect(inner.manifest().tools.map((t) => t.name)).toEqual(['here'])
    expect(outer.manifest().tools).toEqual([])
  })
})

describe('useToolmark', () => {
  it('returns an explicit registry without a provider', () => {
    const tm = createToolmark()
    let seen: Toolmark | undefined
    function Probe() {
      seen = useToolmark(tm)
      return null
    }

    render(
      <StrictMode>
        <Probe />
      </StrictMode>,
    )

    expect(seen).toBe(tm)
  })

  it.each([
    ['useToolmark', () => useToolmark()],
    ['useConfirmations', () => useConfirmations()],
    ['useAgentActivity', () => useAgentActivity()],
  ])('makes %s outside a provider throw with the fix in the message', (hook, use) => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    function Orphan() {
      use()
      return null
    }

    expect(() => render(<Orphan />)).toThrow(
      `\`${hook}\` must be used within \`<ToolProvider>\`: wrap your app in ` +
        '`<ToolProvider toolmark={tm}>` (or `<ToolProvider options={...}>`), or pass the ' +
        'registry explicitly as `toolmark`.',
    )
  })

  it('makes components outside a provider name themselves in the error', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})

    expect(() => render(<ConfirmDialog />)).toThrow(/^`<ConfirmDialog>` must be used within/)
    expect(() =>
      render(
        <ToolScope name="x">
          <p />
        </ToolScope>,
      ),
    ).toThrow(/^`<ToolScope>` must be used within/)
  })
})
