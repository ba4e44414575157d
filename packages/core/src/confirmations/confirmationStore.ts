import { deepFreeze, refuse } from '../call/results'
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
  /** Files a confirmation (evicting the oldest past the limit); returns it. */
  /** Files a confirmation: listed, its call held, `announce` called, then subscribers told. */
  add(parts: ConfirmationParts, announce: () => void): Confirmation
  /** The open confirmations, oldest first (a copy: ending one while iterating is safe). */
  open(): Confirmation[]
  /** The grants people gave with their approvals, once `enableGrants` lent their code. */
  readonly grantList: GrantList | undefined
  /** Makes the grant list with the code `enableGrants` brings (once; later calls keep it). */
  useGrants(create: CreateGrantList): void
}

const NO_GRANTS: readonly Grant[] = Object.freeze([])

const EXPIRED = (): ToolResult =>
  deepFreeze(refuse('confirmation_expired', 'This confirmation is unknown, used or expired'))
const EMPTY: readonly ConfirmationEntry[] = Object.freeze([])

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
  let timer: ReturnType<typeof setTimeout> | undefined

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

  /** One timer, for the earliest entry still open; none when the list is empty. */
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    let earliest = Infinity
    for (const c of open.values()) earliest = Math.min(earliest, c.entry.expiresAt)
    if (earliest === Infinity) return
    const delay = Math.max(0, Math.min(earliest - clock(), 2_147_483_647))
    timer = setTimeout(sweep, delay)
    ;(timer as { unref?: () => void }).unref?.()
  }

  // An entry being answered or verified expires too: its answer, when it comes, is refused, and a
  // passkey prompt still open is closed.
  const sweep = () => {
    timer = undefined
    const at = clock()
    const due = [...open.values()].filter((c) => c.entry.expiresAt <= at)
    if (due.length === 0) return schedule()
    for (const c of due) c.expire()
  }

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

  // Made by enableGrants. A grant made, used or ended changes what presenters list; the entries'
  // array stays the same.
  let grantList: GrantList | undefined

  const find = (id: unknown) => (typeof id === 'string' ? open.get(id) : undefined)

  /**
   * The distinct ids of a batch in queue order: the open ones as the list holds them, then the
   * others in the order given. Each id is answered once, whatever the batch repeats.
   */
  const batchOrder = (ids: unknown): string[] => {
    const given = Array.isArray(ids) ? ids : []
    const named = new Set(given.map((id) => (typeof id === 'string' ? id : String(id))))
    const queued = [...open.keys()].filter((id) => named.has(id))
    const rest = [...named].filter((id) => !open.has(id))
    return [...queued, ...rest]
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
      for (const id of batchOrder(ids)) {
        const { taken, result } = answer(id)
        given.push({ id, result })
        await taken
      }
      return given
    })
    // `approve` and `reject` never reject, so the chain never breaks.
    batches = turn
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
    add(parts, announce) {
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
      confirmation.open(announce)
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
