import { StrictMode } from 'react'
import { beforeEach, describe, expect, it } from 'vitest'
import { cdp, page } from 'vitest/browser'
import { render } from 'vitest-browser-react'
import { z } from 'zod'
import { createToolmark, ok, type ResultEvent, type Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, useTool } from '@toolmark/react'
import { useWebMCP } from '../../src/useWebMCP'

// Native WebMCP in Chromium (`--enable-features=WebMCP`): `executeTool` takes an object and
// answers the tool's return value as a JSON string.

interface RegisteredTool {
  name: string
  title: string
  description: string
  inputSchema?: Record<string, unknown>
  annotations?: Record<string, boolean>
}

interface NativeModelContext {
  getTools(): Promise<RegisteredTool[]>
  executeTool(
    tool: RegisteredTool,
    input: object,
    options?: { signal?: AbortSignal },
  ): Promise<string>
}

const modelContext = () =>
  (document as unknown as { modelContext: NativeModelContext }).modelContext

const toolNames = async () => (await modelContext().getTools()).map((tool) => tool.name).sort()

async function getTool(name: string): Promise<RegisteredTool> {
  const tool = (await modelContext().getTools()).find((candidate) => candidate.name === name)
  if (!tool) throw new Error(`"${name}" is not registered on document.modelContext`)
  return tool
}

const closeRuns: string[] = []
let exportStarted = false

function Search() {
  useTool({
    name: 'tickets.search',
    title: 'Search tickets',
    description: 'Finds tickets whose title contains the query.',
    input: z.object({ query: z.string() }),
    hints: { readOnly: true, untrustedContent: true },
    run: ({ query }) => ok({ query, ids: ['t1', 't2'] }),
  })
  return null
}

function CloseTicket() {
  useTool({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Closes one ticket.',
    input: z.object({ id: z.string() }),
    hints: { consequential: true },
    summary: ({ id }) => `Close ticket ${id}`,
    run: ({ id }) => {
      closeRuns.push(id)
      return ok({ closed: id })
    },
  })
  return null
}

function DeleteTicket() {
  useTool({
    name: 'tickets.delete',
    description: 'Deletes one ticket for good.',
    input: z.object({ id: z.string() }),
    hints: { destructive: true },
    run: ({ id }) => ok({ deleted: id }),
  })
  return null
}

function Export() {
  useTool({
    name: 'tickets.export',
    description: 'Exports every ticket; slow.',
    run: (_input, { signal }) =>
      new Promise((_resolve, reject) => {
        exportStarted = true
        signal.addEventListener('abort', () => reject(signal.reason))
      }),
  })
  return null
}

function WebMCP() {
  useWebMCP()
  return null
}

function App({
  tm,
  dialog = false,
  search = true,
}: {
  tm: Toolmark
  dialog?: boolean
  search?: boolean
}) {
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <WebMCP />
        {search ? <Search /> : null}
        <CloseTicket />
        <DeleteTicket />
        <Export />
        {dialog ? <ConfirmDialog /> : null}
      </ToolProvider>
    </StrictMode>
  )
}

beforeEach(async () => {
  closeRuns.length = 0
  exportStarted = false
  // Every test starts from an empty model context: the previous one unregistered on unmount.
  await expect.poll(toolNames).toEqual([])
})

describe('native WebMCP', () => {
  it('lists exactly the tools a browser agent may use, with their annotations', async () => {
    const tm = createToolmark()
    await render(<App tm={tm} />)

    await expect.poll(toolNames).toEqual(['tickets.export', 'tickets.search'])
    const search = await getTool('tickets.search')
    expect(search.title).toBe('Search tickets')
    expect(search.description).toBe('Finds tickets whose title contains the query.')
    expect(search.inputSchema).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    })
    expect(search.annotations).toMatchObject({
      readOnlyHint: true,
      untrustedContentHint: true,
      consequentialHint: false,
    })
  })

  it('lists a consequential tool only while <ConfirmDialog> is mounted', async () => {
    const tm = createToolmark()
    const screen = await render(<App tm={tm} />)
    await expect.poll(toolNames).toEqual(['tickets.export', 'tickets.search'])

    await screen.rerender(<App tm={tm} dialog />)
    await expect.poll(toolNames).toEqual(['tickets.close', 'tickets.export', 'tickets.search'])
    expect((await getTool('tickets.close')).annotations).toMatchObject({
      readOnlyHint: false,
      consequentialHint: true,
    })

    await screen.rerender(<App tm={tm} />)
    await expect.poll(toolNames).toEqual(['tickets.export', 'tickets.search'])
  })

  it('lists a destructive tool only when the webmcp policy allows destructive tools', async () => {
    const tm = createToolmark()
    await render(<App tm={tm} dialog />)
    await expect.poll(toolNames).toEqual(['tickets.close', 'tickets.export', 'tickets.search'])

    tm.setPolicy({ webmcp: { allow: ['none', 'readOnly', 'consequential', 'destructive'] } })
    await expect
      .poll(toolNames)
      .toEqual(['tickets.close', 'tickets.delete', 'tickets.export', 'tickets.search'])
    expect((await getTool('tickets.delete')).annotations).toMatchObject({
      consequentialHint: true,
    })
  })

  it('returns the ok result of executeTool as JSON text and structured content', async () => {
    const tm = createToolmark()
    await render(<App tm={tm} />)
    await expect.poll(toolNames).toContain('tickets.search')

    const text = await modelContext().executeTool(await getTool('tickets.search'), {
      query: 'printer',
    })
    // tickets.search carries untrustedContent: its result is marked first, text and structure alike.
    const result = {
      untrustedContent: true,
      status: 'ok',
      data: { query: 'printer', ids: ['t1', 't2'] },
    }
    expect(JSON.parse(text)).toEqual({
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: result,
      isError: false,
    })
  })

  it('answers invalid, marked as an error, when the input does not match the schema', async () => {
    const tm = createToolmark()
    await render(<App tm={tm} />)
    await expect.poll(toolNames).toContain('tickets.search')

    const text = await modelContext().executeTool(await getTool('tickets.search'), { query: 42 })
    const response = JSON.parse(text)
    expect(response.isError).toBe(true)
    expect(response.structuredContent).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'query' }],
    })
  })

  it('makes a consequential call wait until the person clicks Approve', async () => {
    const tm = createToolmark()
    await render(<App tm={tm} dialog />)
    await expect.poll(toolNames).toContain('tickets.close')

    let settled = false
    const pending = modelContext()
      .executeTool(await getTool('tickets.close'), { id: 't7' })
      .finally(() => {
        settled = true
      })
    const dialog = page.getByRole('alertdialog')
    await expect.element(dialog).toBeVisible()
    await expect.element(dialog).toHaveTextContent('Browser agent')
    await expect.element(dialog).toHaveTextContent('Close ticket t7')
    expect(settled).toBe(false)
    expect(closeRuns).toEqual([])

    await page.getByRole('button', { name: 'Approve' }).click()
    const response = JSON.parse(await pending)
    expect(response.structuredContent).toEqual({ status: 'ok', data: { closed: 't7' } })
    expect(closeRuns).toEqual(['t7'])
  })

  it('answers cancelled operator when the person clicks Deny', async () => {
    const tm = createToolmark()
    await render(<App tm={tm} dialog />)
    await expect.poll(toolNames).toContain('tickets.close')

    const pending = modelContext().executeTool(await getTool('tickets.close'), { id: 't8' })
    await expect.element(page.getByRole('alertdialog')).toBeVisible()
    await page.getByRole('button', { name: 'Deny' }).click()

    const response = JSON.parse(await pending)
    expect(response.structuredContent).toEqual({ status: 'cancelled', by: 'operator' })
    expect(response.isError).toBe(true)
    expect(closeRuns).toEqual([])
  })

  it('removes a tool from getTools() when its component unmounts', async () => {
    const tm = createToolmark()
    const screen = await render(<App tm={tm} />)
    await expect.poll(toolNames).toContain('tickets.search')

    await screen.rerender(<App tm={tm} search={false} />)
    await expect.poll(toolNames).toEqual(['tickets.export'])
  })

  it('registers a tool again under the same name when its description changes', async () => {
    const tm = createToolmark()
    function Notes({ description }: { description: string }) {
      useTool({ name: 'notes.read', description, hints: { readOnly: true }, run: () => ok([]) })
      return null
    }
    function NotesApp({ description }: { description: string }) {
      return (
        <StrictMode>
          <ToolProvider toolmark={tm}>
            <WebMCP />
            <Notes description={description} />
          </ToolProvider>
        </StrictMode>
      )
    }
    const screen = await render(<NotesApp description="Reads the notes." />)
    await expect.poll(toolNames).toEqual(['notes.read'])

    await screen.rerender(<NotesApp description="Reads every note, newest first." />)
    await expect
      .poll(async () => (await getTool('notes.read')).description)
      .toBe('Reads every note, newest first.')
    expect(await toolNames()).toEqual(['notes.read'])
    const text = await modelContext().executeTool(await getTool('notes.read'), {})
    expect(JSON.parse(text).structuredContent).toEqual({ status: 'ok', data: [] })
  })

  it('cancels the call with cancelled signal when the agent aborts executeTool', async () => {
    const tm = createToolmark()
    const results: ResultEvent[] = []
    tm.events.on('result', (event) => results.push(event))
    await render(<App tm={tm} />)
    await expect.poll(toolNames).toContain('tickets.export')

    const agent = new AbortController()
    const pending = modelContext().executeTool(
      await getTool('tickets.export'),
      {},
      { signal: agent.signal },
    )
    await expect.poll(() => exportStarted).toBe(true)
    agent.abort()

    // Chromium rejects an aborted executeTool itself; the registry records how the call ended.
    await expect(pending).rejects.toThrow(/abort/i)
    await expect
      .poll(() => results.filter((event) => event.tool === 'tickets.export'))
      .toMatchObject([{ caller: 'webmcp', result: { status: 'cancelled', by: 'signal' } }])
  })

  it('drives a tool end to end through CDP WebMCP.invokeTool', async () => {
    const tm = createToolmark()
    await render(<App tm={tm} />)
    await expect.poll(toolNames).toContain('tickets.search')

    const session = cdp()
    // The first send creates vitest's CDP session; subscribing before it can miss events.
    await session.send('WebMCP.enable')
    const responded = new Promise<any>((resolve) => session.on('WebMCP.toolResponded', resolve))
    const { frameTree } = await session.send('Page.getFrameTree')
    const frameId = frameTree.childFrames!.find((child) => child.frame.url === location.href)!.frame
      .id
    await session.send('WebMCP.invokeTool', {
      frameId,
      toolName: 'tickets.search',
      input: { query: 'laptop' } as any,
    } as any)

    const event = await responded
    expect(event.status).toBe('Completed')
    expect(event.output.structuredContent).toEqual({
      untrustedContent: true,
      status: 'ok',
      data: { query: 'laptop', ids: ['t1', 't2'] },
    })
    expect(event.output.isError).toBe(false)
    await session.send('WebMCP.disable')
  })

  it('answers cancelled signal when CDP WebMCP.cancelInvocation stops a running call', async () => {
    const tm = createToolmark()
    const results: ResultEvent[] = []
    tm.events.on('result', (event) => results.push(event))
    await render(<App tm={tm} />)
    await expect.poll(toolNames).toContain('tickets.export')

    const session = cdp()
    await session.send('WebMCP.enable')
    const responded = new Promise<any>((resolve) => session.on('WebMCP.toolResponded', resolve))
    const { frameTree } = await session.send('Page.getFrameTree')
    const frameId = frameTree.childFrames!.find((child) => child.frame.url === location.href)!.frame
      .id
    const { invocationId } = (await session.send('WebMCP.invokeTool', {
      frameId,
      toolName: 'tickets.export',
      input: {} as any,
    } as any)) as { invocationId: string }
    await expect.poll(() => exportStarted).toBe(true)

    await session.send('WebMCP.cancelInvocation', { invocationId } as any)
    expect((await responded).status).toBe('Canceled')
    await expect
      .poll(() => results.filter((event) => event.tool === 'tickets.export'))
      .toMatchObject([{ caller: 'webmcp', result: { status: 'cancelled', by: 'signal' } }])
    await session.send('WebMCP.disable')
  })
})
