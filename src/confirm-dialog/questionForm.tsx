import { ConfirmDialogQuestion, ConfirmDialogQuestionButtons } from './ConfirmDialogQuestion'
import { QUESTION_FORM, type QuestionForm } from './questionFormKey'

/**
 * The form a question (`ctx.ask`) is answered with in `<ConfirmDialog>`: one labelled control
 * per field of the question's schema, its issues beside them, and Decline / Answer. Pass it to
 * the dialogs of an app whose tools ask (`<ConfirmDialog questions={questionForm} />`); a dialog
 * without it shows a question's prompt with Decline only, and an app that never asks does not
 * bundle the form.
 *
 * @example
 * ```tsx
 * import { ConfirmDialog, questionForm } from '@toolmark/react'
 *
 * <ConfirmDialog questions={questionForm} />
 * ```
 */
export const questionForm: QuestionForm = Object.freeze({
  [QUESTION_FORM]: Object.freeze({
    Form: ConfirmDialogQuestion,
    Buttons: ConfirmDialogQuestionButtons,
  }),
})
