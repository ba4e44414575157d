// The helpdesk's Postgres (PGlite, WebAssembly) in a worker thread. Creating a database runs
// initdb, seconds of synchronous WebAssembly: on the main thread it would stall the dev server
// that is serving the first page. Plain JavaScript, so Node loads it without a build step.
// Protocol (see database.ts): { id, op: 'query' | 'exec' | 'begin' | 'end' | 'close', … } in,
// { id, result } or { id, error } out; { ready: true } or { failed } once at start.
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'

/** Open transactions by id: the transaction handle and how to end it. */
const transactions = new Map()
let nextTx = 1

let db
try {
  db = await PGlite.create(workerData.dataDir)
  parentPort.postMessage({ ready: true })
} catch (error) {
  parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) })
}

const target = (tx) => (tx === undefined ? db : transactions.get(tx)?.handle)

async function handle(message) {
  switch (message.op) {
    case 'query': {
      const on = target(message.tx)
      if (!on) throw new Error('The transaction is over')
      const { rows, affectedRows } = await on.query(message.sql, message.params)
      return { rows, affectedRows }
    }
    case 'exec': {
      const on = target(message.tx)
      if (!on) throw new Error('The transaction is over')
      await on.exec(message.sql)
      return null
    }
    case 'begin': {
      // PGlite holds its own lock for the whole transaction, so nothing else interleaves; the
      // transaction stays open until `end` settles the promise its callback returns.
      const id = nextTx++
      const entry = { handle: undefined, end: undefined, done: undefined }
      let entered
      const inside = new Promise((resolve) => (entered = resolve))
      entry.done = db
        .transaction(
          (handle) =>
            new Promise((commit, rollback) => {
              entry.handle = handle
              entry.end = { commit, rollback }
              transactions.set(id, entry)
              entered()
            }),
        )
        .finally(() => transactions.delete(id))
      entry.done.catch(() => {})
      // A transaction that cannot begin rejects `done` before its callback ever runs.
      await Promise.race([inside, entry.done])
      return { tx: id }
    }
    case 'end': {
      const entry = transactions.get(message.tx)
      if (!entry) throw new Error('The transaction is over')
      if (message.commit) {
        entry.end.commit(null)
        await entry.done
      } else {
        entry.end.rollback(new Error('Rolled back'))
        await entry.done.catch(() => {})
      }
      return null
    }
    case 'close':
      await db.close()
      return null
    default:
      throw new Error(`Unknown operation ${message.op}`)
  }
}

parentPort.on('message', (message) => {
  if (!db) {
    parentPort.postMessage({ id: message.id, error: { message: 'The database is not open' } })
    return
  }
  handle(message).then(
    (result) => parentPort.postMessage({ id: message.id, result }),
    (error) =>
      parentPort.postMessage({
        id: message.id,
        error: { message: error?.message ?? String(error), code: error?.code },
      }),
  )
})
