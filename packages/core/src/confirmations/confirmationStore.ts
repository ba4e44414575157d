import { deepFreeze, refuse } from '../call/results'
import { createSubscribable } from '../events/subscribable'
import type { Emitter } from '../events/emitter'
import type { ConfirmationEntry, ConfirmationStore, ErrorEvent, ToolResult } from '../types'
import { Confirmation, type ConfirmationHost, type ConfirmationParts } from './confirmation'

/** The store plus what only the registry may do. */
export interface InternalConfirmationStore extends ConfirmationStore {
  /** Files a confirmation (evicting the oldest past the limit); returns it. */
  add(parts: ConfirmationParts): Confirmation
  /** The open confirmations, oldest first (a copy: ending one while iterating is safe). */
  open(): Confirmation[]
}

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

  const changed = () => {
    const entries = [...open.values()].map((c) => c.entry)
    snapshot = entries.length === 0 ? EMPTY : Object.freeze(entries)
    schedule()
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

  const find = (id: unknown) => (typeof id === 'string' ? open.get(id) : undefined)

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
      changed()
      for (const c of evicted) c.evict()
      return confirmation
    },
    open: () => [...open.values()],
  }
  return store
}
