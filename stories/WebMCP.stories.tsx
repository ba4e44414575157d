import { useState } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor } from 'storybook/test'
import { z } from 'zod'
import { cleanupWebMCPPolyfill, initializeWebMCPPolyfill } from '@mcp-b/webmcp-polyfill'
import { ok, refuse } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, useTool, useWebMCP } from '@toolmark/react'

interface Ticket {
  id: string
  title: string
  status: 'open' | 'closed'
}

const initialTickets: Ticket[] = [
  { id: 't1', title: 'Printer on floor 2 is jammed', status: 'open' },
  { id: 't2', title: 'VPN drops every hour', status: 'open' },
  { id: 't3', title: 'New laptop for Ana', status: 'closed' },
]

function Tickets() {
  const [tickets, setTickets] = useState(initialTickets)

  useTool({
    name: 'tickets.search',
    title: 'Search tickets',
    description: 'Lists tickets whose title contains `query` (case-insensitive).',
    input: z.object({ query: z.string() }),
    hints: { readOnly: true, untrustedContent: true },
    run: ({ query }) =>
      ok(tickets.filter((t) => t.title.toLowerCase().includes(query.toLowerCase()))),
  })

  useTool({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Closes an open ticket by id. A person confirms first.',
    input: z.object({ id: z.string() }),
    hints: { consequential: true },
    summary: ({ id }) => `Close ticket ${id}`,
    run: ({ id }) => {
      const ticket = tickets.find((t) => t.id === id)
      if (!ticket) return refuse('not_found', `No ticket ${id}`)
      setTickets((all) => all.map((t) => (t.id === id ? { ...t, status: 'closed' } : t)))
      return ok({ id, status: 'closed' })
    },
  })

  return (
    <ul aria-label="Tickets">
      {tickets.map((t) => (
        <li key={t.id}>
          {t.title} — {t.status}
        </li>
      ))}
    </ul>
  )
}

function BrowserAgentDemo() {
  useWebMCP()
  return (
    <>
      <Tickets />
      <ConfirmDialog />
    </>
  )
}

const meta = {
  title: 'WebMCP',
  component: BrowserAgentDemo,
  decorators: [
    (Story) => (
      <ToolProvider options={{}}>
        <Story />
      </ToolProvider>
    ),
  ],
  // Chromium with `--enable-features=WebMCP` has its own `document.modelContext`; anywhere
  // else the polyfill stands in, so the story also works in an ordinary browser.
  beforeEach: () => {
    if ((document as { modelContext?: unknown }).modelContext) return
    initializeWebMCPPolyfill()
    return () => cleanupWebMCPPolyfill()
  },
} satisfies Meta<typeof BrowserAgentDemo>

export default meta
type Story = StoryObj<typeof meta>

interface AgentTool {
  name: string
  annotations?: Record<string, boolean>
}

interface ModelContext {
  registerTool: unknown
  getTools(): Promise<AgentTool[]>
  executeTool(tool: AgentTool, input: unknown): Promise<string>
}

/**
 * A browser agent's view of the page: it lists the tools on `document.modelContext` and runs
 * them. Native WebMCP takes the input as an object, the polyfill as a JSON string.
 */
function browserAgent() {
  const context = (document as unknown as { modelContext: ModelContext }).modelContext
  const native = String(context.registerTool).includes('[native code]')
  return {
    tools: () => context.getTools(),
    async run(name: string, input: object) {
      const tool = (await context.getTools()).find((t) => t.name === name)
      if (!tool) throw new Error(`The page offers no tool "${name}"`)
      const text = await context.executeTool(tool, native ? input : JSON.stringify(input))
      return JSON.parse(text).structuredContent
    },
  }
}

/**
 * A browser agent finds the page's tools on `document.modelContext`, searches the tickets,
 * then closes one: the call waits in the page until the person approves it in the dialog,
 * which names the browser agent as the one asking.
 */
export const BrowserAgent: Story = {
  play: async ({ canvas, userEvent, step }) => {
    const agent = browserAgent()

    await step('the agent lists the tools it may use', async () => {
      await waitFor(async () => {
        const names = (await agent.tools()).map((t) => t.name).sort()
        await expect(names).toEqual(['tickets.close', 'tickets.search'])
      })
      const search = (await agent.tools()).find((t) => t.name === 'tickets.search')
      await expect(search?.annotations).toMatchObject({
        readOnlyHint: true,
        untrustedContentHint: true,
      })
    })

    await step(
      'the agent searches without asking anyone, the result marked untrusted',
      async () => {
        await expect(await agent.run('tickets.search', { query: 'vpn' })).toEqual({
          untrustedContent: true,
          status: 'ok',
          data: [{ id: 't2', title: 'VPN drops every hour', status: 'open' }],
        })
      },
    )

    await step('closing a ticket waits until the person approves', async () => {
      const closing = agent.run('tickets.close', { id: 't2' })
      const dialog = await canvas.findByRole('alertdialog')
      await expect(dialog).toHaveTextContent('Browser agent')
      await expect(dialog).toHaveTextContent('Close ticket t2')
      await expect(canvas.getByText(/VPN drops every hour — open/)).toBeInTheDocument()

      await userEvent.click(canvas.getByRole('button', { name: 'Approve' }))
      await expect(await closing).toEqual({ status: 'ok', data: { id: 't2', status: 'closed' } })
      await expect(await canvas.findByText(/VPN drops every hour — closed/)).toBeInTheDocument()
    })
  },
}
