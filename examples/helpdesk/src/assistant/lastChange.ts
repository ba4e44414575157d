import type { Toolmark, ToolResult } from '@toolmark/core'

/** A change the assistant made, newest last. */
interface Change {
  callId: string
  tool: string
  title?: string
  /** Taken back already, from somewhere else (the activity log, the devtools). */
  undone?: boolean
}

/** What undoing the assistant's last change came to, in words. */
export interface UndoOutcome {
  text: string
  result?: ToolResult
}

/** Remembers the assistant's changes so that "undo that" can take the last one back. */
export interface LastChange {
  undo(): Promise<UndoOutcome>
  dispose(): void
}

const MAX_REMEMBERED = 20

/**
 * Follows the registry's events for the assistant's calls (caller `inapp`): every call that did
 * something (not read-only; an approval the person denied did nothing) is remembered, and
 * `undo()` runs `tm.undo(callId)` on the newest — the fill's or the priority change's own undo.
 * Changes that cannot be taken back (a ticket closed after approval) are said to be so.
 */
export function createLastChange(tm: Toolmark): LastChange {
  const changes: Change[] = []
  const forget = (callId: string) => {
    const index = changes.findIndex((change) => change.callId === callId)
    if (index >= 0) changes.splice(index, 1)
  }
  const offResult = tm.events.on('result', ({ callId, tool, caller, result }) => {
    if (caller !== 'inapp') return
    if (result.status !== 'ok' && result.status !== 'needs_confirmation') return
    const entry = tm.describe(tool)
    if (!entry || entry.hints.readOnly) return
    changes.push({ callId, tool, ...(entry.title ? { title: entry.title } : {}) })
    if (changes.length > MAX_REMEMBERED) changes.shift()
  })
  // Denied, withdrawn, expired or evicted: the change never happens.
  const offConfirm = tm.events.on('confirm', ({ status, entry }) => {
    if (status !== 'pending' && status !== 'approved') forget(entry.callId)
  })
  const offUndo = tm.events.on('undo', ({ callId, result }) => {
    const change = changes.find((c) => c.callId === callId)
    if (change && result.status === 'ok') change.undone = true
  })

  return {
    async undo() {
      const last = changes.at(-1)
      if (!last) return { text: 'There is nothing of mine to undo.' }
      const what = last.title ? `“${last.title}”` : last.tool
      if (last.undone) {
        forget(last.callId)
        return {
          text: `My last change (${what}) was already undone, from the activity log or the devtools: nothing left to take back.`,
        }
      }
      const result = await tm.undo(last.callId)
      if (result.status === 'ok') {
        forget(last.callId)
        return { text: `Undone: ${what}.`, result }
      }
      if (result.status === 'refused' && result.code === 'undo_unavailable') {
        forget(last.callId)
        return {
          text: `I cannot undo my last change (${what}): it cannot be taken back from here.`,
          result,
        }
      }
      return { text: `Undoing ${what} did not work.`, result }
    },
    dispose() {
      offResult()
      offConfirm()
      offUndo()
    },
  }
}
