import { deepFreeze, refuse } from '../call/results'
import { createSubscribable } from '../events/subscribable'
import type { ConfirmationEntry, ConfirmationStore, ErrorEvent, ToolResult } from '../types'

/** How the registry answers an entry; the store only decides who gets to answer. */
export interface ConfirmationHandler {
  /** Runs what was approved: the input as asked, or `edited.value` when the person edited it. */
  approve(edited: { value: unknown } | undefined): Promise<ToolResult>
  reject(reason: string | undefined): Promise<ToolResult>
  /** The clock says the entry is over. */
  expire(): void
  /**
   * Validates an edited input before the entry is taken; a `result` (issues, or a validator that
   * gave up) keeps it pending. Settles in bounded time.
   */
  check?(input: unknown): Promise<{ value: unknown } | { result: ToolResult }>
}

/** The store plus what only the registry may do. */
export interface InternalConfirmationStore extends ConfirmationStore {
  add(entry: ConfirmationEntry, handler: ConfirmationHandler): void
  /** Removes an entry without answering it (withdrawn); returns whether it was pending. */
  remove(id: string): boolean
}

const EXPIRED = (): ToolResult =>
  deepFreeze(refuse('confirmation_expired', 'This confirmation is unknown, used or expired'))
const EMPTY: readonly ConfirmationEntry[] = Object.freeze([])

/**
 * The shared confirmation store. Entries are single use: the first answer takes the entry, any
 * other or later answer gets `confirmation_expired`. Expiry is checked against the clock when an
 * answer comes, and by one timer for the earliest entry.
 */
export function createConfirmationStore(options: {
  max: () => number
  onPresenterChange: () => void
  /** Where a throwing subscriber is reported. */
  report: (event: ErrorEvent) => void
  clock?: () => number
}): InternalConfirmationStore {
  const clock = options.clock ?? Date.now
  const entries = new Map<string, { entry: ConfirmationEntry; handler: ConfirmationHandler }>()
  const answering = new Set<string>()
  const listeners = createSubscribable({ report: options.report, label: 'confirmations' })
  let snapshot: readonly ConfirmationEntry[] = EMPTY
  let presenters = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  const changed = () => {
    snapshot = entries.size === 0 ? EMPTY : Object.freeze([...entries.values()].map((e) => e.entry))
    schedule()
    listeners.notify()
  }

  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    let earliest = Infinity
    // An entry being answered is not swept (its answer decides), so it sets no timer either.
    for (const { entry } of entries.values()) {
      if (!answering.has(entry.id)) earliest = Math.min(earliest, entry.expiresAt)
    }
    if (earliest === Infinity) return
    const delay = Math.max(0, Math.min(earliest - clock(), 2_147_483_647))
    timer = setTimeout(sweep, delay)
    ;(timer as { unref?: () => void }).unref?.()
  }

  const sweep = () => {
    timer = undefined
    const at = clock()
    const due = [...entries.values()].filter(
      (e) => e.entry.expiresAt <= at && !answering.has(e.entry.id),
    )
    if (due.length === 0) return schedule()
    for (const e of due) entries.delete(e.entry.id)
    changed()
    for (const e of due) e.handler.expire()
  }

  /** Ends an entry the clock says is over: gone, then its handler told. */
  const expire = (id: string, handler: ConfirmationHandler) => {
    entries.delete(id)
    changed()
    handler.expire()
  }

  /** Takes an entry for answering, or says why it cannot be. */
  const take = (id: string) => {
    const found = typeof id === 'string' ? entries.get(id) : undefined
    if (!found || answering.has(id)) return undefined
    if (found.entry.expiresAt <= clock()) return expire(id, found.handler)
    return found
  }

  const store: InternalConfirmationStore = {
    list: () => snapshot,
    get: (id) => entries.get(id)?.entry,
    subscribe: listeners.subscribe,
    async approve(id, opts) {
      const found = take(id)
      if (!found) return EXPIRED()
      const hasInput = typeof opts === 'object' && opts !== null && 'input' in opts
      let edited: { value: unknown } | undefined
      // An entry without `check` (a question asked from inside a run) has no input to edit.
      if (hasInput && found.handler.check) {
        answering.add(id)
        let checked: { value: unknown } | { result: ToolResult }
        try {
          checked = await found.handler.check(opts.input)
        } finally {
          answering.delete(id)
          schedule()
        }
        // The entry stays pending so the person can fix the input.
        if ('result' in checked) return checked.result
        if (!entries.has(id)) return EXPIRED()
        if (found.entry.expiresAt <= clock()) {
          expire(id, found.handler)
          return EXPIRED()
        }
        edited = { value: checked.value }
      }
      store.remove(id)
      return found.handler.approve(edited)
    },
    async reject(id, reason) {
      const found = take(id)
      if (!found) return EXPIRED()
      store.remove(id)
      return found.handler.reject(typeof reason === 'string' ? reason : undefined)
    },
    approveAll() {
      return Promise.all([...entries.keys()].map((id) => store.approve(id)))
    },
    rejectAll(reason) {
      return Promise.all([...entries.keys()].map((id) => store.reject(id, reason)))
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
    add(entry, handler) {
      entries.set(entry.id, { entry, handler })
      const max = options.max()
      const evicted: ConfirmationHandler[] = []
      for (const [id, e] of entries) {
        if (entries.size <= max) break
        if (answering.has(id)) continue
        entries.delete(id)
        evicted.push(e.handler)
      }
      changed()
      for (const h of evicted) h.expire()
    },
    remove(id) {
      if (!entries.delete(id)) return false
      changed()
      return true
    },
  }
  return store
}
