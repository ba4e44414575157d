import type { Toolmark } from '@toolmark/core'

/** How many stopped tool calls a registry remembers: far more than one model step makes. */
const LIMIT = 100

const stopped = new WeakMap<Toolmark, Set<string>>()

/** Notes that the run holding this tool call was stopped while the call was in flight. */
export function markStopped(tm: Toolmark, toolCallId: string): void {
  let ids = stopped.get(tm)
  if (!ids) stopped.set(tm, (ids = new Set()))
  ids.add(toolCallId)
  // A Set iterates in insertion order: the first id is the oldest.
  if (ids.size > LIMIT) ids.delete(ids.values().next().value as string)
}

/** Whether the run holding this tool call was stopped while the call was in flight. */
export function wasStopped(tm: Toolmark, toolCallId: string): boolean {
  return stopped.get(tm)?.has(toolCallId) === true
}
