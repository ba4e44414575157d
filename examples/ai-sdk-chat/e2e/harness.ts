import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright'

/** The repository root, where `npm run start:ai-sdk` is run. */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

/** Debian's Chromium, kept off the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}

function freePort(): Promise<number> {
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

export interface RunningApp {
  url: string
  output(): string
  stop(): Promise<void>
}

/**
 * Starts the example as a newcomer does — `npm run start:ai-sdk` at the repository root — on a
 * free port, without a model endpoint (so the scripted model answers), and resolves once it
 * answers `/api/health`.
 */
export async function startApp(timeoutMs = 90_000): Promise<RunningApp> {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), BROWSER: 'none' }
  delete env.OPENAI_BASE_URL
  delete env.OPENAI_API_KEY
  const child = spawn('npm', ['run', 'start:ai-sdk'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let log = ''
  child.stdout?.on('data', (chunk) => (log += chunk))
  child.stderr?.on('data', (chunk) => (log += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let done = false
  void exited.then(() => (done = true))
  const url = `http://localhost:${port}`
  const app: RunningApp = { url, output: () => log, stop: () => stopGroup(child, exited) }
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (done) throw new Error(`npm run start:ai-sdk exited before the app was ready:\n${log}`)
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) })
      if (response.ok) return app
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await app.stop()
  throw new Error(`The app did not answer on ${url} within ${timeoutMs} ms:\n${log}`)
}

async function stopGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name)
    } catch {}
  }
  signal('SIGTERM')
  const timer = setTimeout(() => signal('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}
