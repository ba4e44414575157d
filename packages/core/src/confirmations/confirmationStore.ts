import { deepFreeze, refuse } from '../base/results'
import { createExpiryTimer } from '../base/expiryTimer'
import { createSubscribable } from '../events/subscribable'
import type { Emitter } from '../events/emitter'
import type {
  ConfirmationAnswer,
  ConfirmationEntry,
  ConfirmationStore,
  ErrorEvent,
  Grant,
  ToolResult,
} from '../types'
import { Confirmation, type ConfirmationHost, type ConfirmationParts } from './confirmation'
import type { CreateGrantList, GrantList } from './grantList'

/** The store plus what only the registry may do. */
export interface InternalConfirmationStore extends ConfirmationStore {
  /**
   * Files a confirmation (evicting the oldest past the limit): listed, its call held, `requested`
   * emitted, then subscribers told; returns it.
   */
  add(parts: ConfirmationParts): Confirmation
  /** The open confirmations, oldest first (a copy: ending one while iterating is safe). */
  open(): Confirmation[]
  /** The grants people gave with their approvals, once `grants()` lent their code. */
  readonly grantList: GrantList | undefined
  /** Makes the grant list with the code `grants()` brings (once; later calls keep it). */
  useGrants(create: CreateGrantList): void
}

const NO_GRANTS: readonly Grant[] = Object.freeze([])

const EXPIRED = (): ToolResult =>
  deepFreeze(refuse('confirmation_expired', 'This confirmation is unknown, used or expired'))
const EMPTY: readonly ConfirmationEntry[] = Object.freeze([])
const NOT_AN_ID = (): ToolResult =>
  deepFreeze(
    refuse('confirmation_expired', 'A confirmation id is a string: this one names no entry'),
  )
const unknownId = () => {
  const result = Promise.resolve(NOT_AN_ID())
  return { taken: result, result }
}

/** One id of a batch: `known` when it is a string, which alone can name an entry. */
interface BatchItem {
  id: string
  known: boolean
}

/** The ids a batch was given, read once; a list that throws while read names none. */
const readList = (ids: unknown): unknown[] => {
  try {
    return Array.isArray(ids) ? Array.from(ids as unknown[]) : []
  } catch {
    return []
  }
}

/** How an answer names an id that is not a string; one whose conversion throws gets a fixed text. */
const textOf = (id: unknown): string => {
  try {
    return String(id)
  } catch {
    return '[unreadable id]'
  }
}

/**
 * The shared confirmation store: the list of open confirmations, the presenter count and one
 * timer for the earliest expiry. Each `Confirmation` owns its own status and answers; the store
 * finds it by id and hands the answer on (an unknown id is `confirmation_expired`).
 */
export function createConfirmationStore(options: {
  max: () => number
  onPresenterChange: () => void
  events: Emitter
  /** Where a throwing subscriber is reported. */
  report: (event: ErrorEvent) => void
  clock?: () => number
}): InternalConfirmationStore {
  const clock = options.clock ?? Date.now
  const open = new Map<string, Confirmation>()
  const listeners = createSubscribable({ report: options.report, label: 'confirmations' })
  let snapshot: readonly ConfirmationEntry[] = EMPTY
  let presenters = 0

  /** The list and the timer follow the open confirmations (nobody is told yet). */
  const refresh = () => {
    const entries = [...open.values()].map((c) => c.entry)
    snapshot = entries.length === 0 ? EMPTY : Object.freeze(entries)
    schedule()
  }
  const changed = () => {
    refresh()
    listeners.notify()
  }

  // One timer, for the earliest entry still open. An entry being answered or verified expires
  // too: its answer, when it comes, is refused, and a passkey prompt still open is closed.
  const timer = createExpiryTimer({
    clock,
    earliest() {
      let earliest = Infinity
      for (const c of open.values()) earliest = Math.min(earliest, c.entry.expiresAt)
      return earliest
    },
    due(at) {
      const due = [...open.values()].filter((c) => c.entry.expiresAt <= at)
      if (due.length === 0) return timer.schedule()
      for (const c of due) c.expire()
    },
  })
  const schedule = () => timer.schedule()

  const host: ConfirmationHost = {
    events: options.events,
    clock,
    remove(confirmation) {
      if (open.get(confirmation.id) !== confirmation) return
      open.delete(confirmation.id)
      changed()
    },
    changed,
  }

  // Made by `grants()`. A grant made, used or ended changes what presenters list; the entries'
  // array stays the same.
  let grantList: GrantList | undefined

  const find = (id: unknown) => (typeof id === 'string' ? open.get(id) : undefined)

  /**
   * The distinct ids of a batch in queue order: the open ones as the list holds them, then the
   * others in the order given. Each id is answered once, whatever the batch repeats.
   */
  const batchOrder = (ids: unknown): BatchItem[] => {
    const given = readList(ids)
    const named = new Set(given.filter((id): id is string => typeof id === 'string'))
    const queued = [...open.keys()].filter((id) => named.has(id))
    const rest: BatchItem[] = []
    const seen = new Set<unknown>(queued)
    for (const id of given) {
      if (seen.has(id)) continue
      seen.add(id)
      // Only a string names an entry: anything else (a number, an object whose toString could
      // name another entry or throw) is answered refused under its text, and the batch goes on.
      rest.push(typeof id === 'string' ? { id, known: true } : { id: textOf(id), known: false })
    }
    return [...queued.map((id) => ({ id, known: true })), ...rest]
  }

  /**
   * Answers a batch one entry after another, so runs start in queue order (each approval, and
   * its passkey, is given before the next is asked); overlapping batches take turns (a second
   * batch naming the same entries finds them answered, never runs them). A batch waits for its
   * answers to be given, not for the runs to end: a run that asks the person something (its
   * `ctx.confirm`, its `ctx.ask`) can be answered by another batch meanwhile.
   */
  let batches: Promise<unknown> = Promise.resolve()
  const each = (
    ids: unknown,
    answer: (id: string) => { taken: Promise<unknown>; result: Promise<ToolResult> },
  ): Promise<ConfirmationAnswer[]> => {
    const turn = batches.then(async () => {
      const given: { id: string; result: Promise<ToolResult> }[] = []
      for (const { id, known } of batchOrder(ids)) {
        const { taken, result } = known ? answer(id) : unknownId()
        given.push({ id, result })
        await taken
      }
      return given
    })
    // `approve` and `reject` never reject and the order is read without throwing; should anything
    // still fail, the next batch takes its turn all the same.
    batches = turn.then(
      () => undefined,
      () => undefined,
    )
    return turn.then((given) =>
      Promise.all(given.map(async ({ id, result }) => ({ id, result: await result }))),
    )
  }

  const store: InternalConfirmationStore = {
    list: () => snapshot,
    get: (id) => find(id)?.entry,
    subscribe: listeners.subscribe,
    approve(id, opts) {
      const by = (opts as { by?: unknown } | undefined)?.by === 'dialog' ? 'dialog' : 'api'
      return find(id)?.approve(opts, by) ?? Promise.resolve(EXPIRED())
    },
    answer(id, value, opts) {
      const by = (opts as { by?: unknown } | undefined)?.by === 'dialog' ? 'dialog' : 'api'
      return find(id)?.answer(value, by) ?? Promise.resolve(EXPIRED())
    },
    reject(id, reason) {
      return find(id)?.reject(reason) ?? Promise.resolve(EXPIRED())
    },
    approveAll(opts) {
      return Promise.all([...open.keys()].map((id) => store.approve(id, opts)))
    },
    rejectAll(reason) {
      return Promise.all([...open.keys()].map((id) => store.reject(id, reason)))
    },
    approveMany(ids, opts) {
      const by = (opts as { by?: unknown } | undefined)?.by === 'dialog' ? 'dialog' : 'api'
      return each(ids, (id) => {
        const confirmation = find(id)
        if (!confirmation) {
          const result = Promise.resolve(EXPIRED())
          return { taken: result, result }
        }
        let taken!: () => void
        const given = new Promise<void>((resolve) => (taken = resolve))
        const result = confirmation.approve(undefined, by, taken)
        // A refusal (expired, verification declined, a question) answers without a run.
        return { taken: Promise.race([given, result]), result }
      })
    },
    rejectMany(ids, reason) {
      return each(ids, (id) => {
        const result = store.reject(id, reason)
        return { taken: result, result }
      })
    },
    grants: () => grantList?.list() ?? NO_GRANTS,
    revokeGrant: (id) => grantList?.revoke(id) ?? false,
    attachPresenter() {
      presenters++
      if (presenters === 1) options.onPresenterChange()
      let attached = true
      return () => {
        if (!attached) return
        attached = false
        presenters--
        if (presenters === 0) options.onPresenterChange()
      }
    },
    hasPresenter: () => presenters > 0,
    add(parts) {
      const confirmation = new Confirmation(host, parts)
      open.set(confirmation.id, confirmation)
      const max = options.max()
      const evicted: Confirmation[] = []
      for (const c of open.values()) {
        if (open.size - evicted.length <= max) break
        // An entry being answered is left to its answer.
        if (c.status === 'pending') evicted.push(c)
      }
      // Listed first (a `requested` listener reads it), then its call held for the person and the
      // entry announced, and only then are subscribers told: a presenter answering from its
      // notification finds the call waiting, as an answer from the event does.
      refresh()
      confirmation.open()
      listeners.notify()
      for (const c of evicted) c.evict()
      return confirmation
    },
    open: () => [...open.values()],
    get grantList() {
      return grantList
    },
    useGrants(create) {
      grantList ??= create({ clock, changed: () => listeners.notify() })
    },
  }
  return store
}
