import { reportError } from '../events/reportError'
import { createSubscribable } from '../events/subscribable'
import { confirmStage, type ConfirmStage } from '../confirmations/confirmStage'
import type { Caller, ConfirmEvent, ToolResult, ToolStatus, Toolmark } from '../types'

/** One call in the activity log. */
export interface AgentActivity {
  callId: string
  /** The tool's full name. */
  tool: string
  caller: Caller
  /**
   * `'running'` until the result arrives, then the result's status. A deferred call's
   * `'needs_confirmation'` is replaced by its final outcome once a person answers: the approved
   * run's status, `'cancelled'` when denied or withdrawn, `'refused'` when it expired.
   */
  status: 'running' | ToolStatus
  /**
   * Where the call's confirmation stands, when it asked for one: `'requested'` while a person
   * decides, then `'approved'`, `'rejected'` (denied or withdrawn) or `'expired'`.
   */
  confirmation?: ConfirmStage
  /** Who approved, once approved: `dialog`, `api`, `verified` (the person's passkey) or `grant` (nobody was asked: a grant covered it). */
  approvedBy?: ConfirmEvent['by']
  /** When the call started (`Date.now()`). */
  startedAt: number
  /** How long the call took, once it ended. */
  durationMs?: number
  /** The last progress the tool reported. */
  progress?: { done: number; total?: number; message?: string }
  /** The call's result; for a deferred call, its final outcome once known. */
  result?: ToolResult
  /** Present while `tm.undo(callId)` would run something; resolves with the undo's result. */
  undo?: () => Promise<ToolResult>
}

/** An external store of the recent calls, newest first. */
export interface ActivityStore {
  subscribe(listener: () => void): () => void
  getSnapshot(): readonly AgentActivity[]
}

const EMPTY: readonly AgentActivity[] = Object.freeze([])

/**
 * Keeps the last `limit` calls seen on the registry's events, with their progress, their final
 * outcome (deferred confirmations included) and whether they can be undone. Listens only while
 * subscribed; the snapshot is a new frozen array after each real change and the same array
 * otherwise, and an unchanged record keeps its identity.
 *
 * @example
 * const store = createActivityStore(tm, 20)
 * const off = store.subscribe(() => console.table(store.getSnapshot()))
 */
export function createActivityStore(tm: Toolmark, limit: number): ActivityStore {
  const undoers = new Map<string, () => Promise<ToolResult>>()
  // Newest first; every record is replaced, never mutated, so memoized rows stay correct.
  let records: readonly AgentActivity[] = EMPTY
  let stop: (() => void) | undefined

  const listeners = createSubscribable({
    label: 'activity',
    report: (event) => reportError(tm, event),
    onFirst: () => {
      stop = listen()
    },
    onLast: () => {
      stop?.()
      stop = undefined
    },
  })

  const undoFor = (callId: string) => {
    let undo = undoers.get(callId)
    if (!undo) {
      undo = () => tm.undo(callId)
      undoers.set(callId, undo)
    }
    return undo
  }

  /** Applies `update` to one record (if it is still kept), then refreshes undo availability. */
  const commit = (
    callId: string | undefined,
    update?: (record: AgentActivity) => AgentActivity,
  ) => {
    let changed = false
    const next = records.map((record) => {
      let value = record
      if (update && record.callId === callId) value = update(record)
      const undoable = value.status !== 'running' && tm.canUndo(value.callId)
      if (undoable !== (value.undo !== undefined)) {
        const { undo: _dropped, ...rest } = value
        value = undoable ? { ...rest, undo: undoFor(value.callId) } : rest
      }
      if (value !== record) changed = true
      return value
    })
    if (changed) publish(next)
  }

  const publish = (next: AgentActivity[]) => {
    const kept = new Set(next.map((record) => record.callId))
    for (const callId of undoers.keys()) if (!kept.has(callId)) undoers.delete(callId)
    records = Object.freeze(next.map((record) => Object.freeze(record)))
    listeners.notify()
  }

  /** A confirmation's news for its call; a deferred call takes its final outcome from it. */
  const confirmed = (record: AgentActivity, event: ConfirmEvent): AgentActivity => {
    const next: AgentActivity = { ...record, confirmation: confirmStage(event.status) }
    if (event.by !== undefined) next.approvedBy = event.by
    if (record.status === 'needs_confirmation' && event.status !== 'pending' && event.result) {
      next.status = event.result.status
      next.result = event.result
    }
    return next
  }

  const listen = () => {
    const offs = [
      tm.events.on('call', (event) => {
        const record: AgentActivity = {
          callId: event.callId,
          tool: event.tool,
          caller: event.caller,
          status: 'running',
          startedAt: Date.now(),
        }
        publish([record, ...records].slice(0, Math.max(0, limit)))
      }),
      tm.events.on('progress', (event) => {
        const { done, total, message } = event
        commit(event.callId, (record) => ({
          ...record,
          progress: {
            done,
            ...(total === undefined ? {} : { total }),
            ...(message === undefined ? {} : { message }),
          },
        }))
      }),
      // A call's one result; a deferred call's final outcome comes with its confirmation.
      tm.events.on('result', (event) => {
        commit(event.callId, (record) => ({
          ...record,
          status: event.result.status,
          durationMs: event.durationMs,
          result: event.result,
        }))
      }),
      tm.events.on('confirm', (event) => {
        // A question (`ctx.ask`) is asked inside a run that goes on either way: its answer is not
        // the call's approval, and the run's own result is the call's outcome.
        if (event.entry.question) return
        commit(event.entry.callId, (record) => confirmed(record, event))
      }),
      // An undo, a tool going away or the journal evicting an entry all change what can be
      // undone; the last two arrive as revisions or as later results.
      tm.events.on('undo', () => commit(undefined)),
      tm.events.on('change', () => commit(undefined)),
    ]
    return () => {
      for (const off of offs) off()
    }
  }

  return {
    subscribe: listeners.subscribe,
    getSnapshot: () => records,
  }
}
