'use client'
import { useMemo, useSyncExternalStore } from 'react'
import type { Toolmark } from '@toolmark/core'
import { createActivityStore, type AgentActivity } from '@toolmark/core/observers'
import { useResolvedToolmark } from './ToolmarkContext'

/** Options of {@link useAgentActivity}. */
export interface UseAgentActivityOptions {
  /** How many calls to keep, newest first. Default `50`. */
  limit?: number
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

const NONE: readonly AgentActivity[] = Object.freeze([])
const getServerSnapshot = () => NONE

/**
 * The recent calls on the registry, newest first, from every caller: tool, caller, status,
 * duration, progress and result, with `undo()` while the call's undo can still run. A deferred
 * call shows its final outcome once a person answers (`confirmation` says how). Records the
 * calls made while the component is mounted.
 *
 * @example
 * ```tsx
 * function ActivityLog() {
 *   const activity = useAgentActivity({ limit: 20 })
 *   return (
 *     <ul>
 *       {activity.map((call) => (
 *         <li key={call.callId}>
 *           {call.tool} by {call.caller}: {call.status}
 *           {call.undo && <button onClick={() => call.undo?.()}>Undo</button>}
 *         </li>
 *       ))}
 *     </ul>
 *   )
 * }
 * ```
 */
export function useAgentActivity(options: UseAgentActivityOptions = {}): readonly AgentActivity[] {
  const tm = useResolvedToolmark(options.toolmark, 'useAgentActivity')
  const limit = options.limit ?? 50
  // Creating a store starts nothing: it listens from its first subscriber on.
  const store = useMemo(() => createActivityStore(tm, limit), [tm, limit])
  return useSyncExternalStore(store.subscribe, store.getSnapshot, getServerSnapshot)
}
