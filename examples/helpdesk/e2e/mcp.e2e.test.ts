import { existsSync } from 'node:fs'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import type { Browser, Page } from 'playwright'
import buildCli from '../../../packages/mcp/test/globalSetup.ts'
import {
  freePort,
  freshDataDir,
  launchChromium,
  removeDir,
  repoRoot,
  startHelpdesk,
  type RunningHelpdesk,
} from './harness.ts'

const CLI = path.join(repoRoot, 'packages/mcp/dist/cli.js')

let app: RunningHelpdesk
let browser: Browser
let dataDir: string
let client: Client
let stderr = ''
let listChanged = 0
const sentFrames: string[] = []

async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, what: string) {
  const end = Date.now() + 15_000
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}\n${stderr}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

beforeAll(async () => {
  // `npm test` builds the CLI in the mcp project's global setup; alone, this file builds it.
  if (!existsSync(CLI)) await buildCli()
  const mcpPort = await freePort()
  dataDir = freshDataDir()
  ;[app, browser] = await Promise.all([
    startHelpdesk({ dataDir, env: { VITE_TOOLMARK_MCP_PORT: String(mcpPort) } }),
    launchChromium(),
  ])

  // What a desktop MCP client does: launch `toolmark-mcp` over stdio with the app's origin.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--allow-origin', app.url, '--port', String(mcpPort)],
    stderr: 'pipe',
  })
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  client = new Client({ name: 'helpdesk-e2e', version: '1.0.0' })
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged++
  })
  await client.connect(transport)
})

afterAll(async () => {
  await client?.close()
  await browser?.close()
  await app?.stop()
  if (dataDir) removeDir(dataDir)
})

const toolNames = async () => (await client.listTools()).tools.map((t) => t.name).sort()

describe('a desktop agent through toolmark-mcp', () => {
  let page: Page

  it('pairs with the running helpdesk by code and lists its tools', async () => {
    expect(await toolNames()).toEqual(['toolmark_pairing'])
    const pairing = await client.callTool({ name: 'toolmark_pairing', arguments: {} })
    const { code } = pairing.structuredContent as { code: string }
    expect(code).toMatch(/\S{4,}/)

    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    // Every frame the page sends to toolmark-mcp: the code must never be one of them.
    page.on('websocket', (socket) => {
      if (socket.url().startsWith('ws://127.0.0.1:')) {
        socket.on('framesent', ({ payload }) => sentFrames.push(String(payload)))
      }
    })
    await page.goto(`${app.url}/`)
    const box = page.getByRole('region', { name: 'Desktop agent' })
    await box.getByLabel('Pairing code').fill(code)
    await box.getByRole('button', { name: 'Connect' }).click()
    await until(
      () => box.getByRole('status').textContent(),
      (text) => !!text?.startsWith('Connected'),
      'the page to pair',
    )

    const names = await until(toolNames, (n) => n.includes('tickets__close'), 'the page tools')
    expect(names).toEqual(
      expect.arrayContaining([
        'ticket__fill',
        'ticket__state',
        'ticket__submit',
        'tickets__close',
        'tickets__search',
      ]),
    )
    // Pairing was a challenge–response: neither the code nor the session token crossed.
    const token = await page.evaluate(
      () => Object.entries(localStorage).find(([key]) => key.startsWith('toolmark:mcp:'))?.[1],
    )
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(sentFrames.length).toBeGreaterThan(1)
    for (const frame of sentFrames) {
      expect(frame.toUpperCase()).not.toContain(code.replace('-', ''))
      expect(frame).not.toContain(token)
    }
    // Destructive tools stay in the app: a desktop agent never sees delete.
    expect(names).not.toContain('tickets__delete')
    expect(names).not.toContain('toolmark_pairing')
    expect(listChanged).toBeGreaterThan(0)
  })

  it('calls a read-only tool and gets the page’s result', async () => {
    const result = await client.callTool({
      name: 'tickets__search',
      arguments: { query: 'printer' },
    })
    expect(result.isError).toBeFalsy()
    const structured = result.structuredContent as {
      status: string
      data: { tickets: { id: number }[] }
    }
    expect(structured.status).toBe('ok')
    expect(structured.data.tickets.map((t) => t.id)).toEqual([9, 8])
  })

  it('closes a ticket only after the person approves in the page', async () => {
    const call = client.callTool({ name: 'tickets__close', arguments: { id: 11 } })
    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('Requested by Desktop app')
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click()
    const result = await call
    expect(result.structuredContent).toMatchObject({
      status: 'ok',
      data: { id: 11, status: 'closed' },
    })
    const stored = await (await fetch(`${app.url}/api/tickets/11`)).json()
    expect(stored.status).toBe('closed')
  })
  it('files an access request through the wizard: start, then one fill of every step and one submit', async () => {
    expect(await toolNames()).not.toContain('access__fill')
    const started = await client.callTool({ name: 'access__start', arguments: {} })
    expect(started.structuredContent).toMatchObject({ status: 'ok' })
    await until(toolNames, (names) => names.includes('access__fill'), 'the wizard tools')
    const values = {
      who: { email: 'peter.novak@northwind.example', name: 'Peter Novak' },
      system: { system: 'warehouse', level: 'write' },
      why: { reason: 'Runs the stock count in March', until: '2030-03-31' },
    }
    const filled = await client.callTool({ name: 'access__fill', arguments: { values } })
    expect(filled.structuredContent).toMatchObject({ status: 'ok' })
    const submitted = client.callTool({ name: 'access__submit', arguments: {} })
    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('Requested by Desktop app')
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click()
    const result = await submitted
    expect(result.structuredContent).toMatchObject({ status: 'ok' })
    const { id } = (result.structuredContent as { data: { id: number } }).data
    const stored = await (await fetch(`${app.url}/api/tickets/${id}`)).json()
    expect(stored).toMatchObject({
      title: 'Access to Warehouse management (write) for Peter Novak',
      category: 'access',
      requester: 'peter.novak@northwind.example',
    })
  })
})
