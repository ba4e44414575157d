import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ok, refuse } from '@toolmark/core'
import type { ManifestEntry, ToolResult } from '@toolmark/core'
import { bridge, createInPageChannel } from '@toolmark/core/bridge'
import { createPageClient, renderSummary } from '@toolmark/core/agent'
import { createFormTools } from '@toolmark/core/forms'
import {
  createRecordingModelContext,
  createScriptedAgent,
  createTestToolmark,
  type McpToolClient,
  type TestToolmark,
} from '@toolmark/core/testing'
import { webmcp } from '@toolmark/core/webmcp'
import { memoryForm } from '../forms/memoryForm'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const bytes = (text: string) => new TextEncoder().encode(text).length

/**
 * A small help desk: a search (30 ms), a close that needs a person, and a new-ticket form whose
 * tools appear only after `tickets.compose` runs. `sent` records what really happened.
 */
function helpDesk(tm: TestToolmark) {
  const sent: string[] = []
  let running = 0
  let overlap = 0
  tm.register({
    name: 'tickets.search',
    description: 'Finds tickets by words in their title.',
    input: z.object({ query: z.string() }),
    hints: { readOnly: true },
    run: async ({ query }) => {
      running++
      overlap = Math.max(overlap, running)
      await sleep(30)
      running--
      sent.push(`search ${query}`)
      return ok({ tickets: [{ id: 7, title: `${query} is broken` }] })
    },
  })
  tm.register(
    {
      name: 'tickets.close',
      description: 'Closes a ticket by its number.',
      input: z.object({ id: z.number().int() }),
      hints: { consequential: true },
      summary: ({ id }) => `Close ticket #${id}`,
      run: async ({ id }) => {
        running++
        overlap = Math.max(overlap, running)
        await sleep(30)
        running--
        if (id === 404) return refuse('not_found', 'No such ticket')
        sent.push(`close ${id}`)
        return ok({ id, status: 'closed' })
      },
    },
    { scope: tm.scope('closing', { transparent: true }) },
  )
  tm.register({
    name: 'tickets.compose',
    description: 'Shows the new-ticket form.',
    run: () => {
      if (tm.describe('ticket.fill')) return ok({ form: 'ticket' })
      const form = memoryForm(
        { title: '', priority: 'normal' },
        {
          submit: (values) => {
            sent.push(`create ${values.title} (${values.priority})`)
            return { ok: true, data: { id: 99 } }
          },
        },
      )
      createFormTools(tm, form.adapter, {
        name: 'ticket',
        title: 'Create ticket',
        description: 'The new-ticket form.',
        schema: z.object({
          title: z.string().min(3),
          priority: z.enum(['low', 'normal', 'high']),
        }),
        submitSummary: (values) => `Create ticket “${values.title}”`,
      })
      return ok({ form: 'ticket' })
    },
  })
  return { sent, overlap: () => overlap }
}

function inAppPage(options: Parameters<typeof createTestToolmark>[0] = {}) {
  const tm = createTestToolmark({ answer: 'approve', ...options })
  const desk = helpDesk(tm)
  const channel = createInPageChannel()
  const stop = tm.use(bridge({ transport: channel.page }))
  const client = createPageClient({ transport: channel.agent })
  cleanups.push(() => (client.close(), stop(), channel.close()))
  return { tm, client, ...desk }
}

const NEW_TICKET = [
  () => ({ tool: 'tickets.compose' }),
  () => [
    { tool: 'ticket.fill', input: { values: { title: 'VPN keeps dropping', priority: 'high' } } },
    { tool: 'ticket.submit' },
  ],
]

describe('createScriptedAgent on the in-app surface (page_call)', () => {
  it('sends the calls of one turn in one round and reads the final outcome of an approval', async () => {
    const { client, sent } = inAppPage()
    const agent = createScriptedAgent({ inApp: client })
    const report = await agent.run(NEW_TICKET)
    expect(report.rounds).toBe(2)
    expect(report.describes).toBe(0)
    expect(report.calls).toBe(3)
    expect(report.records.map((r) => [r.tool, r.round, r.result.status])).toEqual([
      ['tickets.compose', 1, 'ok'],
      ['ticket.fill', 2, 'ok'],
      ['ticket.submit', 2, 'ok'],
    ])
    expect(sent).toEqual(['create VPN keeps dropping (high)'])
    expect([report.invalid, report.refused, report.errors]).toEqual([0, 0, 0])
  })

  it('describes a tool first, in a round of its own, when its summary line has no signature', async () => {
    const { client, sent } = inAppPage({ limits: { signatureBudget: 9 } })
    const agent = createScriptedAgent({ inApp: client })
    const report = await agent.run([
      () => ({ tool: 'tickets.close', input: { id: 3 } }),
      () => ({ tool: 'tickets.close', input: { id: 4 } }),
    ])
    // `{id:number}` is 11 characters: over the budget, so the model must describe once.
    expect(report.describes).toBe(1)
    expect(report.rounds).toBe(3)
    expect(report.records.map((r) => r.round)).toEqual([2, 3])
    expect(sent).toEqual(['close 3', 'close 4'])
    expect(report.bytes.describes).toBeGreaterThan(0)
  })

  it('counts the listing once per round, every describe answer and every result, in UTF-8 bytes', async () => {
    const { client } = inAppPage()
    const agent = createScriptedAgent({ inApp: client })
    const listing = await agent.listing()
    const report = await agent.run([
      () => [
        { tool: 'tickets.search', input: { query: 'café' } },
        { tool: 'tickets.close', input: { id: 404 } },
      ],
    ])
    expect(JSON.parse(listing.text)[0].function.description).toContain(
      renderSummary(client.manifest),
    )
    const results = report.records.map((r) => r.text)
    expect(JSON.parse(results[0])).toMatchObject({ status: 'ok' })
    expect(report.bytes).toEqual({
      listings: bytes(listing.text),
      describes: 0,
      results: bytes(results[0]) + bytes(results[1]),
    })
    expect(report.bytesRead).toBe(bytes(listing.text) + bytes(results[0]) + bytes(results[1]))
    expect(report.firstListing).toEqual({ bytes: bytes(listing.text), tools: 3 })
    expect(report.refused).toBe(1)
  })

  it('sends the calls of a turn concurrently and hands the next turn what came back', async () => {
    const { client, sent, overlap } = inAppPage()
    const agent = createScriptedAgent({ inApp: client })
    const report = await agent.run([
      () => [
        { tool: 'tickets.search', input: { query: 'printer' } },
        { tool: 'tickets.close', input: { id: 1 } },
      ],
      (seen) => ({
        tool: 'tickets.close',
        input: { id: seen.data<{ tickets: { id: number }[] }>('tickets.search').tickets[0].id },
      }),
    ])
    // The search (root scope) and the close (its own scope) ran at the same time.
    expect(overlap()).toBe(2)
    expect(report.rounds).toBe(2)
    expect(sent).toContain('close 7')
  })

  it('counts invalid and refused results', async () => {
    const { client } = inAppPage()
    const report = await createScriptedAgent({ inApp: client }).run([
      () => [
        { tool: 'tickets.close', input: { id: 'three' } },
        { tool: 'tickets.close', input: { id: 404 } },
        { tool: 'tickets.search', input: { query: 'ok' } },
      ],
    ])
    expect([report.invalid, report.refused, report.errors]).toEqual([1, 1, 0])
  })

  it('rejects a script that calls a tool the surface does not show, naming it', async () => {
    const { client, sent } = inAppPage()
    const agent = createScriptedAgent({ inApp: client })
    await expect(
      agent.run([() => ({ tool: 'ticket.fill', input: { values: { title: 'Too early' } } })]),
    ).rejects.toThrow(/turn 1 calls "ticket\.fill", which the inapp surface does not show/)
    expect(sent).toEqual([])
  })

  it('shows every tool with its own schema in direct mode, so nothing is described', async () => {
    const { client, sent } = inAppPage({ limits: { signatureBudget: 9 } })
    const agent = createScriptedAgent({ inApp: client, mode: 'direct' })
    const listing = await agent.listing()
    expect(listing.tools.map((t) => [t.name, t.shownAs])).toContainEqual([
      'tickets.close',
      'tickets__close',
    ])
    expect(listing.text).toContain('"parameters"')
    const report = await agent.run([() => ({ tool: 'tickets.close', input: { id: 5 } })])
    expect(report.rounds).toBe(1)
    expect(report.describes).toBe(0)
    expect(sent).toEqual(['close 5'])
  })

  it('takes no round for a turn that makes no call', async () => {
    const { client } = inAppPage()
    const report = await createScriptedAgent({ inApp: client }).run([
      () => undefined,
      () => [],
      () => ({ tool: 'tickets.search', input: { query: 'vpn' } }),
    ])
    expect(report.rounds).toBe(1)
    expect(report.records).toHaveLength(1)
  })
})

describe('createScriptedAgent on WebMCP', () => {
  it('plays the tools registered on a model context, whose schemas are all shown', async () => {
    const tm = createTestToolmark({ answer: 'approve' })
    const { sent } = helpDesk(tm)
    tm.register({
      name: 'tickets.delete',
      description: 'Deletes a ticket.',
      input: z.object({ id: z.number() }),
      hints: { destructive: true },
      run: () => ok(null),
    })
    const modelContext = createRecordingModelContext()
    cleanups.push(tm.use(webmcp({ modelContext })))
    const agent = createScriptedAgent({ webmcp: modelContext })
    const listing = await agent.listing()
    expect(listing.tools.map((t) => t.name)).toEqual([
      'tickets.close',
      'tickets.compose',
      'tickets.search',
    ])
    expect(JSON.parse(listing.text)[0]).toMatchObject({
      name: 'tickets.close',
      inputSchema: { type: 'object' },
    })
    const report = await agent.run(NEW_TICKET)
    expect(report.rounds).toBe(2)
    expect(report.records.at(-1)?.result).toEqual({ status: 'ok', data: { id: 99 } })
    expect(sent).toEqual(['create VPN keeps dropping (high)'])
    // Browser agents never see a destructive tool.
    await expect(agent.run([() => ({ tool: 'tickets.delete', input: { id: 1 } })])).rejects.toThrow(
      /does not show/,
    )
  })

  it('forgets a tool once its registration is aborted', async () => {
    const tm = createTestToolmark()
    const handle = tm.register({ name: 'a.b', description: 'A tool.', run: () => ok(1) })
    const modelContext = createRecordingModelContext()
    cleanups.push(tm.use(webmcp({ modelContext })))
    const agent = createScriptedAgent({ webmcp: modelContext })
    expect((await agent.listing()).tools.map((t) => t.name)).toEqual(['a.b'])
    handle.dispose()
    expect((await agent.listing()).tools).toEqual([])
  })
})

/**
 * An MCP client over a registry, shaped as `toolmark-mcp` lists and answers: `llmName` names,
 * the full name in `_meta`, the result's JSON as text and as `structuredContent`.
 */
function mcpClientOf(tm: TestToolmark): McpToolClient {
  const entries = () =>
    tm
      .manifest({ caller: 'mcp' })
      .tools.map((entry) => tm.describe(entry.name, { caller: 'mcp' }) as ManifestEntry)
  return {
    async listTools() {
      return {
        tools: entries().map((entry) => ({
          name: entry.llmName,
          description: entry.description,
          inputSchema: entry.inputSchema,
          _meta: { 'toolmark/name': entry.name },
        })),
      }
    },
    async callTool({ name, arguments: args }) {
      const entry = entries().find((e) => e.llmName === name)
      if (!entry)
        return { content: [{ type: 'text', text: `Unknown tool ${name}` }], isError: true }
      const result: ToolResult = await tm.call(entry.name, args, { caller: 'mcp' })
      return {
        content: [{ type: 'text', text: JSON.stringify(result) }],
        structuredContent: result,
        isError: result.status !== 'ok',
      }
    },
  }
}

describe('createScriptedAgent on MCP', () => {
  it('calls tools by the names the server lists and reads their structured results', async () => {
    const tm = createTestToolmark({ answer: 'approve' })
    const { sent } = helpDesk(tm)
    const agent = createScriptedAgent({ mcp: mcpClientOf(tm) })
    const listing = await agent.listing()
    expect(listing.tools.find((t) => t.name === 'tickets.close')?.shownAs).toBe('tickets__close')
    const report = await agent.run([
      () => ({ tool: 'tickets.search', input: { query: 'badge' } }),
      (seen) => ({
        tool: 'tickets.close',
        input: { id: seen.data('tickets.search').tickets[0].id },
      }),
    ])
    expect(report.rounds).toBe(2)
    expect(sent).toEqual(['search badge', 'close 7'])
    expect(report.bytes.results).toBe(
      report.records.reduce((sum, r) => sum + bytes(JSON.stringify(r.result)), 0),
    )
  })

  it('turns a result without structured content into an error carrying its text', async () => {
    const client: McpToolClient = {
      listTools: async () => ({ tools: [{ name: 'x', inputSchema: { type: 'object' } }] }),
      callTool: async () => ({ content: [{ type: 'text', text: 'Not paired' }], isError: true }),
    }
    const report = await createScriptedAgent({ mcp: client }).run([() => ({ tool: 'x' })])
    expect(report.records[0].result).toEqual({ status: 'error', message: 'Not paired' })
    expect(report.errors).toBe(1)
  })
})

describe('createScriptedAgent options', () => {
  it('asks for exactly one surface', () => {
    expect(() => createScriptedAgent({} as never)).toThrow(/exactly one surface/)
    const modelContext = createRecordingModelContext()
    expect(() =>
      createScriptedAgent({
        webmcp: modelContext,
        mcp: mcpClientOf(createTestToolmark()),
      } as never),
    ).toThrow(/got webmcp and mcp/)
  })

  it('rejects a script that is not a list of turn functions', async () => {
    const agent = createScriptedAgent({ webmcp: createRecordingModelContext() })
    await expect(agent.run([{ tool: 'x' }] as never)).rejects.toThrow(/array of turn functions/)
  })
})
