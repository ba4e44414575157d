import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { chromium, type Browser } from 'playwright'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aliases } from '../../../aliases'
import { chromiumLaunchOptions } from '../../../scripts/chromium.mjs'
import { startServer, until, type RunningServer } from './harness'

const dir = path.dirname(fileURLToPath(import.meta.url))
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.map': 'application/json',
}

let outDir: string
let site: Server
let origin: string
let browser: Browser
let running: RunningServer

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'toolmark-mcp-page-'))
  await build({
    configFile: false,
    root: path.join(dir, 'fixtures/page'),
    logLevel: 'warn',
    plugins: [react()],
    resolve: { alias: aliases },
    build: { outDir, emptyOutDir: true, minify: false },
  })
  site = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const file = path.join(outDir, url.pathname === '/' ? 'index.html' : url.pathname)
    if (!file.startsWith(outDir)) return response.writeHead(403).end()
    try {
      const body = await readFile(file)
      response.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'text/plain' })
      response.end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  origin = `http://localhost:${(site.address() as { port: number }).port}`
  running = await startServer(['--allow-origin', origin])
  browser = await chromium.launch(chromiumLaunchOptions())
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await running?.close()
  await new Promise((resolve) => site?.close(resolve))
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

describe('a real Chromium page paired with toolmark-mcp', () => {
  it('pairs through <McpPairing /> and runs a consequential call the person approves', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${origin}/?mcpPort=${running.port}`)

    const code = await running.pairingCode()
    await page.getByLabel('Pairing code').fill(code)
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.getByText('Connected: the desktop agent can use the tools of this page.').waitFor()
    expect(running.stderr()).toContain(`page at ${origin} paired`)

    const { tools } = await running.client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['tickets__close'])
    expect(tools[0].annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false })

    const calling = running.client.callTool({ name: 'tickets__close', arguments: { id: 'T-42' } })
    const dialog = page.getByRole('alertdialog', { name: 'Close ticket' })
    await dialog.waitFor()
    await expect(dialog.textContent()).resolves.toContain('Close ticket T-42')
    await expect(dialog.textContent()).resolves.toContain('Desktop app')
    expect(await page.evaluate(() => (window as any).closedTickets)).toEqual([])
    await dialog.getByRole('button', { name: 'Approve' }).click()

    const result = await calling
    expect(result.isError).toBeUndefined()
    expect(result.structuredContent).toEqual({ status: 'ok', data: { closed: 'T-42' } })
    expect(await page.evaluate(() => (window as any).closedTickets)).toEqual(['T-42'])

    // A reload resumes with the stored token: no new code.
    await page.reload()
    await page.getByText('Connected: the desktop agent can use the tools of this page.').waitFor()
    await until(() => /resumed/.test(running.stderr()), 'the resume log line')
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)
})
