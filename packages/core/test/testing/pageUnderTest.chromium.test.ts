import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lintManifest } from '@toolmark/core/lint'
import {
  createTestToolmark,
  pageUnderTest,
  replaySession,
  toolmarkFixtures,
  toolmarkMatchers,
  type PageUnderTest,
} from '@toolmark/core/testing'
import { ok } from '@toolmark/core'
import { z } from 'zod'
import { aliases } from '../../../../aliases'
import { chromiumLaunchOptions } from '../../../../scripts/chromium.mjs'

expect.extend(toolmarkMatchers)

const here = path.dirname(fileURLToPath(import.meta.url))

/** Bundles the page under test for the browser, in memory. */
async function bundlePage(entry: string): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    resolve: { alias: aliases },
    build: {
      write: false,
      minify: false,
      lib: { entry: path.join(here, 'fixtures', entry), formats: ['iife'], name: 'page' },
    },
  })
  const result = Array.isArray(output) ? output[0] : output
  if (!('output' in result)) throw new Error('unexpected vite build result')
  return result.output[0].code
}

let browser: Browser
let server: Server
let origin: string

beforeAll(async () => {
  const script = await bundlePage('hookPage.ts')
  server = createServer((request, response) => {
    if (request.url === '/page.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' })
      response.end(script)
    } else if (request.url === '/plain') {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<!doctype html><title>No hook</title>')
    } else {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<!doctype html><title>Page under test</title><script src="/page.js"></script>')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  browser = await chromium.launch(chromiumLaunchOptions())
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => server?.close(resolve))
})

/** Runs the `tools` fixture the way `@playwright/test` does: set up, use, tear down. */
async function withTools(page: Page, body: (tools: PageUnderTest) => Promise<void>) {
  await toolmarkFixtures.tools({ page }, body)
}

// A real browser on a machine that may be busy: generous deadlines.
describe('the tools fixture in real Chromium', { timeout: 30_000 }, () => {
  it('lists, calls and answers confirmations in the page under test', async () => {
    const page = await browser.newPage()
    await page.goto(origin)
    await withTools(page, async (tools) => {
      await tools.waitForTool('tickets.close')
      const listed = await tools.list({ caller: 'webmcp' })
      expect(listed).toHaveTool('tickets.close', { hints: { consequential: true } })
      expect(listed).toHaveTool('tickets.search', { hints: { readOnly: true } })
      expect(listed.tools.find((t) => t.name === 'tickets.close')).toBeConsequential()

      expect(await tools.call('tickets.search', { query: 'printer' })).toEqual({
        status: 'ok',
        data: [{ id: 3, title: 'Printer jammed' }],
      })

      // An inline call (a browser agent) waits in the page while the test answers as the person.
      const closing = tools.call('tickets.close', { id: 3 }, { caller: 'webmcp' })
      const entry = await tools.waitForConfirmation({ tool: 'tickets.close' })
      expect(entry.summary).toBe('Close ticket #3')
      expect(await tools.approve(entry.id)).toEqual({
        status: 'ok',
        data: { id: 3, status: 'closed' },
      })
      expect(await closing).toEqual({ status: 'ok', data: { id: 3, status: 'closed' } })
      expect(await tools.waitForResult(entry.callId)).toEqual(await closing)

      // A deferred one is answered later, and a second answer is refused.
      const deferred = await tools.call('tickets.close', { id: 4 }, { caller: 'inapp' })
      expect(deferred).toBeConsequential()
      const id = deferred.status === 'needs_confirmation' ? deferred.confirmId : ''
      const waiting = (await tools.waitForConfirmation({ tool: 'tickets.close' })).callId
      // Still waiting for the person: no final result yet, so the wait runs out.
      await expect(tools.waitForResult(waiting, { timeoutMs: 100 })).rejects.toThrow(
        `Timed out after 100 ms waiting for the result of call "${waiting}"`,
      )
      expect(await tools.reject(id, 'not now')).toEqual({ status: 'cancelled', by: 'operator' })
      expect(await tools.reject(id)).toMatchObject({
        status: 'refused',
        code: 'confirmation_expired',
      })
      expect(await tools.confirmations()).toEqual([])
      expect(await tools.waitForResult(waiting)).toEqual({ status: 'cancelled', by: 'operator' })
    })
    await page.close()
  })

  it('fails a wait for a confirmation at once when the calls it waits on ended without asking', async () => {
    const page = await browser.newPage()
    await page.goto(origin)
    await withTools(page, async (tools) => {
      await tools.waitForTool('tickets.close', { caller: 'webmcp' })
      // An input the tool refuses before asking anyone: the wait does not sit out its 20 s.
      const started = Date.now()
      const refused = tools.call('tickets.close', { id: 'three' }, { caller: 'webmcp' })
      await expect(
        tools.waitForConfirmation({ tool: 'tickets.close', timeoutMs: 20_000 }),
      ).rejects.toThrow(
        /^No confirmation of "tickets.close" is pending, and the call it waited on ended without one: tickets.close returned \{"status":"invalid"/,
      )
      expect(Date.now() - started).toBeLessThan(5000)
      expect((await refused).status).toBe('invalid')

      // Overlapping calls: one ends at once, the other asks; the wait returns the one that asks.
      const bad = tools.call('tickets.close', { id: 'four' }, { caller: 'webmcp' })
      const good = tools.call('tickets.close', { id: 4 }, { caller: 'webmcp' })
      const entry = await tools.waitForConfirmation({ tool: 'tickets.close', timeoutMs: 20_000 })
      expect(entry.summary).toBe('Close ticket #4')
      expect((await bad).status).toBe('invalid')
      expect(await tools.approve(entry.id)).toEqual({
        status: 'ok',
        data: { id: 4, status: 'closed' },
      })
      // A second answer, late, is refused and changes nothing.
      expect(await tools.approve(entry.id)).toMatchObject({
        status: 'refused',
        code: 'confirmation_expired',
      })
      expect(await good).toEqual({ status: 'ok', data: { id: 4, status: 'closed' } })

      // Both overlapping calls end unasked: the failure names each.
      const one = tools.call('tickets.close', { id: 'x' }, { caller: 'webmcp' })
      const two = tools.call('tickets.search', { query: 'printer' }, { caller: 'webmcp' })
      await expect(tools.waitForConfirmation({ timeoutMs: 20_000 })).rejects.toThrow(
        /the calls it waited on ended without one: tickets.close returned \{"status":"invalid".*; tickets.search returned \{"status":"ok"/,
      )
      await Promise.all([one, two])

      // The call of the named tool ended unasked before the wait began: the wait ends at once.
      await tools.call('tickets.close', { id: 'y' }, { caller: 'webmcp' })
      const late = Date.now()
      await expect(
        tools.waitForConfirmation({ tool: 'tickets.close', timeoutMs: 20_000 }),
      ).rejects.toThrow(
        /^No confirmation of "tickets.close" is pending, and the call it waited on ended without one: tickets.close returned \{"status":"invalid"/,
      )
      expect(Date.now() - late).toBeLessThan(5000)
      // With no tool named, an ended call is not waited on (the page may still ask): a timeout
      // names how the last one ended.
      await expect(tools.waitForConfirmation({ timeoutMs: 100 })).rejects.toThrow(
        /^Timed out after 100 ms waiting for a confirmation; the last call made with tools.call \(tickets.close\) returned \{"status":"invalid"/,
      )
      expect(await tools.confirmations()).toEqual([])
    })
    await page.close()
  })

  it('lints the live manifest and records a session that replays against a registry in node', async () => {
    const page = await browser.newPage()
    await page.goto(origin)
    await withTools(page, async (tools) => {
      await tools.waitForTool('tickets.close')
      const report = lintManifest(await tools.lintManifest())
      expect(report.errors).toBe(0)

      await tools.startRecording()
      await tools.call('tickets.search', { query: 'printer' }, { caller: 'inapp' })
      const closing = tools.call('tickets.close', { id: 3 }, { caller: 'mcp' })
      await tools.approve((await tools.waitForConfirmation()).id)
      await closing
      const recording = await tools.stopRecording()
      expect(recording.split('\n').filter(Boolean)).toHaveLength(7)

      // The same tools in node replay what the page did.
      const tm = createTestToolmark()
      tm.register({
        name: 'tickets.search',
        description: 'Searches tickets by words in their title',
        hints: { readOnly: true },
        input: z.object({ query: z.string() }),
        run: () => ok([{ id: 3, title: 'Printer jammed' }]),
      })
      tm.register({
        name: 'tickets.close',
        description: 'Closes a ticket',
        hints: { consequential: true },
        input: z.object({ id: z.number() }),
        summary: ({ id }) => `Close ticket #${id}`,
        run: ({ id }) => ok({ id, status: 'closed' }),
      })
      expect(await replaySession(tm, recording)).toEqual({ calls: 2, results: 2, answers: 1 })
    })
    await page.close()
  })

  it('says how to install the hook when the page has none', async () => {
    const page = await browser.newPage()
    await page.goto(`${origin}/plain`)
    const tools = pageUnderTest(page)
    await expect(tools.list()).rejects.toThrow(/no Toolmark test hook: call installTestHook\(tm\)/)
    await expect(tools.waitForTool('x', { timeoutMs: 100 })).rejects.toThrow(
      'Timed out after 100 ms waiting for the tool "x"',
    )
    await page.close()
  })
})
