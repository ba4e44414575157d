import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright'
import { lintManifest } from '@toolmark/core/lint'
import { pageUnderTest, toolmarkMatchers, type PageUnderTest } from '@toolmark/core/testing'
import {
  freshDataDir,
  launchChromium,
  removeDir,
  startHelpdesk,
  type RunningHelpdesk,
} from './harness.ts'

expect.extend(toolmarkMatchers)

/** The flow recorded here, replayed in jsdom by test/helpdeskReplay.test.ts. */
const RECORDING = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'recordings/close-ticket.jsonl',
)

let app: RunningHelpdesk
let browser: Browser
let dataDir: string

beforeAll(async () => {
  dataDir = freshDataDir()
  ;[app, browser] = await Promise.all([
    // The test build: the page installs the hook the tools fixture drives.
    startHelpdesk({ dataDir, env: { VITE_TOOLMARK_TEST_HOOK: '1' } }),
    launchChromium(),
  ])
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  if (dataDir) removeDir(dataDir)
})

async function openPage(): Promise<{ page: Page; tools: PageUnderTest }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(`${app.url}/`)
  await page.getByRole('list', { name: 'Tickets' }).waitFor()
  const tools = pageUnderTest(page)
  await tools.waitForTool('tickets.close', { timeoutMs: 20_000 })
  return { page, tools }
}

describe('the helpdesk under the team tools', () => {
  it("has a manifest with no lint errors, read from the live page's registry", async () => {
    const { page, tools } = await openPage()
    const manifest = await tools.lintManifest()
    expect(manifest).toHaveTool('tickets.close', { hints: { consequential: true } })
    expect(manifest).toHaveTool('tickets.delete', { hints: { destructive: true } })
    const report = lintManifest(manifest)
    // Warnings are advice (printed for the reader); errors would fail a CI lint.
    for (const f of report.findings)
      console.log(`${f.severity} ${f.rule} ${f.tool} ${f.path ?? ''}`)
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([])
    expect(report.tools).toBeGreaterThan(5)
    await page.close()
  })

  it('records a close the person approves, which replays in jsdom from the committed recording', async () => {
    const { page, tools } = await openPage()
    await tools.startRecording()

    const found = await tools.call('tickets.search', { query: 'printer' }, { caller: 'inapp' })
    expect(found.status).toBe('ok')
    const asked = await tools.call('tickets.close', { id: 3 }, { caller: 'inapp' })
    expect(asked).toBeConsequential()
    const entry = await tools.waitForConfirmation({ tool: 'tickets.close' })
    // The person approves in the dialog itself.
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: 'Approve', exact: true })
      .click()
    // The next call starts once the approved close has finished, so the lines keep their order.
    expect(await tools.waitForResult(entry.callId, { timeoutMs: 10_000 })).toMatchObject({
      status: 'ok',
    })
    expect(await tools.confirmations()).toEqual([])
    const missing = await tools.call('tickets.close', { id: 999 }, { caller: 'inapp' })
    expect(missing).toMatchObject({ status: 'refused', code: 'not_found' })
    const recording = await tools.stopRecording()
    expect(entry.summary).toContain('#3')

    const kinds = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const l = JSON.parse(line)
          return [l.type, l.tool ?? '', l.result?.status ?? l.decision ?? ''].join(' ')
        })
    if (process.env.TOOLMARK_UPDATE_RECORDINGS === '1') writeFileSync(RECORDING, recording)
    // The committed recording is this flow: the same lines, in the same order.
    expect(kinds(recording)).toEqual(kinds(readFileSync(RECORDING, 'utf8')))
    const closed = await fetch(`${app.url}/api/tickets/3`).then((r) => r.json())
    expect(closed.status).toBe('closed')
    await page.close()
  })
})
