/**
 * What `<ConfirmDialog>` remembers between renders, as one reducer: which request of the queue
 * is selected, which approval is running, which outcomes the person must read, and the clock
 * that expires requests on screen. React-free: the hook feeds it actions and the store's list.
 */

import type { ConfirmationEntry, ToolResult } from '@toolmark/core'

/** Something the person must read before going on: an approval that did not go as asked. */
export type Outcome =
  | { kind: 'expired'; entry: ConfirmationEntry }
  | { kind: 'result'; entry: ConfirmationEntry; result: ToolResult }

export interface ConfirmDialogState {
  /** The request picked in the queue; its index is the fallback once it leaves the queue. */
  selected: { id: string; index: number }
  /** The request whose approval runs (Approve, or the first one of Approve all). */
  answering: ConfirmationEntry | undefined
  /** Outcomes on screen, in place of the queue, until dismissed. */
  outcomes: readonly Outcome[]
  /** Expired requests the person dismissed, hidden until the registry drops them. */
  dismissed: ReadonlySet<string>
  /** The clock (ms), moved on every second while a request is on screen. */
  now: number
  /** Counts the times the browser closed the dialog on its own; each one opens it again. */
  reopened: number
}

export type ConfirmDialogAction =
  // queue
  | { type: 'selected'; id: string; index: number }
  // answering
  | { type: 'answering'; entry: ConfirmationEntry }
  | { type: 'answered'; outcomes: readonly Outcome[] }
  // outcome
  | { type: 'dismissed'; expired: readonly string[] }
  | { type: 'closedByBrowser' }
  // expiry
  | { type: 'ticked'; now: number }
  | { type: 'expired'; entry: ConfirmationEntry }

const NO_IDS: ReadonlySet<string> = new Set()
const NO_OUTCOMES: readonly Outcome[] = []

export const initialConfirmDialogState: ConfirmDialogState = {
  selected: { id: '', index: 0 },
  answering: undefined,
  outcomes: NO_OUTCOMES,
  dismissed: NO_IDS,
  now: 0,
  reopened: 0,
}

export function confirmDialogReducer(
  state: ConfirmDialogState,
  action: ConfirmDialogAction,
): ConfirmDialogState {
  switch (action.type) {
    case 'selected':
      return { ...state, selected: { id: action.id, index: action.index } }
    case 'answering':
      return { ...state, answering: action.entry }
    case 'answered':
      return {
        ...state,
        answering: undefined,
        outcomes: action.outcomes.length > 0 ? action.outcomes : state.outcomes,
      }
    case 'dismissed':
      return {
        ...state,
        outcomes: NO_OUTCOMES,
        dismissed:
          action.expired.length > 0
            ? new Set([...state.dismissed, ...action.expired])
            : state.dismissed,
      }
    case 'closedByBrowser':
      return { ...state, reopened: state.reopened + 1 }
    case 'ticked':
      return action.now === state.now ? state : { ...state, now: action.now }
    case 'expired':
      // Only the request on screen expires this way; an outcome or a running approval decides.
      if (state.answering || state.outcomes.length > 0) return state
      return { ...state, outcomes: [{ kind: 'expired', entry: action.entry }] }
  }
}

/** What the dialog shows, worked out from the state and the store's pending list. */
export interface ConfirmDialogView {
  /** The pending requests the person can page through. */
  queue: readonly ConfirmationEntry[]
  /** The selected request's index in `queue`. */
  index: number
  /** The selected request, when there is one. */
  current: ConfirmationEntry | undefined
  /** The request the dialog is about: an outcome's, the running approval's, or `current`. */
  entry: ConfirmationEntry | undefined
  /** Outcomes on screen, including the selected request once the clock passed its expiry. */
  outcomes: readonly Outcome[]
  /** Whether an approval runs. */
  answering: boolean
  /** Whether a request waits for an answer on screen (the clock runs only then). */
  asking: boolean
  /** Names what is on screen; focus moves when it changes. */
  key: string | undefined
}

export function confirmDialogView(
  state: ConfirmDialogState,
  items: readonly ConfirmationEntry[],
): ConfirmDialogView {
  const queue =
    state.dismissed.size === 0 ? items : items.filter((item) => !state.dismissed.has(item.id))
  const found = queue.findIndex((item) => item.id === state.selected.id)
  const index = found >= 0 ? found : Math.min(state.selected.index, Math.max(0, queue.length - 1))
  const current = queue[index] as ConfirmationEntry | undefined
  const answering = state.answering !== undefined
  const expiredNow =
    state.outcomes.length === 0 &&
    !answering &&
    current !== undefined &&
    state.now >= current.expiresAt
  const outcomes: readonly Outcome[] =
    state.outcomes.length > 0
      ? state.outcomes
      : expiredNow && current
        ? [{ kind: 'expired', entry: current }]
        : NO_OUTCOMES
  const entry = outcomes[0]?.entry ?? state.answering ?? current
  const key = outcomes.length > 0 ? `outcome:${entry?.id}` : answering ? 'answering' : entry?.id
  return {
    queue,
    index,
    current,
    entry,
    outcomes,
    answering,
    asking: entry !== undefined && outcomes.length === 0 && !answering,
    key,
  }
}

/** Results a person must see: the action did not happen as approved. */
export function needsAttention(result: ToolResult): boolean {
  return result.status === 'error' || result.status === 'invalid' || result.status === 'refused'
}

/** Whether an outcome says the request can no longer be answered. */
export function isExpiredOutcome(outcome: Outcome): boolean {
  return (
    outcome.kind === 'expired' ||
    (outcome.result.status === 'refused' && outcome.result.code === 'confirmation_expired')
  )
}
