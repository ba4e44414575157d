import { deepFreeze, refuse } from '../base/results'
import { createExpiryTimer } from '../base/expiryTimer'
import { createSubscribable } from '../events/subscribable'
import type { Emitter } from '../events/emitter'
import type { ConfirmationEntry, ConfirmationStore, ErrorEvent, Grant, ToolResult } from '../types'
import { Confirmation, type ConfirmationHost, type ConfirmationParts } from './confirmation'
import type { CreateGrantList, GrantList } from './grantList'
import { createBatchAnswers } from './batchAnswers'

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

  // Batches take turns, reading the queue when their turn comes.
  const each = createBatchAnswers(() => open.keys())

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
