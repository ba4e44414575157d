import { rmSync } from 'node:fs'
import path from 'node:path'
import type { Browser } from 'playwright'
import { freshDataDir, launchChromium, removeDir, repoRoot, startHelpdesk } from './harness.ts'

// What a newcomer sees right after `npm start`: the page as soon as the server answers, a
// loading state at once, then the app — measured with Vite's dependency cache removed (cold)
// and kept (warm). The figures go to the test output.

/** Where Vite keeps the example's pre-bundled dependencies. */
const viteCache = path.join(repoRoot, 'examples/helpdesk/node_modules/.vite')

let browser: Browser
let dataDir: string

beforeAll(async () => {
  dataDir = freshDataDir()
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  if (dataDir) removeDir(dataDir)
})

interface FirstVisit {
  /** Milliseconds after `npm start` when each thing happened. */
  served: number
  loading: number
  app: number
  list: number
  /** Whether the app's shell was on screen before the API could answer. */
  appBeforeDatabase: boolean
  /** What the first paint showed. */
  first: 'loading' | 'app' | 'blank'
}

async function firstVisit(): Promise<FirstVisit> {
  const started = Date.now()
  const app = await startHelpdesk({ dataDir, until: 'page' })
  const at = () => Date.now() - started
  try {
    const served = at()
    let databaseReady = false
    void (async () => {
      while (!databaseReady) {
        const ok = await fetch(`${app.url}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
        if (ok) databaseReady = true
        else await new Promise((r) => setTimeout(r, 100))
      }
    })()

    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.goto(app.url, { waitUntil: 'commit' })
    // The document is tiny: what it paints first is either the loading state or the app.
    await page.locator('.boot, .app').first().waitFor({ timeout: 60_000 })
    const first = (await page.locator('.boot').count()) ? 'loading' : 'app'
    const loading = at()
    await page.locator('.app').waitFor({ timeout: 120_000 })
    const appShown = at()
    const appBeforeDatabase = !databaseReady
    await page.getByRole('list', { name: 'Tickets' }).waitFor({ timeout: 120_000 })
    const list = at()
    databaseReady = true
    await page.close()
    return { served, loading, app: appShown, list, appBeforeDatabase, first }
  } finally {
    await app.stop()
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

describe('the first visit after npm start', () => {
  it('paints a loading state at once, then the app without waiting for the database', async () => {
    rmSync(viteCache, { recursive: true, force: true })
    // Cold: no pre-bundled dependencies, and a database that does not exist yet.
    const cold = await firstVisit()
    // Warm: the second start, as on any later day.
    const warm = await firstVisit()

    for (const [name, visit] of [
      ['cold', cold],
      ['warm', warm],
    ] as const) {
      console.log(
        `first visit (${name}): page served ${seconds(visit.served)} after npm start, ` +
          `loading state ${seconds(visit.loading)}, app ${seconds(visit.app)}, ` +
          `ticket list ${seconds(visit.list)}`,
      )
    }

    for (const visit of [cold, warm]) {
      expect(visit.first).toBe('loading')
      // The loading state is in the HTML: it paints as soon as the page is served.
      expect(visit.loading - visit.served).toBeLessThan(10_000)
      expect(visit.list).toBeGreaterThanOrEqual(visit.app)
    }
    // Creating the database takes seconds of WebAssembly; it runs in a worker thread, so the dev
    // server serves the app meanwhile and the queue shows its loading rows.
    expect(cold.appBeforeDatabase).toBe(true)
  })
})
