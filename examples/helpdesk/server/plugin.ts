import path from 'node:path'
import { inspect } from 'node:util'
import type { Connect, Plugin } from 'vite'
import { createApi } from './api.ts'
import type { AssistantConfig } from './assistant.ts'
import { DataDirInUse, emptyDataDir, lockDataDir, type DataDirLock } from './dataDirLock.ts'
import type { Database } from './database.ts'
import { openDatabase } from './db.ts'
import { describeProcess, portHolders, portInUse } from './portHolder.ts'

export interface HelpdeskApiOptions {
  /** Where the database files live (created and seeded on first start). */
  dataDir: string
  /**
   * Start from the demo data: the directory is emptied before the database opens, once the
   * port and the directory are known to be free (never under a running helpdesk). Default false.
   */
  fresh?: boolean
  /** The model behind the assistant panel, when one is configured. */
  assistant?: AssistantConfig | null
}

interface OpenDatabase {
  db: Promise<Database>
  users: number
  /** This process's hold on the directory, released when the database closes. */
  lock: DataDirLock
}

// One database per directory for the whole process: Vite restarts its server (config edits)
// by creating the new one before closing the old, and two instances must never share files.
// Kept on globalThis because a restart evaluates the config, and this module with it, again.
const OPEN = Symbol.for('toolmark.helpdesk.openDatabases')
const shared = globalThis as { [OPEN]?: Map<string, OpenDatabase> }
const open = (shared[OPEN] ??= new Map<string, OpenDatabase>())

/** Why the server does not start; Vite prints it (`util.inspect`) as the message alone. */
class StartRefused extends Error {
  [inspect.custom]() {
    return this.message
  }
}

interface Listen {
  port: number
  host: string | boolean | undefined
}

/**
 * Refuses a port another process listens on, naming that process, before the data directory
 * is touched: Vite would find the port taken only after a fresh start had wiped the files of
 * the helpdesk that holds it.
 */
async function assertPortFree({ port, host }: Listen, dataDir: string): Promise<void> {
  // Vite's own reading of `server.host`: unset is localhost, true every address.
  const address =
    host === undefined || host === false ? 'localhost' : host === true ? undefined : host
  if (port === 0 || !(await portInUse(port, address))) return
  const holders = portHolders(port)
  const who = holders.length > 0 ? holders.map(describeProcess).join(', ') : 'another process'
  throw new StartRefused(
    `Port ${port} is already in use by ${who}, perhaps another \`npm start\`. Stop it, or ` +
      `start this one on another port: npm start -- --port ${port + 1}. ` +
      `Nothing in ${dataDir} was changed.`,
  )
}

function acquire(
  dataDir: string,
  { fresh, port }: { fresh: boolean; port: number },
): { db: Promise<Database>; release: () => Promise<void> } {
  const key = path.resolve(dataDir)
  let entry = open.get(key)
  if (!entry) {
    // Locked before anything in the directory is removed or opened.
    const lock = lockDataDir(key, { port })
    if (fresh) emptyDataDir(key)
    entry = { db: openDatabase(key), users: 0, lock }
    open.set(key, entry)
  }
  entry.users++
  const current = entry
  let released = false
  return {
    db: current.db,
    async release() {
      if (released) return
      released = true
      if (--current.users > 0) return
      open.delete(key)
      await (await current.db.catch(() => undefined))?.close()
      current.lock.release()
    },
  }
}

/**
 * Serves the helpdesk API under `/api` from the Vite dev (and preview) server, so the whole
 * example is one process. The database opens when the server starts and closes with it; a
 * start refuses (before touching the data) when its port is taken or another helpdesk has the
 * data directory open.
 */
export function helpdeskApi({
  dataDir,
  fresh = false,
  assistant = null,
}: HelpdeskApiOptions): Plugin {
  const mount = async (
    middlewares: Connect.Server,
    httpServer: { once(e: 'close', f: () => void): unknown } | null,
    listen: Listen,
  ) => {
    // A restart in this process already holds its port and directory.
    if (!open.has(path.resolve(dataDir))) await assertPortFree(listen, path.resolve(dataDir))
    let acquired
    try {
      acquired = acquire(dataDir, { fresh, port: listen.port })
    } catch (error) {
      throw error instanceof DataDirInUse ? new StartRefused(error.message) : error
    }
    const { db, release } = acquired
    db.then(
      () => console.log(`  helpdesk: database ready in ${path.resolve(dataDir)}`),
      (error) => console.error('  helpdesk: the database failed to open', error),
    )
    if (assistant)
      console.log(`  helpdesk: assistant model ${assistant.model} at ${assistant.baseUrl}`)
    const handle = createApi(() => db, { assistant })
    middlewares.use('/api', (req, res) => void handle(req, res))
    httpServer?.once('close', () => void release())
  }
  return {
    name: 'helpdesk-api',
    async configureServer(server) {
      const { port = 5173, host } = server.config.server
      await mount(server.middlewares, server.httpServer, { port, host })
    },
    async configurePreviewServer(server) {
      const { port = 4173, host } = server.config.preview
      await mount(server.middlewares, server.httpServer, { port, host })
    },
  }
}
