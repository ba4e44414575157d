import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright'
import type { Browser } from 'playwright'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { createPageClient, pageTools } from '@toolmark/core/agent'
import { websocketTransport } from '@toolmark/core/bridge'
import type { PageClient } from '@toolmark/core/agent'
import { aliases } from '../../../../aliases'
import { chromiumLaunchOptions } from '../../../../scripts/chromium.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))

/** Bundles the page script for the browser, in memory. */
async function bundlePage(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    resolve: { alias: aliases },
    build: {
      write: false,
      minify: false,
      lib: { entry: path.join(here, 'fixtures/chromiumPage.ts'), formats: ['iife'], name: 'page' },
    },
  })
  const result = Array.isArray(output) ? output[0] : output
  if (!('output' in result)) throw new Error('unexpected vite build result')
  return result.output[0].code
}

let browser: Browser
let origin: string
let wsUrl: string
const clients: PageClient[] = []
const sockets: WebSocket[] = []
let stopServers: () => Promise<void>

beforeAll(async () => {
  const script = await bundlePage()
  const http = createServer((request, response) => {
    if (request.url?.startsWith('/page.js')) {
      response.writeHead(200, { 'content-type': 'text/javascript' })
      response.end(script)
    } else {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end(
        '<!doctype html><title>Toolmark Chromium page</title><body><script src="/page.js"></script></body>',
      )
    }
  })
  // The agent endpoint accepts upgrades only from the app's own origin (docs/bridge.md).
  const wss = new WebSocketServer({
    server: http,
    path: '/agent',
    verifyClient: ({ origin: from }: { origin?: string }) => from === origin,
  })
  wss.on('connection', (socket) => {
    sockets.push(socket)
    const client = createPageClient({
      transport: websocketTransport({ socket }),
      deadlineMs: 10_000,
    })
    socket.on('close', () => client.close())
    clients.push(client)
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const { port } = http.address() as AddressInfo
  origin = `http://127.0.0.1:${port}`
  wsUrl = `ws://127.0.0.1:${port}/agent`
  stopServers = () =>
    new Promise<void>((resolve) => {
      for (const socket of wss.clients) socket.terminate()
      wss.close(() => http.close(() => resolve()))
    })
  browser = await chromium.launch(chromiumLaunchOptions())
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await stopServers?.()
})

async function until<T>(read: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const started = Date.now()
  for (;;) {
    const value = read()
    if (value !== undefined) return value
    if (Date.now() - started > timeoutMs) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('WebSocket from a real Chromium page to a Node agent server', () => {
  it('serves the page tools to the agent SDK, through pageTools', async () => {
    const page = await browser.newPage()
    const before = clients.length
    await page.goto(`${origin}/?ws=${encodeURIComponent(wsUrl)}`)
    const clientId = await page.locator('body[data-ready]').getAttribute('data-ready')
    const client = await until(() => clients[before])
    const manifest = await client.ready
    expect(client.clientId).toBe(clientId)
    expect(manifest.tools.map((t) => t.name)).toEqual(['page.stamp', 'page.title'])

    const [call] = pageTools(client, { format: 'anthropic' })
    expect(call.description).toContain("- page.title{}: Reads the document's title")
    expect(await call.execute({ tool: 'page.title', input: {} })).toEqual({
      untrustedContent: true,
      status: 'ok',
      data: 'Toolmark Chromium page',
    })
    expect(await client.call('page.stamp', {})).toEqual({
      status: 'ok',
      data: { at: '2026-01-01T00:00:00.000Z', agent: true },
    })
    expect(await page.locator('body').getAttribute('data-stamped')).toBe('yes')
    await page.close()
  }, 30_000)

  it('reconnects from the browser after the server drops the connection', async () => {
    const page = await browser.newPage()
    const before = clients.length
    await page.goto(`${origin}/?ws=${encodeURIComponent(wsUrl)}`)
    const first = await until(() => clients[before])
    await first.ready
    sockets[before].terminate()
    const second = await until(() => clients[before + 1])
    await second.ready
    expect(second.clientId).toBe(first.clientId)
    expect(await second.call('page.title', {})).toMatchObject({ status: 'ok' })
    await page.close()
  }, 30_000)

  it('refuses an upgrade from another origin', async () => {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = new WebSocket(wsUrl, { origin: 'https://evil.example' })
      socket.on('open', () => resolve(false))
      socket.on('error', () => resolve(true))
    })
    expect(refused).toBe(true)
  })
})
