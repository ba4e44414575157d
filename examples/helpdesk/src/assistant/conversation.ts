import type { ToolResult } from '@toolmark/core'
import type { ChatMessage } from './model.ts'
import type { Entry } from './useAssistant.ts'

/** What the assistant keeps of a conversation across reloads of the tab. */
export interface SavedConversation {
  entries: Entry[]
  /** The model's side of the conversation (model mode). */
  history: ChatMessage[]
  nextId: number
}

const KEY = 'helpdesk.assistant'

/** The result a step gets when the page went away under it: the tool was withdrawn. */
export const DROPPED: ToolResult = Object.freeze({ status: 'cancelled', by: 'policy' })
export const DROPPED_DETAIL = 'The request was dropped when the page reloaded.'

/** Saves the conversation for this tab (sessionStorage: it ends with the tab). */
export function saveConversation(conversation: SavedConversation): void {
  try {
    if (conversation.entries.length === 0) sessionStorage.removeItem(KEY)
    else sessionStorage.setItem(KEY, JSON.stringify(conversation))
  } catch {
    // Storage full or blocked: the conversation just does not survive a reload.
  }
}

/**
 * The conversation this tab had before it reloaded. A step that was still running or waiting for
 * approval died with the page (its confirmation was in the page's registry): it is ended as
 * `cancelled`, and both the person and the agent are told, so nobody waits for an answer that
 * cannot come.
 */
export function restoreConversation(): SavedConversation {
  const empty: SavedConversation = { entries: [], history: [], nextId: 1 }
  let saved: SavedConversation
  try {
    const raw = sessionStorage.getItem(KEY)
    if (!raw) return empty
    saved = JSON.parse(raw) as SavedConversation
    if (!Array.isArray(saved.entries) || !Array.isArray(saved.history)) return empty
  } catch {
    return empty
  }
  let nextId = Math.max(saved.nextId || 1, ...saved.entries.map((entry) => entry.id + 1))
  const dropped: string[] = []
  const entries: Entry[] = saved.entries.map((entry) => {
    if (entry.kind !== 'step' || (entry.state !== 'running' && entry.state !== 'waiting')) {
      return entry
    }
    dropped.push(
      entry.state === 'waiting'
        ? `“${entry.intent}” was waiting for your approval, and nothing changed`
        : `“${entry.intent}” was running and may not have finished`,
    )
    return {
      ...entry,
      state: 'failed',
      detail: DROPPED_DETAIL,
      result: DROPPED,
      changes: undefined,
    }
  })
  const history = [...saved.history]
  if (dropped.length > 0) {
    const text = `${DROPPED_DETAIL} ${dropped.join('; ')}. Ask again if you still want it.`
    entries.push({ kind: 'assistant', id: nextId++, text, error: true })
    // The model reads the same account in its own history.
    history.push({ role: 'assistant', content: text })
  }
  return { entries, history, nextId }
}
