// @vitest-environment node
import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import {
  ConfirmDialog,
  ToolProvider,
  ToolScope,
  useAgentActivity,
  useConfirmations,
  useTool,
} from '@toolmark/react'

function Counter() {
  const increment = useTool({
    name: 'increment',
    description: 'Adds one',
    input: z.object({ by: z.number() }),
    run: ({ by }) => ok(by),
  })
  return (
    <p>{`${increment.name}: ${increment.status} / ${increment.lastResult ? 'result' : 'no result'}`}</p>
  )
}

function Pending() {
  const { items } = useConfirmations()
  return <p>{`${items.length} pending`}</p>
}

function Activity() {
  const activity = useAgentActivity()
  return <p>{`${activity.length} calls`}</p>
}

function App({ tm }: { tm: ReturnType<typeof createToolmark> }) {
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <ToolScope name="counter">
          <Counter />
        </ToolScope>
        <Pending />
        <Activity />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>
  )
}

describe('server rendering', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('runs in an environment without window or document', () => {
    expect(typeof window).toBe('undefined')
    expect(typeof document).toBe('undefined')
  })

  it('registers nothing, warns about nothing and renders the server snapshots', () => {
    const error = vi.spyOn(console, 'error')
    const warn = vi.spyOn(console, 'warn')
    const tm = createToolmark()
    const rev = tm.rev

    const html = renderToString(<App tm={tm} />)

    expect(html).toContain('counter.increment: idle / no result')
    expect(html).toContain('0 pending')
    expect(html).toContain('0 calls')
    expect(html).toMatch(/<dialog[^>]*role="alertdialog"/)
    expect(html).not.toMatch(/<dialog[^>]*\sopen/)
    expect(tm.manifest().tools).toEqual([])
    expect(tm.rev).toBe(rev)
    expect(tm.confirmations.hasPresenter()).toBe(false)
    expect(error).not.toHaveBeenCalled()
    expect(warn).not.toHaveBeenCalled()
  })

  it('renders the server snapshots even when the registry already holds state', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      run: () => ok(true),
    })
    await tm.call('close', {}, { caller: 'inapp' })
    expect(tm.confirmations.list()).toHaveLength(1)

    const html = renderToString(<App tm={tm} />)

    expect(html).toContain('0 pending')
    expect(html).toContain('0 calls')
    expect(html).not.toContain('Approve')
  })

  it('creates a registry from options without registering anything', () => {
    const error = vi.spyOn(console, 'error')

    const html = renderToString(
      <ToolProvider options={{}}>
        <Counter />
      </ToolProvider>,
    )

    expect(html).toContain('increment: idle')
    expect(error).not.toHaveBeenCalled()
  })
})
