import type { ReactNode, RefCallback, RefObject } from 'react'
import type { ConfirmationEntry } from '@toolmark/core'
import type { ConfirmDialogLabels } from './confirmDialogLabels'
import type { QuestionFormParts } from './questionFormKey'
import { isExpiredOutcome } from './confirmDialogState'
import type { UseConfirmDialogResult } from './useConfirmDialog'
import { ConfirmDialogButtons } from './ConfirmDialogButtons'
import { ConfirmDialogReviewButtons } from './ConfirmDialogReview'

/** What `renderActions` receives to draw its own Approve and Deny controls. */
export interface ConfirmDialogActions {
  approve(): void
  /**
   * Present when the dialog offers grants (`offerGrants`) and the request allows one: approves
   * and lets later calls of the same tool by the same caller run without asking until reload.
   */
  allowForSession?: () => void
  deny(): void
  /**
   * Put it on the deny control (`<Button ref={denyRef}>`): focus starts there whenever a request
   * comes on screen, as with the built-in buttons.
   */
  denyRef: RefCallback<HTMLElement>
  /** True while an approved tool runs: disable the buttons and show progress. */
  pending: boolean
  /** True when the request can no longer be approved. */
  expired: boolean
  /** True when the request on screen is destructive: style approve as a danger action. */
  destructive: boolean
}

/**
 * What the person can do about what is on screen: Close once there are outcomes to read, the
 * review list's Deny all and Approve selected, a question's Decline and Answer, else Approve and
 * Deny (`renderActions`' own, or the built-in buttons). Focus starts on `denyRef`, or on
 * `closeRef` over outcomes.
 */
export function ConfirmDialogControls({
  dialog,
  entry,
  destructive,
  offerGrants,
  question,
  questionId,
  labels,
  renderActions,
  denyRef,
  closeRef,
}: {
  dialog: UseConfirmDialogResult
  /** The request the dialog is about. */
  entry: ConfirmationEntry
  destructive: boolean
  offerGrants: boolean
  /** The form questions are answered with, if there is one. */
  question: QuestionFormParts | undefined
  /** The id of the question's form, which its buttons submit. */
  questionId: string
  labels: ConfirmDialogLabels
  renderActions: ((actions: ConfirmDialogActions) => ReactNode) | undefined
  denyRef: RefCallback<HTMLElement>
  closeRef: RefObject<HTMLButtonElement | null>
}) {
  const { review, outcomes, answering } = dialog
  const allowForSession =
    !review && offerGrants && entry.grantable === true && !destructive && entry.verify !== true
      ? dialog.allowForSession
      : undefined
  return outcomes.length > 0 ? (
    <div data-part="actions">
      <button ref={closeRef} type="button" onClick={dialog.dismiss}>
        {labels.close}
      </button>
    </div>
  ) : review ? (
    <ConfirmDialogReviewButtons
      approveSelected={dialog.approveSelected}
      denyAll={dialog.deny}
      count={dialog.selected.length}
      pending={answering}
      destructive={destructive}
      denyRef={denyRef}
      labels={labels}
    />
  ) : entry.question ? (
    question ? (
      <question.Buttons
        formId={questionId}
        decline={dialog.deny}
        pending={answering}
        labels={labels}
      />
    ) : (
      <div data-part="actions">
        <button
          ref={denyRef}
          type="button"
          data-action="deny"
          disabled={answering}
          onClick={dialog.deny}
        >
          {labels.decline}
        </button>
      </div>
    )
  ) : renderActions ? (
    renderActions({
      approve: dialog.approve,
      ...(allowForSession ? { allowForSession } : {}),
      deny: dialog.deny,
      denyRef,
      pending: answering,
      expired: outcomes.some(isExpiredOutcome),
      destructive,
    })
  ) : (
    <ConfirmDialogButtons
      approve={dialog.approve}
      allowForSession={allowForSession}
      deny={dialog.deny}
      pending={answering}
      denyRef={denyRef}
      labels={labels}
      destructive={destructive ? entry : undefined}
    />
  )
}
