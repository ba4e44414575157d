'use client'
import { useEffect, useMemo, useSyncExternalStore } from 'react'
import type { Toolmark } from '@toolmark/core'
import { createAgUiSession } from '@toolmark/core/ag-ui'
import type {
  AgUiAgent,
  AgUiConfirmations,
  AgUiResumeEntry,
  AgUiResumeOutcome,
  AgUiSessionSnapshot,
  AgUiTurnOutcome,
} from '@toolmark/core/ag-ui'
import { useResolvedToolmark } from '../ToolmarkContext'

/** Options of {@link useAgUiSession}. */
export interface UseAgUiSessionOptions {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
  /**
   * `inline` (default) waits in `<ConfirmDialog>`; `interrupt` ends the turn with AG-UI interrupts
   * for approvals and for what runs ask with `ctx.confirm` and `ctx.ask` (`interrupts`), which the
   * app's own UI answers with `resume`: `<ConfirmDialog>` leaves them out.
   */
  confirmations?: AgUiConfirmations
  /** Runs one turn may start (default 10). */
  maxRuns?: number
}

/** What {@link useAgUiSession} returns: the session's state and its actions. */
export interface UseAgUiSessionResult extends AgUiSessionSnapshot {
  /** Adds a user message (when given) and runs the agent with the page's tools. */
  send(text?: string): Promise<AgUiTurnOutcome>
  /** Answers open interrupts; the turn goes on once all are answered. */
  resume(entries: readonly AgUiResumeEntry[]): Promise<AgUiResumeOutcome>
  /** Aborts the run and every call in it. */
  stop(): void
}

/**
 * Connects an AG-UI agent (such as `@ag-ui/client`'s `HttpAgent`) to the page's tools while
 * mounted: every run carries them as frontend tools, every tool call the agent leaves for the page
 * runs through `tm.call` as caller `inapp`, and its result goes back before the next run. Calls
 * that need a person wait in `<ConfirmDialog>`, or with `confirmations: 'interrupt'` end the turn
 * with AG-UI interrupts that the app shows and answers with `resume` (the dialog leaves them to it).
 * Unmounting stops the turn.
 *
 * @example
 * ```tsx
 * const agent = new HttpAgent({ url: '/api/agent' })
 * function Assistant() {
 *   const { status, send, stop } = useAgUiSession(agent)
 *   return <Chat busy={status === 'running'} onSend={send} onStop={stop} />
 * }
 * // Somewhere in the app: <ConfirmDialog />
 * ```
 */
export function useAgUiSession(
  agent: AgUiAgent,
  options: UseAgUiSessionOptions = {},
): UseAgUiSessionResult {
  const tm = useResolvedToolmark(options.toolmark, 'useAgUiSession')
  const { confirmations = 'inline', maxRuns } = options
  const session = useMemo(
    () => createAgUiSession(tm, { agent, confirmations, maxRuns }),
    [tm, agent, confirmations, maxRuns],
  )
  useEffect(() => () => session.dispose(), [session])
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot)
  return useMemo(
    () => ({
      ...snapshot,
      send: (text?: string) => session.send(text),
      resume: (entries: readonly AgUiResumeEntry[]) => session.resume(entries),
      stop: () => session.stop(),
    }),
    [snapshot, session],
  )
}
