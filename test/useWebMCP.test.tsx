import { StrictMode, useState, type ReactNode } from 'react'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { cleanupWebMCPPolyfill, initializeWebMCPPolyfill } from '@mcp-b/webmcp-polyfill'
import { createToolmark, ok, type ErrorEvent, type Toolmark } from '@toolmark/core'
import type { WebMCPModelContext, WebMCPTool } from '@toolmark/core/webmcp'
import { ToolProvider } from '../src/ToolProvider'
import { useTool } from '../src/useTool'
import { useWebMCP } from '../src/useWebMCP'

const wrap = (tm: Toolmark) =>
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <StrictMode>
        <ToolProvider toolmark={tm}>{children}</ToolProvider>
      </StrictMode>
    )
  }

function Ping() {
  useTool({ name: 'ping', description: 'Answers pong.', run: () => ok('pong') })
  return null
}

/** A host that keeps what is registered, like the browser's list of tools. */
function createModelContext() {
  const tools = new Map<string, WebMCPTool>()
  const modelContext: WebMCPModelContext = {
    async registerTool(tool, options) {
      if (tools.has(tool.name)) throw new Error(`Duplicate tool name: ${tool.name}`)
      tools.set(tool.name, tool)
      options?.signal?.addEventListener('abort', () => {
        if (tools.get(tool.name) === tool) tools.delete(tool.name)
      })
    },
  }
  return { tools, modelContext }
}

afterEach(() => {
  cleanupWebMCPPolyfill()
})

describe('useWebMCP', () => {
  it('stays inactive and reports webmcp_unavailable once when the page has no model context', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    function App() {
      useWebMCP()
      return (
        <>
          <Ping />
          <p>ready</p>
        </>
      )
    }

    render(<App />, { wrapper: wrap(tm) })
    await act(async () => {})

    expect(screen.getByText('ready')).toBeInTheDocument()
    expect('modelContext' in document).toBe(false)
    expect(errors.map((event) => event.code)).toEqual(['webmcp_unavailable'])
  })

  it('registers the tools on the given model context while mounted and removes them on unmount', async () => {
    const tm = createToolmark()
    const { tools, modelContext } = createModelContext()
    function App() {
      useWebMCP({ modelContext })
      return <Ping />
    }

    const view = render(<App />, { wrapper: wrap(tm) })
    await act(async () => {})
    expect([...tools.keys()]).toEqual(['ping'])
    const response = await act(() => tools.get('ping')!.execute({}))
    expect(response.structuredContent).toEqual({ status: 'ok', data: 'pong' })

    view.unmount()
    expect(tools.size).toBe(0)
  })

  it('uses the latest inline filter without registering the tools again', async () => {
    const tm = createToolmark()
    const { tools, modelContext } = createModelContext()
    const registerTool = vi.spyOn(modelContext, 'registerTool')
    function Search() {
      useTool({ name: 'search', description: 'Searches.', run: () => ok([]) })
      return null
    }
    function App() {
      const [onlyPing, setOnlyPing] = useState(false)
      useWebMCP({ modelContext, filter: (entry) => !onlyPing || entry.name === 'ping' })
      return (
        <>
          <Ping />
          <button onClick={() => setOnlyPing(true)}>only ping</button>
          {onlyPing ? <Search /> : null}
        </>
      )
    }

    render(<App />, { wrapper: wrap(tm) })
    await act(async () => {})
    expect([...tools.keys()]).toEqual(['ping'])
    const calls = registerTool.mock.calls.length

    await userEvent.click(screen.getByRole('button', { name: 'only ping' }))
    await act(async () => {})
    // `search` arrived in the same revision as the new filter, which keeps it out.
    expect([...tools.keys()]).toEqual(['ping'])
    expect(registerTool.mock.calls.length).toBe(calls)
  })

  it('serves tools through the WebMCP polyfill, which takes JSON-string input', async () => {
    initializeWebMCPPolyfill()
    const tm = createToolmark()
    function App() {
      useWebMCP()
      return <Ping />
    }

    render(<App />, { wrapper: wrap(tm) })
    await act(async () => {})
    const context = (document as unknown as { modelContext: PolyfillContext }).modelContext
    const listed = await context.getTools()
    expect(listed.map((tool) => tool.name)).toEqual(['ping'])
    const text = await act(() => context.executeTool(listed[0], '{}'))
    expect(JSON.parse(text)).toMatchObject({ structuredContent: { status: 'ok', data: 'pong' } })
  })
})

interface PolyfillContext {
  getTools(): Promise<{ name: string }[]>
  executeTool(tool: { name: string }, input: string): Promise<string>
}
