import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { commandOf, describeProcess, type ProcessInfo } from './portHolder.ts'

/** The lock's file, inside the data directory (Postgres ignores files it does not know). */
export const LOCK_FILE = 'helpdesk.lock'

/** What the lock file holds: who opened the directory, and the port it serves. */
interface LockRecord {
  pid: number
  port?: number
  command?: string
}

/** Another running helpdesk has the data directory open. */
export class DataDirInUse extends Error {
  constructor(
    readonly dir: string,
    readonly holder: ProcessInfo & { port?: number },
  ) {
    const where = holder.port ? `, serving port ${holder.port}` : ''
    super(
      `The database directory ${dir} is in use by ${describeProcess(holder)}${where}: ` +
        'another `npm start` of the helpdesk. Stop that one first, or give this one its own ' +
        'directory and port: HELPDESK_DATA_DIR=/tmp/helpdesk-2 npm start -- --port 5174',
    )
    this.name = 'DataDirInUse'
  }
}

/** A held lock; `release` removes the file if it is still this process's. */
export interface DataDirLock {
  release(): void
}

/**
 * Takes the data directory for this process, before anything in it is read or removed: two
 * Postgres instances on the same files corrupt them, and a fresh start wipes the files. A lock
 * left by a process that is gone (killed, crashed) is taken over; throws `DataDirInUse` when the
 * holder still runs. Two starts racing over one stale lock may both take it: rare enough for a
 * demo, and the port check before it catches the usual case (a second `npm start`).
 */
export function lockDataDir(dir: string, { port }: { port?: number } = {}): DataDirLock {
  mkdirSync(dir, { recursive: true })
  const file = path.join(dir, LOCK_FILE)
  const own: LockRecord = { pid: process.pid, port, command: commandOf(process.pid) }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(own), { flag: 'wx' })
      return held(file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = readLock(file)
    if (holder && running(holder)) throw new DataDirInUse(dir, holder)
    rmSync(file, { force: true })
  }
  throw new DataDirInUse(dir, readLock(file) ?? { pid: 0 })
}

/** Empties `dir` but for its lock: a fresh start reseeds the demo data. */
export function emptyDataDir(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (name !== LOCK_FILE) rmSync(path.join(dir, name), { recursive: true, force: true })
  }
}

function held(file: string): DataDirLock {
  let released = false
  const release = () => {
    if (released) return
    released = true
    process.off('exit', release)
    if (readLock(file)?.pid === process.pid) rmSync(file, { force: true })
  }
  // Vite closes its server on SIGTERM; Ctrl+C ends the process without closing anything, and
  // the next start takes the lock over from the pid that is gone.
  process.once('exit', release)
  return { release }
}

function readLock(file: string): LockRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as LockRecord
    return Number.isInteger(record.pid) ? record : undefined
  } catch {
    return undefined
  }
}

/** Whether the lock's process still runs (and is the same program, where that can be read). */
function running({ pid, command }: LockRecord): boolean {
  if (pid === process.pid) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  // A pid reused by another program after a crash does not hold the directory.
  const now = commandOf(pid)
  return command === undefined || now === undefined || now === command
}
