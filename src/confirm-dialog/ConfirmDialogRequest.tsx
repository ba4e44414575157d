import type { ReactNode, RefCallback } from 'react'
import type { ConfirmationEntry, FieldChange } from '@toolmark/core'
import type { ConfirmDialogLabels } from './confirmDialogLabels'
import type { QuestionFormParts } from './questionFormKey'
import type { UseConfirmDialogResult } from './useConfirmDialog'
import { ConfirmDialogDetails } from './ConfirmDialogDetails'
import { ConfirmDialogReview } from './ConfirmDialogReview'
import { AgentText } from './AgentText'

/**
 * What the dialog asks about: its title and summary (under the ids the dialog is labelled and
 * described by), then the review list of several requests, the question's form, or what the
 * single request would do.
 */
export function ConfirmDialogRequest({
  dialog,
  entry,
  titleId,
  descriptionId,
  questionId,
  question,
  labels,
  renderChanges,
  denyRef,
}: {
  dialog: UseConfirmDialogResult
  /** The request the dialog is about. */
  entry: ConfirmationEntry
  titleId: string
  descriptionId: string
  /** The id of the question's form, which its buttons submit. */
  questionId: string
  /** The form questions are answered with, if there is one. */
  question: QuestionFormParts | undefined
  labels: ConfirmDialogLabels
  renderChanges: ((changes: FieldChange[]) => ReactNode) | undefined
  denyRef: RefCallback<HTMLElement>
}) {
  const { review, answering, outcomes } = dialog
  return review ? (
    <>
      <h2 id={titleId} data-part="title">
        {labels.reviewTitle(review.length)}
      </h2>
      <p id={descriptionId} data-part="summary">
        {labels.reviewHint}
      </p>
      <ConfirmDialogReview
        rows={review}
        labels={labels}
        renderChanges={renderChanges}
        busy={answering}
        onToggle={dialog.toggle}
        onSeen={dialog.seen}
      />
    </>
  ) : (
    <>
      <h2 id={titleId} data-part="title">
        <AgentText text={entry.title ?? entry.tool} />
      </h2>
      <p id={descriptionId} data-part="summary">
        <AgentText text={entry.summary} />
      </p>
      {entry.verify ? <p data-part="verify">{labels.verify}</p> : null}
      {entry.question ? (
        question ? (
          <question.Form
            key={entry.id}
            formId={questionId}
            question={entry.question}
            answer={dialog.answer}
            disabled={answering || outcomes.length > 0}
            focusRef={denyRef}
            labels={labels}
          />
        ) : (
          <p data-part="question">{labels.noQuestionForm}</p>
        )
      ) : (
        <ConfirmDialogDetails entry={entry} labels={labels} renderChanges={renderChanges} />
      )}
    </>
  )
}
