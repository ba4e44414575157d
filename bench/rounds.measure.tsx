/**
 * Agent rounds on the helpdesk, per surface: the real app (examples/helpdesk's `App`, its real
 * tools and its real API over an embedded Postgres) rendered in jsdom, played by
 * `createScriptedAgent` from what each surface shows a model:
 *
 * - in-app: `pageTools` over an in-page bridge, `page_call` + `page_describe` (and direct mode);
 * - WebMCP: the tools the app registers on `document.modelContext`;
 * - MCP: `toolmark-mcp`'s server (its listing and call mapping) and the SDK's `Client`, linked
 *   in process (the pairing socket is left out).
 *
 * Tasks: create a ticket (fill + submit), close a ticket, search then close, options lookup then
 * the form, and the three-step access wizard. Prints rounds, calls, describes, bytes read and
 * invalid/refused per task and surface, and the summary manifest's bytes per tool.
 *
 * Run: npx vitest run --config bench/rounds.config.ts   (or `npm run bench rounds`)
 * Not part of `npm test`: it measures, and fails only when a task does not complete.
 */
import { EventEmitter } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { StrictMode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { Manifest, ToolResult } from '@toolmark/core'
import { bridge, createInPageChannel } from '@toolmark/core/bridge'
import { createPageClient, renderSummary } from '@toolmark/core/agent'
import {
  createRecordingModelContext,
  createScriptedAgent,
  type ScriptTurn,
  type ScriptedAgent,
  type ScriptedAgentReport,
} from '@toolmark/core/testing'
import { ToolProvider } from '@toolmark/react'
import { createMcpServer } from '../packages/mcp/src/mcpServer'
import { createPageLink } from '../packages/mcp/src/pageLink'
import type { PairedPage } from '../packages/mcp/src/pairingServer'
import { createApi } from '../examples/helpdesk/server/api.ts'
import type { Database } from '../examples/helpdesk/server/database.ts'
import { openDatabase } from '../examples/helpdesk/server/db.ts'
import type { Ticket, TicketList } from '../examples/helpdesk/shared/ticket.ts'
import { App } from '../examples/helpdesk/src/App.tsx'
import { ToastProvider } from '../examples/helpdesk/src/toast.tsx'
import { tm } from '../examples/helpdesk/src/toolmark.ts'

// React renders outside `act`, as in the app.
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Handler = ReturnType<typeof createApi>

/** `fetch('/api/…')` answered by the helpdesk's own API handler, in process. */
function apiFetch(handle: Handler): typeof fetch {
  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const url = new URL(href, 'http://helpdesk.local')
    if (!url.pathname.startsWith('/api/')) throw new TypeError(`No route for ${href}`)
    if (init.signal?.aborted) throw new DOMException('The request was aborted', 'AbortError')
    const body = typeof init.body === 'string' ? init.body : undefined
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [
        k.toLowerCase(),
        v,
      ]),
    )
    const req = Object.assign(Readable.from(body === undefined ? [] : [Buffer.from(body)]), {
      url: url.pathname.slice('/api'.length) + url.search,
      method: init.method ?? 'GET',
      headers,
      socket: new EventEmitter(),
    })
    const sent = await new Promise<{ status: number; headers: Headers; text?: string }>(
      (resolve, reject) => {
        const out = new Headers()
        const res = {
          statusCode: 200,
          setHeader: (key: string, value: string) => out.set(key, value),
          end: (text?: string) => resolve({ status: res.statusCode, headers: out, text }),
        }
        handle(req as never, res as never).catch(reject)
      },
    )
    return new Response(sent.status === 204 ? null : (sent.text ?? null), {
      status: sent.status,
      headers: sent.headers,
    })
  }) as typeof fetch
}

/** The in-process `toolmark-mcp`: its MCP server over a page link, and the SDK's client. */
async function mcpClient(): Promise<{ client: Client; close(): Promise<void> }> {
  const channel = createInPageChannel()
  const detach = tm.use(bridge({ transport: channel.page, caller: 'mcp' }))
  let closed = false
  const page: PairedPage = {
    origin: 'http://localhost:5173',
    send: (text) => channel.agent.send(text),
    onMessage: (listener) => channel.agent.onMessage((message) => listener(String(message))),
    onClose: (listener) => channel.agent.onClose?.(listener) ?? (() => {}),
    close: () => {
      closed = true
      channel.close()
    },
    get closed() {
      return closed
    },
  }
  const server = createMcpServer({
    name: 'toolmark-mcp',
    version: '0.0.0',
    log: () => {},
    progressIntervalMs: 0,
    pairingInfo: () => ({
      code: { code: 'BENCH-CODE', expiresAt: Date.now() + 60_000 } as never,
      port: 0,
      allowOrigins: [page.origin],
    }),
  })
  server.setPage(createPageLink(page, { deadlineMs: 600_000 }))
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.mcp.connect(serverSide)
  const client = new Client({ name: 'bench-rounds', version: '0.0.0' })
  await client.connect(clientSide)
  return {
    client,
    async close() {
      await client.close()
      page.close()
      detach()
    },
  }
}

let dir: string
let db: Database
let root: Root
let queryClient: QueryClient
const cleanups: (() => unknown)[] = []
const agents: { label: string; agent: ScriptedAgent }[] = []

async function go(hash: string, tool?: string) {
  if (window.location.hash !== hash) window.location.hash = hash
  const end = Date.now() + 10_000
  while (tool && !tm.describe(tool)) {
    if (Date.now() > end) throw new Error(`${tool} did not appear on ${hash}`)
    await sleep(20)
  }
  await sleep(50)
}

async function api<T>(route: string): Promise<T> {
  return (await (await fetch(`/api${route}`)).json()) as T
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'bench-rounds-'))
  db = await openDatabase(dir)
  globalThis.fetch = apiFetch(createApi(async () => db))

  const modelContext = createRecordingModelContext()
  ;(document as unknown as { modelContext: unknown }).modelContext = modelContext
  window.location.hash = '#/new'
  queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000, retry: 0 } } })
  const container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ToolProvider toolmark={tm}>
          <ToastProvider>
            <App />
          </ToastProvider>
        </ToolProvider>
      </QueryClientProvider>
    </StrictMode>,
  )
  await go('#/new', 'ticket.fill')

  // The person: approves every confirmation, as a click on Approve in the app's dialog would.
  cleanups.push(
    tm.confirmations.subscribe(() => {
      for (const entry of tm.confirmations.list()) void tm.confirmations.approve(entry.id)
    }),
  )

  const channel = createInPageChannel()
  cleanups.push(tm.use(bridge({ transport: channel.page })))
  const client = createPageClient({ transport: channel.agent })
  await client.ready
  cleanups.push(() => (client.close(), channel.close()))
  const mcp = await mcpClient()
  cleanups.push(() => mcp.close())
  const settle = () => sleep(60)
  agents.push(
    { label: 'in-app', agent: createScriptedAgent({ inApp: client, settle }) },
    {
      label: 'in-app direct',
      agent: createScriptedAgent({ inApp: client, mode: 'direct', settle }),
    },
    { label: 'WebMCP', agent: createScriptedAgent({ webmcp: modelContext, settle }) },
    { label: 'MCP', agent: createScriptedAgent({ mcp: mcp.client, settle }) },
  )
}, 120_000)

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  root?.unmount()
  await db?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

interface Task {
  name: string
  goal: number
  /** Puts the app where the task starts; returns the script for one surface run. */
  setup(run: number): Promise<ScriptTurn[]>
}

const ok = (result: ToolResult | undefined) => result?.status === 'ok'

const TASKS: Task[] = [
  {
    name: 'create a ticket (fill + submit)',
    goal: 1,
    async setup(run) {
      await go('#/tickets/1')
      await go('#/new', 'ticket.fill')
      return [
        () => [
          {
            tool: 'ticket.fill',
            input: {
              values: {
                title: `VPN keeps dropping (${run + 1})`,
                requester: 'ana@example.com',
                priority: 'urgent',
              },
            },
          },
          { tool: 'ticket.submit' },
        ],
      ]
    },
  },
  {
    name: 'close a ticket',
    goal: 1,
    async setup(run) {
      await go('#/new', 'ticket.fill')
      const open = await api<TicketList>('/tickets?view=open&q=')
      const id = open.tickets.filter(
        (t) => !/printer|outlook|zoom|laptop|invoice/i.test(t.title),
      )[0]?.id
      if (id === undefined) throw new Error(`No open ticket left for run ${run}`)
      return [() => ({ tool: 'tickets.close', input: { id } })]
    },
  },
  {
    name: 'search then close',
    goal: 2,
    async setup(run) {
      await go('#/new', 'ticket.fill')
      const query = ['outlook', 'zoom', 'laptop', 'invoice'][run]
      return [
        () => ({ tool: 'tickets.search', input: { query } }),
        (seen) => ({
          tool: 'tickets.close',
          input: { id: seen.data<{ tickets: Ticket[] }>('tickets.search').tickets[0].id },
        }),
      ]
    },
  },
  {
    name: 'options lookup then form',
    goal: 2,
    async setup() {
      await go('#/new', 'ticket.fill')
      await go('#/access', 'access.options')
      return [
        () => ({ tool: 'access.options', input: { field: 'who.email', query: 'nina' } }),
        (seen) => {
          const [person] = seen.data<{ options: { value: string; title: string }[] }>(
            'access.options',
          ).options
          return [
            {
              tool: 'access.fill',
              input: {
                values: {
                  who: { email: person.value, name: person.title.replace(/ \(.*$/, '') },
                  system: { system: 'vpn', level: 'read' },
                  why: { reason: 'Works from the Oslo office this spring', until: '2030-06-30' },
                },
              },
            },
            { tool: 'access.submit' },
          ]
        },
      ]
    },
  },
  {
    name: '3-step wizard (from a ticket page)',
    goal: 2,
    async setup(run) {
      await go('#/tickets/2')
      await sleep(100)
      return [
        () => ({ tool: 'access.start' }),
        () => [
          {
            tool: 'access.fill',
            input: {
              values: {
                who: { email: `temp${run + 1}@northwind.example`, name: `Temp ${run + 1}` },
                system: { system: 'payroll', level: 'write' },
                why: { reason: 'Covers the quarterly payroll audit', until: '2030-01-31' },
              },
            },
          },
          { tool: 'access.submit' },
        ],
      ]
    },
  },
]

/** The summary manifest a model reads on a page: bytes per tool, as text and as JSON. */
function summaryBytes(manifest: Manifest) {
  const tools = manifest.tools.length
  return {
    tools,
    text: utf8(renderSummary(manifest)),
    textPerTool: Math.round(utf8(renderSummary(manifest)) / tools),
    jsonPerTool: Math.round(utf8(JSON.stringify(manifest.tools)) / tools),
  }
}

describe('agent rounds on the helpdesk', () => {
  it('measures every task on every surface', async () => {
    const pages: Record<string, ReturnType<typeof summaryBytes>> = {}
    for (const [hash, tool] of [
      ['#/new', 'ticket.fill'],
      ['#/access', 'access.fill'],
      ['#/tickets/1', 'tickets.open'],
    ]) {
      await go(hash, tool)
      const manifest = tm.manifest({ caller: 'inapp' })
      pages[hash] = summaryBytes(manifest)
      // ROUNDS_SHOW=1 prints the summary text itself.
      if (process.env.ROUNDS_SHOW) console.log(`\n${hash}\n${renderSummary(manifest)}`)
    }

    const rows: {
      task: string
      surface: string
      goal: number
      report: ScriptedAgentReport
    }[] = []
    for (const task of TASKS) {
      for (const [run, { label, agent }] of agents.entries()) {
        const script = await task.setup(run)
        const report = await agent.run(script)
        rows.push({ task: task.name, surface: label, goal: task.goal, report })
        const last = report.records.at(-1)
        if (!ok(last?.result)) {
          throw new Error(
            `${task.name} on ${label} did not complete: ${JSON.stringify(report.records.map((r) => [r.tool, r.result]))}`,
          )
        }
      }
    }

    console.log('\nSummary manifest (what page_call shows), in-app caller:')
    console.table(
      Object.entries(pages).map(([page, b]) => ({
        page,
        tools: b.tools,
        'summary bytes': b.text,
        'bytes per tool': b.textPerTool,
        'goal (B/tool)': 120,
        'JSON manifest B/tool': b.jsonPerTool,
      })),
    )
    console.log('Rounds per task and surface (a round: every call before the model sees results):')
    console.table(
      rows.map(({ task, surface, goal, report }) => ({
        task,
        surface,
        rounds: report.rounds,
        goal,
        calls: report.calls,
        describes: report.describes,
        'bytes read': report.bytesRead,
        'listing bytes': report.firstListing.bytes,
        invalid: report.invalid,
        refused: report.refused,
      })),
    )
    expect(rows).toHaveLength(TASKS.length * agents.length)
  })
})
