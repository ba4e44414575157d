import type { RegistryInternals, ToolRecord } from '../tool/toolRecord'
import { deepFreeze, refuse, toolFailed } from '../base/results'
import type { ToolResult } from '../types'

/** The undo journal: the last `limits.undoJournal` inverses, each run at most once. */
export interface UndoJournal {
  /** `ctx.registerUndo`: a later registration of the same call replaces the earlier one. */
  register(call: { readonly record: ToolRecord; readonly callId: string }, restore: unknown): void
  undo(callId: unknown): Promise<ToolResult>
  canUndo(callId: unknown): boolean
  /** Forgets a tool's entries (the tool went away). */
  dropTool(record: ToolRecord): void
}

const UNAVAILABLE = deepFreeze(refuse('undo_unavailable', 'There is nothing to undo for this call'))

interface UndoEntry {
  readonly record: ToolRecord
  readonly restore: () => unknown
}

export function createUndoJournal(internals: RegistryInternals): UndoJournal {
  const entries = new Map<string, UndoEntry>()

  const live = (callId: unknown): UndoEntry | undefined => {
    const entry = typeof callId === 'string' ? entries.get(callId) : undefined
    return entry && !entry.record.disposed ? entry : undefined
  }

  return {
    register(call, restore) {
      const { record, callId } = call
      if (typeof restore !== 'function') {
        internals.misconfigured('invalid_undo', ['registerUndo', record.name], record.name)
        return
      }
      if (record.disposed) return
      entries.delete(callId)
      entries.set(callId, { record, restore: restore as () => unknown })
      while (entries.size > internals.limits.undoJournal) {
        entries.delete(entries.keys().next().value as string)
      }
    },

    async undo(callId) {
      const entry = live(callId)
      if (!entry) {
        // Any id that is not a live string, whatever it is, gets the same answer.
        return UNAVAILABLE
      }
      const id = callId as string
      // Taken before it runs: a second undo, even a concurrent one, finds nothing.
      entries.delete(id)
      let result: ToolResult
      try {
        result = internals.normalize(await entry.restore(), { record: entry.record, callId: id })
      } catch (cause) {
        internals.toolError('tool_threw', { record: entry.record, callId: id }, cause, 'undo threw')
        result = toolFailed()
      }
      internals.events.emit('undo', { callId: id, tool: entry.record.name, result })
      return result
    },

    canUndo: (callId) => live(callId) !== undefined,

    dropTool(record) {
      for (const [callId, entry] of entries) if (entry.record === record) entries.delete(callId)
    },
  }
}
