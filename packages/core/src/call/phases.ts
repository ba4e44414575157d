/** A call's phases and the moves between them: a table, read by `Call` (call.ts) only. */

import type { CallPhase } from '../types'

/** Where a call is (`CallPhase`). Access withdrawn before `running` cancels the call (`policy`). */
export type Phase = CallPhase

/**
 * Every move a call may make, from → to. A move that is not here is a bug in the pipeline: it
 * throws, naming the move, and the pipeline answers that call `error` (`internal_error`). A call
 * that is settled already makes no move at all (a step that was under way when it was stopped).
 */
const MOVES: { readonly [From in Phase]: readonly Phase[] } = {
  // queued: in line or in the slot; running: a free slot, nothing to check or confirm;
  // settled: refused, invalid, stopped, or `busy`.
  checking: ['queued', 'running', 'settled'],
  // confirming: a person is asked (inline); settled: `check` said no, or a deferred
  // confirmation answered `needs_confirmation`, or stopped.
  queued: ['running', 'confirming', 'settled'],
  // queued: approved, back in line ahead of calls not started; settled: denied, expired, stopped.
  confirming: ['queued', 'settled'],
  running: ['settled'],
  settled: [],
}

// Each phase's place in `PHASES`: a call keeps its phase as its place, so checking a move is an
// array read and a bit test, with no string compared (bench/call.mjs, see docs/performance.md).
export const CHECKING = 0
export const QUEUED = 1
export const CONFIRMING = 2
export const RUNNING = 3
export const SETTLED = 4
export const PHASES: readonly Phase[] = ['checking', 'queued', 'confirming', 'running', 'settled']

/** `MOVES` as bits, derived once: bit `to` of `ALLOWED[from]` allows from → to (places). */
export const ALLOWED: readonly number[] = PHASES.map((from) =>
  MOVES[from].reduce((bits, to) => bits | (1 << PHASES.indexOf(to)), 0),
)
