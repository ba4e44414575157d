/**
 * What `<ConfirmDialog>` remembers between renders, as one reducer: which approvals run, which
 * outcomes the person must read, what the person ticked in a review list and which of its rows
 * they have seen, the rows that ended while on screen, and the clock the countdown reads. Whether
 * a request ended is never read off that clock: the registry's `confirm` event says so (the hook
 * turns it into `expired` and `left`). React-free: the hook feeds it actions and the store's list.
 */

import type { Caller, ConfirmationEntry, ToolResult } from '@toolmark/core'

/** Something the person must read before going on: an approval that did not go as asked. */
export type Outcome =
  | { kind: 'expired'; entry: ConfirmationEntry }
  | { kind: 'result'; entry: ConfirmationEntry; result: ToolResult }

/** Why a review row ended while it was on screen, without the dialog's answer. */
export type LeftReason = 'expired' | 'withdrawn'

/** One row of a review list. */
export interface ReviewRow {
  entry: ConfirmationEntry
  /** Set when the request can no longer be approved; the row stays so the person reads why. */
  ended?: LeftReason
  /** Whether it is ticked: what the person chose, else whether the row has been on screen. */
  checked: boolean
}

export interface ConfirmDialogState {
  /** The requests whose approval runs (one, or a review list's selection), in queue order. */
  answering: readonly ConfirmationEntry[]
  /** Outcomes on screen, in place of the queue, until dismissed. */
  outcomes: readonly Outcome[]
  /** Expired requests the person dismissed, hidden should the store still list them. */
  dismissed: ReadonlySet<string>
  /** Review rows the person ticked (true) or unticked (false); the others follow `seen`. */
  choices: ReadonlyMap<string, boolean>
  /** Review rows that have been wholly on screen: only those are ticked by default. */
  seen: ReadonlySet<string>
  /** Review rows that expired or were withdrawn while on screen, until the person answers. */
  left: readonly { entry: ConfirmationEntry; reason: LeftReason }[]
  /** The clock (ms), moved on every second while a request is on screen: the countdown only. */
  now: number
  /** Counts the times the browser closed the dialog on its own; each one opens it again. */
  reopened: number
}

export type ConfirmDialogAction =
  // answering
  | { type: 'answering'; entries: readonly ConfirmationEntry[] }
  | { type: 'answered'; outcomes: readonly Outcome[] }
  /** An answer given while an approval runs (see `interjection`) did not go as asked. */
  | { type: 'noted'; outcomes: readonly Outcome[] }
  // outcome
  | { type: 'dismissed'; expired: readonly string[] }
  | { type: 'closedByBrowser' }
  // review list
  | { type: 'toggled'; id: string; checked: boolean }
  | { type: 'seen'; ids: readonly string[] }
  | { type: 'left'; entry: ConfirmationEntry; reason: LeftReason }
  // countdown
  | { type: 'ticked'; now: number }
  /** The registry ended the request on screen unanswered (its `confirm` event: `expired`). */
  | { type: 'expired'; entry: ConfirmationEntry }

const NO_IDS: ReadonlySet<string> = new Set()
const NO_CHOICES: ReadonlyMap<string, boolean> = new Map()
const NO_OUTCOMES: readonly Outcome[] = []
const NO_ENTRIES: readonly ConfirmationEntry[] = []
const NO_LEFT: ConfirmDialogState['left'] = []

export const initialConfirmDialogState: ConfirmDialogState = {
  answering: NO_ENTRIES,
  outcomes: NO_OUTCOMES,
  dismissed: NO_IDS,
  choices: NO_CHOICES,
  seen: NO_IDS,
  left: NO_LEFT,
  now: 0,
  reopened: 0,
}

export function confirmDialogReducer(
  state: ConfirmDialogState,
  action: ConfirmDialogAction,
): ConfirmDialogState {
  switch (action.type) {
    case 'answering':
      return { ...state, answering: action.entries }
    case 'answered':
      return {
        ...state,
        answering: NO_ENTRIES,
        // What ended on screen was read; the rows left waiting keep the person's ticks.
        left: NO_LEFT,
        outcomes: action.outcomes.length > 0 ? action.outcomes : state.outcomes,
      }
    case 'noted':
      return { ...state, outcomes: [...state.outcomes, ...action.outcomes] }
    case 'dismissed':
      return {
        ...state,
        outcomes: NO_OUTCOMES,
        left: NO_LEFT,
        dismissed:
          action.expired.length > 0
            ? new Set([...state.dismissed, ...action.expired])
            : state.dismissed,
      }
    case 'closedByBrowser':
      return { ...state, reopened: state.reopened + 1 }
    case 'toggled':
      return { ...state, choices: new Map(state.choices).set(action.id, action.checked) }
    case 'seen': {
      const fresh = action.ids.filter((id) => !state.seen.has(id))
      return fresh.length === 0 ? state : { ...state, seen: new Set([...state.seen, ...fresh]) }
    }
    case 'left':
      if (state.left.some((row) => row.entry.id === action.entry.id)) return state
      return { ...state, left: [...state.left, { entry: action.entry, reason: action.reason }] }
    case 'ticked':
      return action.now === state.now ? state : { ...state, now: action.now }
    case 'expired':
      // Only the request on screen expires this way; an outcome or a running approval decides.
      if (state.answering.length > 0 || state.outcomes.length > 0) return state
      return { ...state, outcomes: [{ kind: 'expired', entry: action.entry }] }
  }
}

/** What the dialog shows, worked out from the state and the store's pending list. */
export interface ConfirmDialogView {
  /**
   * The pending requests, oldest first, minus dismissed ones and those the code that started the
   * call shows itself (`presentedByCaller`).
   */
  queue: readonly ConfirmationEntry[]
  /** The caller whose requests are on screen (one caller's requests at a time). */
  caller: Caller | undefined
  /**
   * Set when several requests of that caller are on screen at once: one row each, in queue
   * order, ended rows included. Undefined for a single request.
   */
  review: readonly ReviewRow[] | undefined
  /** The single request on screen, when there is one. */
  current: ConfirmationEntry | undefined
  /**
   * True when `current` was asked by a running tool (`inRun`) while an approval runs: it is
   * answered on its own, beside the approval, since that run (or one it waits behind in its
   * scope) may wait for this very answer.
   */
  interjection: boolean
  /** The request the dialog is about: an outcome's, the running approval's, or the first one. */
  entry: ConfirmationEntry | undefined
  /** Outcomes on screen, including the single request once the registry expired it. */
  outcomes: readonly Outcome[]
  /** Whether an approval runs. */
  answering: boolean
  /** Whether requests wait for an answer on screen (the clock runs only then). */
  asking: boolean
  /** Requests of other callers that wait until these are answered. */
  waiting: number
  /** The review rows ticked and still open: what "Approve selected" approves, in queue order. */
  selected: readonly ConfirmationEntry[]
  /** Names what is on screen; focus moves when it changes. */
  key: string | undefined
}

const byAge = (a: ConfirmationEntry, b: ConfirmationEntry) => a.createdAt - b.createdAt

export function confirmDialogView(
  state: ConfirmDialogState,
  items: readonly ConfirmationEntry[],
): ConfirmDialogView {
  // What the code that started a call shows itself (an AG-UI interrupt) is asked there alone.
  const queue = items.some((item) => item.presentedByCaller || state.dismissed.has(item.id))
    ? items.filter((item) => !item.presentedByCaller && !state.dismissed.has(item.id))
    : items
  // While an approval runs, a request a running tool asks comes on screen: the run may be that
  // approval's, or hold the scope it waits for, so hiding it would leave both waiting.
  const aside =
    state.answering.length > 0 && state.outcomes.length === 0
      ? queue.find((item) => item.inRun && !state.answering.some((a) => a.id === item.id))
      : undefined
  if (aside) {
    return {
      queue,
      caller: aside.caller,
      review: undefined,
      current: aside,
      interjection: true,
      entry: aside,
      outcomes: NO_OUTCOMES,
      answering: false,
      asking: true,
      waiting: queue.filter((item) => item.caller !== aside.caller).length,
      selected: NO_ENTRIES,
      key: aside.id,
    }
  }
  const answering = state.answering.length > 0
  const caller = state.answering[0]?.caller ?? queue[0]?.caller ?? state.left[0]?.entry.caller
  const group = queue.filter((item) => item.caller === caller)
  const left = state.left.filter(
    (row) => row.entry.caller === caller && !group.some((item) => item.id === row.entry.id),
  )
  const waiting = queue.length - group.length

  // A question (`ctx.ask`) is answered, not approved: it is asked on its own, ahead of its
  // caller's other requests, and never becomes a row of a review list.
  const question = answering ? undefined : group.find((item) => item.question)
  let review: ReviewRow[] | undefined
  const reviewing =
    state.answering.length > 1 ||
    (!answering &&
      !question &&
      (group.length + left.length > 1 || (group.length === 0 && left.length > 0)))
  if (state.outcomes.length === 0 && reviewing) {
    // A row ends only when the registry says so (`left`): the store lists it until then.
    const rows: ReviewRow[] = (answering ? state.answering : group).map((entry) => ({
      entry,
      checked: state.choices.get(entry.id) ?? state.seen.has(entry.id),
    }))
    if (!answering) {
      for (const row of left) rows.push({ entry: row.entry, ended: row.reason, checked: false })
    }
    review = rows.sort((a, b) => byAge(a.entry, b.entry))
  }

  const current = review || answering ? undefined : (question ?? group[0])
  const outcomes: readonly Outcome[] = state.outcomes.length > 0 ? state.outcomes : NO_OUTCOMES
  const entry = outcomes[0]?.entry ?? state.answering[0] ?? current ?? review?.[0]?.entry
  const selected =
    review && !answering ? review.filter((row) => row.checked).map((row) => row.entry) : NO_ENTRIES
  const key =
    outcomes.length > 0
      ? `outcome:${entry?.id}`
      : answering
        ? 'answering'
        : review
          ? `review:${caller}`
          : entry?.id
  return {
    queue,
    caller,
    review,
    current,
    interjection: false,
    entry,
    outcomes,
    answering,
    asking: entry !== undefined && outcomes.length === 0 && !answering,
    waiting,
    selected,
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
