import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { createServer } from 'node:net'

/** A process, as far as this machine lets us see it. */
export interface ProcessInfo {
  pid: number
  /** Its command line, when readable (`/proc/<pid>/cmdline` on Linux, `lsof` elsewhere). */
  command?: string
}

/**
 * Whether `port` can be listened on at `host` right now, probed the way Vite listens (`host`
 * undefined means every address). Any error but "in use" counts as free: the real listen that
 * follows reports it in full.
 */
export function portInUse(port: number, host: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'))
    probe.listen({ port, host }, () => probe.close(() => resolve(false)))
  })
}

/**
 * The processes listening on TCP `port`: read from `/proc` on Linux (sockets of other users'
 * processes stay hidden), from `lsof` where it exists, else none.
 */
export function portHolders(port: number): ProcessInfo[] {
  if (process.platform === 'linux') {
    const found = holdersFromProc(port)
    if (found.length > 0) return found
  }
  return holdersFromLsof(port)
}

/** A process's command line from `/proc`, or undefined where that cannot be read. */
export function commandOf(pid: number): string | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    const command = raw.split('\0').filter(Boolean).join(' ')
    return command || undefined
  } catch {
    return undefined
  }
}

/** Describes a process for a message: `process 1234 (node …/vite)`. */
export function describeProcess({ pid, command }: ProcessInfo): string {
  return command ? `process ${pid} (${command})` : `process ${pid}`
}

function holdersFromProc(port: number): ProcessInfo[] {
  const inodes = new Set<string>()
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0')
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = readFileSync(table, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/)
      const LISTEN = '0A'
      if (fields.length > 9 && fields[3] === LISTEN && fields[1].endsWith(`:${hexPort}`))
        inodes.add(fields[9])
    }
  }
  if (inodes.size === 0) return []
  const holders: ProcessInfo[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let fds: string[]
    try {
      fds = readdirSync(`/proc/${entry}/fd`)
    } catch {
      continue
    }
    const holds = fds.some((fd) => {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${entry}/fd/${fd}`))?.[1]
        return inode !== undefined && inodes.has(inode)
      } catch {
        return false
      }
    })
    if (holds) holders.push({ pid: Number(entry), command: commandOf(Number(entry)) })
  }
  return holders
}

function holdersFromLsof(port: number): ProcessInfo[] {
  // -F pc: one `p<pid>` line per process, then `c<command name>`.
  const out = spawnSync('lsof', ['-nP', `-iTCP:${port}`, '-sTCP:LISTEN', '-Fpc'], {
    encoding: 'utf8',
    timeout: 5_000,
  })
  if (out.error || typeof out.stdout !== 'string') return []
  const holders: ProcessInfo[] = []
  for (const line of out.stdout.split('\n')) {
    if (line.startsWith('p')) holders.push({ pid: Number(line.slice(1)) })
    else if (line.startsWith('c') && holders.length > 0) holders.at(-1)!.command = line.slice(1)
  }
  return holders.filter((holder) => Number.isInteger(holder.pid))
}
