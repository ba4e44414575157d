import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createElement, StrictMode } from 'react'
import { render } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createToolmark } from '@toolmark/core'
import { lintManifest, lintManifestOf } from '@toolmark/core/lint'
import { replaySession, ReplayError } from '@toolmark/core/testing'
import { ToolProvider } from '@toolmark/react'
import { createApi } from '../examples/helpdesk/server/api.ts'
import type { Database } from '../examples/helpdesk/server/database.ts'
import { openDatabase } from '../examples/helpdesk/server/db.ts'
import { useTicketTools } from '../examples/helpdesk/src/tools.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
/** Recorded in real Chromium by examples/helpdesk/e2e/teamTools.e2e.test.ts. */
const recording = readFileSync(
  path.join(here, '../examples/helpdesk/e2e/recordings/close-ticket.jsonl'),
  'utf8',
)
/** Values that change with the day the database was seeded and the moment of the close. */
const ignore = ['**.createdAt', '**.closedAt', '**.updatedAt']

let dataDir: string
let db: Database
let server: Server
let base: string
const realFetch = globalThis.fetch

beforeAll(async () => {
  // The helpdesk's own API over a fresh, seeded database, as `npm start` serves it under /api.
  dataDir = mkdtempSync(path.join(tmpdir(), 'helpdesk-replay-'))
  db = await openDatabase(dataDir)
  const handle = createApi(async () => db)
  server = createServer((req, res) => {
    req.url = req.url!.replace(/^\/api/, '') || '/'
    void handle(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  // The app fetches relative URLs, as a page does; jsdom's AbortSignal is not Node's, so the
  // signal stays behind (nothing here aborts).
  vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) => {
    const { signal: _signal, ...rest } = init
    return realFetch(new URL(input, base), rest)
  })
}, 120_000)

afterAll(async () => {
  vi.unstubAllGlobals()
  await new Promise((resolve) => server?.close(resolve))
  await db?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

/** The helpdesk's ticket tools, mounted as the app mounts them, over a registry the test holds. */
function mountHelpdeskTools() {
  const tm = createToolmark()
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  function Tools() {
    useTicketTools()
    return null
  }
  const view = render(
    createElement(
      StrictMode,
      null,
      createElement(
        QueryClientProvider,
        { client },
        createElement(ToolProvider, { toolmark: tm }, createElement(Tools)),
      ),
    ),
  )
  return { tm, unmount: view.unmount }
}

describe('a helpdesk flow recorded in Chromium, replayed in jsdom', () => {
  it("lints the helpdesk's ticket tools with no errors", async () => {
    const { tm, unmount } = mountHelpdeskTools()
    await vi.waitFor(() => expect(tm.describe('tickets.close')).toBeDefined())
    const report = lintManifest(lintManifestOf(tm))
    expect(report.tools).toBeGreaterThanOrEqual(6)
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([])
    unmount()
  })

  it('replays the search, the approved close and the refusal, matching every result', async () => {
    const { tm, unmount } = mountHelpdeskTools()
    const report = await replaySession(tm, recording, { ignore, timeoutMs: 10_000 })
    expect(report).toEqual({ calls: 3, results: 4, answers: 1 })
    const stored = await realFetch(`${base}/tickets/3`).then((r) => r.json())
    expect(stored.status).toBe('closed')
    unmount()
  }, 30_000)

  it('fails with the diff when the page drifts: the ticket is already closed', async () => {
    // Ticket 3 was closed by the replay above: the same flow now meets a different page.
    const { tm, unmount } = mountHelpdeskTools()
    const failure = await replaySession(tm, recording, { ignore, timeoutMs: 2_000 }).catch(
      (e: unknown) => e,
    )
    expect(failure).toBeInstanceOf(ReplayError)
    const { diffs, message } = failure as ReplayError
    // No dialog this time (the tool's check refuses at once), and a refusal for the approval.
    expect(diffs.slice(0, 3).map((d) => [d.line, d.callId, d.path, d.expected, d.actual])).toEqual([
      [
        5,
        'c2',
        'confirmation',
        'Close ticket #3 “Zoom screen sharing shows a black window”',
        'no confirmation within 2000 ms',
      ],
      [6, 'c2', 'status', 'needs_confirmation', 'refused'],
      [6, 'c2', 'changes', [], undefined],
    ])
    expect(message).toContain(
      'line 6 tickets.close (c2) status: expected "needs_confirmation", got "refused"',
    )
    unmount()
  }, 30_000)
})
