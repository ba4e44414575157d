import path from 'node:path'
import type { Connect, Plugin } from 'vite'
import { createApi } from './api.ts'
import type { AssistantConfig } from './assistant.ts'
import type { Database } from './database.ts'
import { openDatabase } from './db.ts'

export interface HelpdeskApiOptions {
  /** Where the database files live (created and seeded on first start). */
  dataDir: string
  /** The model behind the assistant panel, when one is configured. */
  assistant?: AssistantConfig | null
}

interface OpenDatabase {
  db: Promise<Database>
  users: number
}

// One database per directory for the whole process: Vite restarts its server (config edits)
// by creating the new one before closing the old, and two instances must never share files.
const open = new Map<string, OpenDatabase>()

function acquire(dataDir: string): { db: Promise<Database>; release: () => Promise<void> } {
  const key = path.resolve(dataDir)
  let entry = open.get(key)
  if (!entry) {
    entry = { db: openDatabase(key), users: 0 }
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
      await (await current.db).close()
    },
  }
}

/**
 * Serves the helpdesk API under `/api` from the Vite dev (and preview) server, so the whole
 * example is one process. The database opens when the server starts and closes with it.
 */
export function helpdeskApi({ dataDir, assistant = null }: HelpdeskApiOptions): Plugin {
  const mount = (
    middlewares: Connect.Server,
    httpServer: { once(e: 'close', f: () => void): unknown } | null,
  ) => {
    const { db, release } = acquire(dataDir)
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
    configureServer(server) {
      mount(server.middlewares, server.httpServer)
    },
    configurePreviewServer(server) {
      mount(server.middlewares, server.httpServer)
    },
  }
}
