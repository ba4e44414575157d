import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { freePort, freshDataDir, removeDir, repoRoot } from './harness.ts'

// A second `npm start` while one runs: it must refuse before it touches the data, naming the
// process that holds the port (or the directory), and the first one's tickets must survive.
// And `npm start -- --port N` serves on N, like PORT=N.

interface Started {
  pid: number
  /** Resolves with the exit code once npm has exited. */
  exited: Promise<number | null>
  output(): string
  /** Stops the whole process group (npm, Vite, the database worker) and waits for it. */
  stop(): Promise<void>
}

/** `npm start <args>` at the repository root, in its own process group. */
function npmStart(args: string[], env: Record<string, string | undefined>): Started {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, BROWSER: 'none', ...env }
  for (const [name, value] of Object.entries(childEnv))
    if (value === undefined) delete childEnv[name]
  const child = spawn('npm', ['start', ...args], {
    cwd: repoRoot,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let log = ''
  child.stdout.on('data', (chunk) => (log += chunk))
  child.stderr.on('data', (chunk) => (log += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const alive = () => {
    try {
      process.kill(-child.pid!, 0)
      return true
    } catch {
      return false
    }
  }
  return {
    pid: child.pid!,
    exited,
    output: () => log,
    async stop() {
      if (alive()) process.kill(-child.pid!, 'SIGTERM')
      const deadline = Date.now() + 20_000
      while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
      if (alive()) process.kill(-child.pid!, 'SIGKILL')
    },
  }
}

/** The exit code of `started`, which must exit within `ms`. */
async function exitCode(started: Started, ms = 90_000): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`npm start still runs after ${ms} ms:\n${started.output()}`)),
      ms,
    )
  })
  try {
    return await Promise.race([started.exited, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Waits until the API on `port` answers (the database is open by then). */
async function ready(started: Started, port: number): Promise<string> {
  const url = `http://localhost:${port}`
  const deadline = Date.now() + 90_000
  let exited = false
  void started.exited.then(() => (exited = true))
  while (Date.now() < deadline && !exited) {
    const health = await fetch(`${url}/api/health`).catch(() => undefined)
    if (health?.ok) return url
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`npm start did not answer on ${url}:\n${started.output()}`)
}

/** The process group of `pid` (`ps`, on Linux and macOS). */
function groupOf(pid: number): number {
  return Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }))
}

async function createTicket(url: string, title: string): Promise<number> {
  const response = await fetch(`${url}/api/tickets`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title,
      requester: 'ravi.shah@northwind.example',
      category: 'hardware',
      priority: 'low',
      description: '',
    }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: number }).id
}

async function ticketTitle(url: string, id: number): Promise<string | undefined> {
  const response = await fetch(`${url}/api/tickets/${id}`)
  return response.ok ? ((await response.json()) as { title: string }).title : undefined
}

/** The pids a refusal names: `process 1234 (…)`. */
/**
 * The ticket's title once the helpdesk is started again on `port` with its data kept: what the
 * files hold, not only what a running database still has in memory.
 */
async function titleAfterRestart(
  env: Record<string, string | undefined>,
  port: number,
  id: number,
): Promise<string | undefined> {
  const again = npmStart([], { ...env, HELPDESK_KEEP_DATA: '1' })
  try {
    return await ticketTitle(await ready(again, port), id)
  } finally {
    await again.stop()
  }
}

const namedPids = (text: string) => [...text.matchAll(/process (\d+)/g)].map((m) => Number(m[1]))

// Each test starts on a data directory of its own, removed after it.
let dataDir: string

beforeEach(() => {
  dataDir = freshDataDir()
})

afterEach(() => removeDir(dataDir))

describe('a second npm start while one runs', () => {
  it('refuses the taken port, names the process holding it, and wipes nothing', async () => {
    const port = await freePort()
    // HELPDESK_KEEP_DATA=0: every start empties the directory, as the default one does.
    const env = { PORT: String(port), HELPDESK_DATA_DIR: dataDir, HELPDESK_KEEP_DATA: '0' }
    const first = npmStart([], env)
    let second: Started | undefined
    try {
      const url = await ready(first, port)
      const id = await createTicket(url, 'Docking station does not charge the laptop')

      second = npmStart([], env)
      const code = await exitCode(second)
      const output = second.output()

      expect(code).not.toBe(0)
      expect(output).toMatch(new RegExp(`Port ${port} is already in use by process \\d+`))
      // The named process is the first helpdesk's own server (in the first npm's group).
      const pids = namedPids(output)
      expect(pids.length).toBeGreaterThan(0)
      for (const pid of pids) expect(groupOf(pid)).toBe(first.pid)
      expect(output).toContain('npm start -- --port')

      expect(await ticketTitle(url, id)).toBe('Docking station does not charge the laptop')
      // The files too, not only what the running database still holds in memory.
      await first.stop()
      expect(await titleAfterRestart(env, port, id)).toBe(
        'Docking station does not charge the laptop',
      )
    } finally {
      await second?.stop()
      await first.stop()
    }
  }, 240_000)

  it('refuses a data directory another helpdesk has open, on another port', async () => {
    const port = await freePort()
    const env = { PORT: String(port), HELPDESK_DATA_DIR: dataDir, HELPDESK_KEEP_DATA: '0' }
    const first = npmStart([], env)
    let second: Started | undefined
    try {
      const url = await ready(first, port)
      const id = await createTicket(url, 'Headset microphone is very quiet')
      const other = await freePort()

      second = npmStart(['--', '--port', String(other)], {
        PORT: undefined,
        HELPDESK_DATA_DIR: dataDir,
        HELPDESK_KEEP_DATA: '0',
      })
      const code = await exitCode(second)
      const output = second.output()

      expect(code).not.toBe(0)
      expect(output).toContain(`The database directory ${dataDir} is in use by process`)
      expect(output).toContain(`serving port ${port}`)
      const pids = namedPids(output)
      expect(pids).toHaveLength(1)
      expect(groupOf(pids[0])).toBe(first.pid)
      await expect(fetch(`http://localhost:${other}/`)).rejects.toThrow()

      expect(await ticketTitle(url, id)).toBe('Headset microphone is very quiet')
      await first.stop()
      expect(await titleAfterRestart(env, port, id)).toBe('Headset microphone is very quiet')
    } finally {
      await second?.stop()
      await first.stop()
    }
  }, 240_000)
})

describe('two npm starts on one data directory', () => {
  it('started at the same moment on two ports: one serves, the other refuses', async () => {
    const ports = [await freePort(), await freePort()]
    const starts = ports.map((port) =>
      npmStart(['--', '--port', String(port)], {
        PORT: undefined,
        HELPDESK_DATA_DIR: dataDir,
        HELPDESK_KEEP_DATA: '0',
      }),
    )
    try {
      const outcomes = await Promise.all(
        starts.map((started, i) =>
          Promise.race([
            ready(started, ports[i]).then(() => 'serves' as const),
            started.exited.then(() => 'refused' as const),
          ]).catch(() => 'refused' as const),
        ),
      )
      expect([...outcomes].sort()).toEqual(['refused', 'serves'])
      const winner = outcomes.indexOf('serves')
      const loser = starts[1 - winner]
      expect(await exitCode(loser)).not.toBe(0)
      const pids = namedPids(loser.output())
      expect(pids).toHaveLength(1)
      expect(groupOf(pids[0])).toBe(starts[winner].pid)
      expect(loser.output()).toContain(`serving port ${ports[winner]}`)
    } finally {
      await Promise.all(starts.map((started) => started.stop()))
    }
  }, 240_000)

  it('takes over the lock of a helpdesk that is gone (killed, crashed)', async () => {
    const gone = spawn(process.execPath, ['-e', ''])
    await new Promise((resolve) => gone.once('exit', resolve))
    writeFileSync(
      path.join(dataDir, 'helpdesk.lock'),
      JSON.stringify({ pid: gone.pid, port: 5173, command: 'node vite' }),
    )
    const port = await freePort()
    const app = npmStart([], { PORT: String(port), HELPDESK_DATA_DIR: dataDir })
    try {
      const url = await ready(app, port)
      expect((await fetch(`${url}/api/tickets`)).status).toBe(200)
      const lock = JSON.parse(readFileSync(path.join(dataDir, 'helpdesk.lock'), 'utf8'))
      expect(lock.pid).not.toBe(gone.pid)
      expect(groupOf(lock.pid)).toBe(app.pid)
    } finally {
      await app.stop()
    }
    // A clean stop leaves no lock behind.
    expect(existsSync(path.join(dataDir, 'helpdesk.lock'))).toBe(false)
  }, 120_000)
})

describe('npm start -- --port N', () => {
  it('serves the app and its API on N, over PORT', async () => {
    const port = await freePort()
    const ignored = await freePort()
    const app = npmStart(['--', '--port', String(port)], {
      PORT: String(ignored),
      HELPDESK_DATA_DIR: dataDir,
    })
    try {
      const url = await ready(app, port)
      const page = await fetch(`${url}/`)
      expect(await page.text()).toContain('<div id="root"')
      await expect(fetch(`http://localhost:${ignored}/`)).rejects.toThrow()
      // Vite colours its banner where the terminal or CI asks for colour: read it without.
      // eslint-disable-next-line no-control-regex
      expect(app.output().replace(/\u001b\[[0-9;]*m/g, '')).toContain(`http://localhost:${port}/`)
    } finally {
      await app.stop()
    }
  }, 120_000)
})
