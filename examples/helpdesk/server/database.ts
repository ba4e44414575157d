import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'

/** What the API runs SQL on: the database, or one transaction of it. */
export interface Queryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: T[]; affectedRows?: number }>
  exec(sql: string): Promise<void>
}

/** The helpdesk's database, served by a worker thread. */
export interface Database extends Queryable {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** An error the database reported, with its Postgres code when it has one. */
export class DatabaseError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message)
  }
}

type Reply =
  | { id: number; result: unknown }
  | { id: number; error: { message: string; code?: string } }
  | { ready: true }
  | { failed: string }

/**
 * Starts Postgres (PGlite) for `dataDir` in a worker thread and resolves once it is open.
 * Creating a database the first time takes seconds of WebAssembly; in a worker, the dev server
 * keeps serving the page meanwhile.
 */
export function startDatabase(dataDir: string): Promise<Database> {
  // Built from this file's path, not `new URL(…, import.meta.url)`: bundlers rewrite that form
  // into an asset URL, which a worker thread cannot load.
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dbWorker.mjs')
  const worker = new Worker(script, { workerData: { dataDir } })
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  let nextId = 1
  let exited: Error | undefined

  const send = (message: Record<string, unknown>): Promise<unknown> => {
    if (exited) return Promise.reject(exited)
    const id = nextId++
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject })
      worker.postMessage({ ...message, id })
    })
  }

  const queryable = (tx?: number): Queryable => ({
    query: (sql, params) =>
      send({ op: 'query', sql, params, tx }) as Promise<{ rows: never[]; affectedRows?: number }>,
    exec: async (sql) => {
      await send({ op: 'exec', sql, tx })
    },
  })

  const database: Database = {
    ...queryable(),
    async transaction(fn) {
      const { tx } = (await send({ op: 'begin' })) as { tx: number }
      let value
      try {
        value = await fn(queryable(tx))
      } catch (error) {
        await send({ op: 'end', tx, commit: false })
        throw error
      }
      await send({ op: 'end', tx, commit: true })
      return value
    },
    async close() {
      if (exited) return
      await send({ op: 'close' }).catch(() => {})
      await worker.terminate()
    },
  }

  return new Promise((resolve, reject) => {
    worker.on('message', (reply: Reply) => {
      if ('ready' in reply) resolve(database)
      else if ('failed' in reply) reject(new DatabaseError(reply.failed))
      else {
        const waiting = pending.get(reply.id)
        pending.delete(reply.id)
        if ('error' in reply)
          waiting?.reject(new DatabaseError(reply.error.message, reply.error.code))
        else waiting?.resolve(reply.result)
      }
    })
    worker.on('error', (error) => reject(error))
    worker.once('exit', (code) => {
      exited = new DatabaseError(`The database worker stopped (exit code ${code})`)
      for (const waiting of pending.values()) waiting.reject(exited)
      pending.clear()
      reject(exited)
    })
  })
}
