'use client'
import { useReducer, useRef } from 'react'
import type { ApproveOptions, ConfirmationEntry, ResultIssue, Toolmark } from '@toolmark/core'
import {
  confirmDialogReducer,
  confirmDialogView,
  initialConfirmDialogState,
  isExpiredOutcome,
  needsAttention,
  type ConfirmDialogView,
  type Outcome,
} from './confirmDialogState'
import { useConfirmationsFor } from '../useConfirmations'
import { useIsomorphicLayoutEffect } from '../useIsomorphicLayoutEffect'
import { useEndedOnScreen } from './useEndedOnScreen'

const DIALOG = 'dialog'
/** Approvals from the dialog's own buttons say so (a label for the log, not proof of a person). */
const BY_DIALOG: ApproveOptions = Object.freeze({ by: DIALOG })
/** "Allow for this session": the approval also grants later calls of the tool by the caller. */
const FOR_SESSION: ApproveOptions = Object.freeze({
  by: DIALOG,
  grant: Object.freeze({ for: 'session' as const }),
})
const NO_ISSUES: readonly ResultIssue[] = Object.freeze([])

/** What {@link useConfirmDialog} returns: the view and what the person can do. */
export interface UseConfirmDialogResult extends ConfirmDialogView {
  /** The clock (ms) the time left is counted against: a display, never what ends a request. */
  now: number
  /** Changes each time the browser closed the dialog on its own, so it opens again. */
  reopened: number
  approve(): void
  /** Approves the request on screen and grants its caller later calls of its tool (session). */
  allowForSession(): void
  /**
   * Answers the question on screen; resolves with the issues of an invalid answer (the question
   * stays), or none once it was taken or ended otherwise (an outcome shows why).
   */
  answer(value: unknown): Promise<readonly ResultIssue[]>
  /** Approves the ticked rows of the review list, one after another in queue order. */
  approveSelected(): void
  /** Denies the request on screen (every open row of a review list), or dismisses the outcomes. */
  deny(): void
  dismiss(): void
  /** Ticks or unticks a review row. */
  toggle(id: string, checked: boolean): void
  /** Review rows that came wholly on screen. */
  seen(ids: readonly string[]): void
  /** The browser closed the dialog without asking: a denial, never an approval. */
  closedByBrowser(): void
}

/**
 * The state of `<ConfirmDialog>`: the registry's pending confirmations (attached as a presenter),
 * the request selected in the queue, the approval that runs, the outcomes to read and the clock.
 */
export function useConfirmDialog(tm: Toolmark): UseConfirmDialogResult {
  const {
    items,
    approve,
    answer: answerQuestion,
    reject,
    approveMany,
    rejectMany,
  } = useConfirmationsFor({ toolmark: tm }, '<ConfirmDialog>')
  const [state, dispatch] = useReducer(confirmDialogReducer, initialConfirmDialogState)
  const view = confirmDialogView(state, items)
  const { asking, current, outcomes, review, selected, interjection } = view

  // One answer at a time, also when two clicks land before the next render.
  const busy = useRef(false)
  const forgetRows = useEndedOnScreen(tm, view, dispatch)

  // The clock runs only while a request waits on screen; set before paint so the first frame
  // already shows the right time left.
  useIsomorphicLayoutEffect(() => {
    if (!asking) return
    dispatch({ type: 'ticked', now: Date.now() })
    const timer = setInterval(() => dispatch({ type: 'ticked', now: Date.now() }), 1000)
    return () => clearInterval(timer)
  }, [asking])

  async function answer(asked: readonly ConfirmationEntry[], run: () => Promise<Outcome[]>) {
    if (busy.current || asked.length === 0) return
    busy.current = true
    forgetRows()
    dispatch({ type: 'answering', entries: asked })
    const failed = await run()
    busy.current = false
    dispatch({ type: 'answered', outcomes: failed })
  }

  // A request a running tool asked while an approval runs is answered beside it, one at a time.
  const asideBusy = useRef(false)
  async function answerAside(asked: ConfirmationEntry, run: () => Promise<Outcome[]>) {
    if (asideBusy.current) return
    asideBusy.current = true
    const failed = await run()
    asideBusy.current = false
    if (failed.length > 0) dispatch({ type: 'noted', outcomes: failed })
  }

  /** Answers the single request on screen, beside a running approval when it interjected. */
  const answerOne = (asked: ConfirmationEntry, run: () => Promise<Outcome[]>) =>
    interjection ? answerAside(asked, run) : answer([asked], run)

  const dismiss = () => {
    const expired = outcomes.filter(isExpiredOutcome).map((o) => o.entry.id)
    dispatch({ type: 'dismissed', expired })
    // Lets the registry drop an entry its timer has not swept yet; the answer is expected.
    for (const id of expired) if (items.some((item) => item.id === id)) void reject(id)
  }

  const deny = () => {
    if (outcomes.length > 0) return dismiss()
    if (interjection && current) return void reject(current.id)
    if (busy.current) return
    if (review) {
      const open = review.filter((row) => !row.ended).map((row) => row.entry.id)
      // Rows that ended were read: denying clears them too.
      dispatch({ type: 'dismissed', expired: [] })
      if (open.length > 0) void rejectMany(open)
      return
    }
    if (current) void reject(current.id)
  }

  const approveOnScreen = (options: ApproveOptions) => {
    // Whether it is too late is the store's to say: a late approval comes back expired.
    if (!current || !asking) return
    const asked = current
    void answerOne(asked, async () => {
      const result = await approve(asked.id, options)
      return needsAttention(result) ? [{ kind: 'result', entry: asked, result }] : []
    })
  }

  return {
    ...view,
    now: state.now,
    reopened: state.reopened,
    approve: () => approveOnScreen(BY_DIALOG),
    allowForSession: () => approveOnScreen(FOR_SESSION),
    answer: async (value) => {
      if (!current?.question || !asking) return NO_ISSUES
      const asked = current
      let issues: readonly ResultIssue[] = NO_ISSUES
      await answerOne(asked, async () => {
        const result = await answerQuestion(asked.id, value, BY_DIALOG)
        if (result.status === 'invalid') {
          issues = result.issues
          return []
        }
        return needsAttention(result) ? [{ kind: 'result', entry: asked, result }] : []
      })
      return issues
    },
    approveSelected: () => {
      if (!review || !asking || selected.length === 0) return
      const asked = selected
      void answer(asked, async () => {
        const answers = await approveMany(
          asked.map((entry) => entry.id),
          BY_DIALOG,
        )
        return answers.flatMap((answer): Outcome[] => {
          const entry = asked.find((e) => e.id === answer.id)
          return entry && needsAttention(answer.result)
            ? [{ kind: 'result', entry, result: answer.result }]
            : []
        })
      })
    },
    deny,
    dismiss,
    toggle: (id, checked) => {
      if (!busy.current) dispatch({ type: 'toggled', id, checked })
    },
    seen: (ids) => dispatch({ type: 'seen', ids }),
    closedByBrowser: () => {
      if (!busy.current || interjection || outcomes.length > 0) deny()
      dispatch({ type: 'closedByBrowser' })
    },
  }
}
