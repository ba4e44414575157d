import { deepFreeze, refuse } from '../base/results'
import { createExpiryTimer } from '../base/expiryTimer'
import { createSubscribable } from '../events/subscribable'
import type { Emitter } from '../events/emitter'
import { CALLERS } from '../types'
import type {
  ApproveOptions,
  Caller,
  ConfirmationEntry,
  ConfirmationStore,
  ErrorEvent,
  Grant,
  ToolResult,
} from '../types'
import { Confirmation, type ConfirmationHost, type ConfirmationParts } from './confirmation'
import type { CreateGrantList, GrantList } from './grantList'
import { createBatchAnswers } from './batchAnswers'

/** The store plus what only the registry may do. */
export interface InternalConfirmationStore extends ConfirmationStore {
  /**
   * Files a confirmation: listed, its call held, `requested` emitted, then subscribers told;
   * returns it. When its caller already holds its share of a full list (`shareOf`), it is turned
   * away instead: never listed, no event, its `refusal` (`busy`) ends the call waiting on it.
   * Nobody's entry is ever evicted to make room.
   */
  add(parts: ConfirmationParts): Confirmation
  /** The open confirmations, oldest first (a copy: ending one while iterating is safe). */
  open(): Confirmation[]
  /** The grants people gave with their approvals, once `grants()` lent their code. */
  readonly grantList: GrantList | undefined
  /** Makes the grant list with the code `grants()` brings (once; later calls keep it). */
  useGrants(create: CreateGrantList): void
  /**
   * Ends every grant given to `caller`: the connection it came over (a bridge, an MCP pairing, a
   * WebMCP consumer) started or ended, and a grant never outlives the session it was given to.
   */
  endGrants(caller: Caller): void
}

/**
 * The share of `limit` every caller may always hold: the limit divided evenly among the callers
 * (`CALLERS`), rounded up, at least one. Past its share a caller may use the room left while the
 * list holds fewer than `limit`; with the list full it is refused `busy`. So one caller can
 * neither push another's entry out nor keep another from filing its share.
 */
export const shareOf = (limit: number): number => Math.max(1, Math.ceil(limit / CALLERS.length))

const NO_GRANTS: readonly Grant[] = Object.freeze([])

const EXPIRED = (): ToolResult =>
  deepFreeze(refuse('confirmation_expired', 'This confirmation is unknown, used or expired'))
const EMPTY: readonly ConfirmationEntry[] = Object.freeze([])

const BUSY = (caller: Caller, held: number, limit: number): ToolResult =>
  deepFreeze(
    refuse(
      'busy',
      `${held} requests of caller "${caller}" already wait for a person, its share of ` +
        `limits.pendingConfirmations (${limit}) while the list is full: retry once one is answered`,
    ),
  )

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
   * The `busy` refusal when `caller` may not file now: the list is full and the caller already
   * holds its share. Below its share a caller always gets in, so the list may pass the limit by
   * at most the other callers' shares; nothing is evicted for it.
   */
  const crowded = (caller: Caller): ToolResult | undefined => {
    const limit = options.max()
    if (open.size < limit) return undefined
    const share = shareOf(limit)
    let held = 0
    for (const c of open.values()) {
      if (c.entry.caller === caller && ++held >= share) return BUSY(caller, held, limit)
    }
    return undefined
  }

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
    approveMany(which, opts) {
      const by = (opts as { by?: unknown } | undefined)?.by === 'dialog' ? 'dialog' : 'api'
      const ids = which === 'all' ? [...open.keys()] : which
      if ((opts as { order?: unknown } | undefined)?.order === 'together') {
        // Every approval asked at once: the next id need not wait for this one's.
        const given: ApproveOptions | undefined = by === 'dialog' ? { by } : undefined
        return each(ids, (id) => ({ taken: Promise.resolve(), result: store.approve(id, given) }))
      }
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
    rejectMany(which, reason) {
      return each(which === 'all' ? [...open.keys()] : which, (id) => {
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
      const refusal = crowded(parts.entry.caller)
      if (refusal) {
        confirmation.turnAway(refusal)
        return confirmation
      }
      open.set(confirmation.id, confirmation)
      // Listed first (a `requested` listener reads it), then its call held for the person and the
      // entry announced, and only then are subscribers told: a presenter answering from its
      // notification finds the call waiting, as an answer from the event does.
      refresh()
      confirmation.open()
      listeners.notify()
      return confirmation
    },
    open: () => [...open.values()],
    get grantList() {
      return grantList
    },
    useGrants(create) {
      grantList ??= create({ clock, changed: () => listeners.notify() })
    },
    endGrants(caller) {
      // A tour's grants acting for that caller end with it too.
      grantList?.retain((_record, given, actingFor) => given !== caller && actingFor !== caller)
    },
  }
  return store
}
