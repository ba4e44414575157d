import { StrictMode } from 'react'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { page } from 'vitest/browser'
import { render } from 'vitest-browser-react'
import { z } from 'zod'
import { cleanupWebMCPPolyfill, initializeWebMCPPolyfill } from '@mcp-b/webmcp-polyfill'
import { createToolmark, ok, type Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, useTool } from '@toolmark/react'
import { useWebMCP } from '../../src/useWebMCP'

// Chromium without the WebMCP flag, with `@mcp-b/webmcp-polyfill` providing
// `document.modelContext`: its `executeTool` takes the input as a JSON string.

interface RegisteredTool {
  name: string
  title: string
  description: string
  inputSchema?: Record<string, unknown>
  annotations?: Record<string, boolean>
}

interface PolyfillModelContext {
  registerTool: unknown
  getTools(): Promise<RegisteredTool[]>
  executeTool(tool: RegisteredTool, input: string): Promise<string>
}

const modelContext = () =>
  (document as unknown as { modelContext: PolyfillModelContext }).modelContext

const toolNames = async () => (await modelContext().getTools()).map((tool) => tool.name).sort()

async function getTool(name: string): Promise<RegisteredTool> {
  const tool = (await modelContext().getTools()).find((candidate) => candidate.name === name)
  if (!tool) throw new Error(`"${name}" is not registered on document.modelContext`)
  return tool
}

const closeRuns: string[] = []

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
        {dialog ? <ConfirmDialog /> : null}
      </ToolProvider>
    </StrictMode>
  )
}

beforeAll(() => {
  initializeWebMCPPolyfill()
})

afterAll(() => {
  cleanupWebMCPPolyfill()
})

beforeEach(async () => {
  closeRuns.length = 0
  await expect.poll(toolNames).toEqual([])
})

describe('WebMCP polyfill', () => {
  it('runs on the polyfill, not on a native model context', () => {
    expect(String(modelContext().registerTool)).not.toContain('[native code]')
  })

  it('lists exactly the tools a browser agent may use, with their annotations', async () => {
    const tm = createToolmark()
    await render(<App tm={tm} />)

    await expect.poll(toolNames).toEqual(['tickets.search'])
    const search = await getTool('tickets.search')
    expect(search.title).toBe('Search tickets')
    expect(search.inputSchema).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string' } },
    })
    expect(search.annotations).toMatchObject({ readOnlyHint: true, untrustedContentHint: true })
  })

  it('lists a consequential tool only while <ConfirmDialog> is mounted, never a destructive one', async () => {
    const tm = createToolmark()
    const screen = await render(<App tm={tm} />)
    await expect.poll(toolNames).toEqual(['tickets.search'])

    await screen.rerender(<App tm={tm} dialog />)
    await expect.poll(toolNames).toEqual(['tickets.close', 'tickets.search'])

    await screen.rerender(<App tm={tm} />)
    await expect.poll(toolNames).toEqual(['tickets.search'])
  })

  it('parses the JSON-string input of executeTool and returns the ok result', async () => {
    const tm = createToolmark()
    await render(<App tm={tm} />)
    await expect.poll(toolNames).toContain('tickets.search')

    const text = await modelContext().executeTool(
      await getTool('tickets.search'),
      JSON.stringify({ query: 'printer' }),
    )
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

  it('answers invalid when the input does not match the schema', async () => {
    const tm = createToolmark()
    await render(<App tm={tm} />)
    await expect.poll(toolNames).toContain('tickets.search')

    const text = await modelContext().executeTool(await getTool('tickets.search'), '{"query":42}')
    expect(JSON.parse(text).structuredContent).toMatchObject({
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
      .executeTool(await getTool('tickets.close'), '{"id":"t7"}')
      .finally(() => {
        settled = true
      })
    const dialog = page.getByRole('alertdialog')
    await expect.element(dialog).toBeVisible()
    await expect.element(dialog).toHaveTextContent('Browser agent')
    expect(settled).toBe(false)
    expect(closeRuns).toEqual([])

    await page.getByRole('button', { name: 'Approve' }).click()
    expect(JSON.parse(await pending).structuredContent).toEqual({
      status: 'ok',
      data: { closed: 't7' },
    })
    expect(closeRuns).toEqual(['t7'])
  })

  it('answers cancelled operator when the person clicks Deny', async () => {
    const tm = createToolmark()
    await render(<App tm={tm} dialog />)
    await expect.poll(toolNames).toContain('tickets.close')

    const pending = modelContext().executeTool(await getTool('tickets.close'), '{"id":"t8"}')
    await expect.element(page.getByRole('alertdialog')).toBeVisible()
    await page.getByRole('button', { name: 'Deny' }).click()

    expect(JSON.parse(await pending).structuredContent).toEqual({
      status: 'cancelled',
      by: 'operator',
    })
    expect(closeRuns).toEqual([])
  })

  it('removes a tool from getTools() when its component unmounts', async () => {
    const tm = createToolmark()
    const screen = await render(<App tm={tm} />)
    await expect.poll(toolNames).toEqual(['tickets.search'])

    await screen.rerender(<App tm={tm} search={false} />)
    await expect.poll(toolNames).toEqual([])
  })
})
