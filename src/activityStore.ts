import type { Caller, ToolResult, ToolStatus, Toolmark } from '@toolmark/core'

/** One call in the activity log. */
export interface AgentActivity {
  callId: string
  /** The tool's full name. */
  tool: string
  caller: Caller
  /** `'running'` until the result arrives, then the result's status. */
  status: 'running' | ToolStatus
  /** When the call started (`Date.now()`). */
  startedAt: number
  /** How long the call took, once it ended. */
  durationMs?: number
  /** The last progress the tool reported. */
  progress?: { done: number; total?: number; message?: string }
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
 * Keeps the last `limit` calls seen on the registry's events. Listens only while subscribed; the
 * snapshot is a new frozen array after each real change and the same array otherwise.
 */
export function createActivityStore(tm: Toolmark, limit: number): ActivityStore {
  const listeners = new Set<() => void>()
  const undoers = new Map<string, () => Promise<ToolResult>>()
  // Newest first; every record is replaced, never mutated, so memoized rows stay correct.
  let records: readonly AgentActivity[] = EMPTY
  let stop: (() => void) | undefined

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
    for (const listener of [...listeners]) listener()
  }

  const start = () => {
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
      tm.events.on('result', (event) => {
        commit(event.callId, (record) => ({
          ...record,
          status: event.result.status,
          durationMs: event.durationMs,
          result: event.result,
        }))
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
    subscribe(listener) {
      listeners.add(listener)
      if (listeners.size === 1) stop = start()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) {
          stop?.()
          stop = undefined
        }
      }
    },
    getSnapshot: () => records,
  }
}
