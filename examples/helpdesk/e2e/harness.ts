import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type CDPSession, type Page } from 'playwright'
import { chromiumLaunchOptions } from '../../../scripts/chromium.mjs'

/** The repository root, where `npm start` is run. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

/** The Chromium of scripts/chromium.mjs, kept off the network. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions(extraArgs))
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** A fresh, empty directory for one run's database; removed by `removeDir`. */
export function freshDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'helpdesk-e2e-'))
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}

export interface RunningHelpdesk {
  url: string
  port: number
  dataDir: string
  /** Everything the process printed so far (for failure messages). */
  output(): string
  /** Stops the process group and waits for it to exit. */
  stop(): Promise<void>
}

/**
 * Starts the helpdesk exactly like a newcomer does — `npm start` at the repository root — on
 * `port` with its database in `dataDir`, and resolves once the API answers (the database is open
 * and seeded by then), or with `until: 'page'` as soon as the page itself is served.
 */
export async function startHelpdesk({
  dataDir,
  port,
  env = {},
  timeoutMs = 90_000,
  until = 'api',
}: {
  dataDir: string
  port?: number
  /** More environment for the app (a model endpoint, the MCP port). */
  env?: Record<string, string>
  timeoutMs?: number
  until?: 'api' | 'page'
}): Promise<RunningHelpdesk> {
  const chosen = port ?? (await freePort())
  const child = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...env,
      PORT: String(chosen),
      HELPDESK_DATA_DIR: dataDir,
      BROWSER: 'none',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let log = ''
  child.stdout?.on('data', (chunk) => (log += chunk))
  child.stderr?.on('data', (chunk) => (log += chunk))
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )

  const url = `http://localhost:${chosen}`
  const running: RunningHelpdesk = {
    url,
    port: chosen,
    dataDir,
    output: () => log,
    stop: () => stopGroup(child, exited),
  }

  const deadline = Date.now() + timeoutMs
  let done = false
  void exited.then(() => (done = true))
  while (Date.now() < deadline) {
    if (done) throw new Error(`npm start exited before the app was ready:\n${log}`)
    try {
      const response = await fetch(until === 'api' ? `${url}/api/health` : `${url}/`, {
        signal: AbortSignal.timeout(5_000),
      })
      if (response.ok) return running
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  await running.stop()
  throw new Error(`The app did not answer on ${url} within ${timeoutMs} ms:\n${log}`)
}

async function stopGroup(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name)
    } catch {}
  }
  signal('SIGTERM')
  const timer = setTimeout(() => signal('SIGKILL'), 10_000)
  await exited
  // npm leaves as soon as its child does; wait for every process of the group (Vite closing
  // the database) so a restart on the same data directory never overlaps.
  const deadline = Date.now() + 15_000
  while (groupAlive(child.pid) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100))
  clearTimeout(timer)
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

/** What `helpdeskSuite` started for a test file: read its fields inside tests and hooks. */
export interface HelpdeskSuite {
  readonly app: RunningHelpdesk
  readonly browser: Browser
}

/**
 * One helpdesk on a fresh database (with `env`) and one Chromium (with `chromiumArgs`) for the
 * test file that calls this at its top: started together before its tests, stopped and removed
 * after them.
 */
export function helpdeskSuite(
  chromiumArgs: string[] = [],
  env: Record<string, string> = {},
): HelpdeskSuite {
  const suite = {} as { app: RunningHelpdesk; browser: Browser }
  let dataDir: string | undefined
  beforeAll(async () => {
    dataDir = freshDataDir()
    ;[suite.app, suite.browser] = await Promise.all([
      startHelpdesk({ dataDir, env }),
      launchChromium(chromiumArgs),
    ])
  })
  afterAll(async () => {
    await suite.browser?.close()
    await suite.app?.stop()
    if (dataDir) removeDir(dataDir)
  })
  return suite
}

/** The person's platform passkey, played by CDP's virtual authenticator. */
export async function authenticatorOn(cdp: CDPSession) {
  await cdp.send('WebAuthn.enable', { enableUI: false })
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return {
    setUserVerified: (isUserVerified: boolean) =>
      cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified }),
  }
}

/** Types a request into the assistant panel and sends it. */
export async function ask(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message the assistant' })
  await box.fill(text)
  await box.press('Enter')
}

/** The transcript's step for a tool (the last one, when it ran more than once). */
export const step = (page: Page, tool: string) =>
  page.getByRole('list', { name: 'Conversation' }).locator(`.step[data-tool="${tool}"]`).last()

/** The confirmation dialog on the page. */
export const dialog = (page: Page) => page.getByRole('alertdialog')
