import type { ConfirmDialogQuestion, ConfirmDialogQuestionButtons } from './ConfirmDialogQuestion'

/**
 * Where a {@link QuestionForm} keeps its components. The dialog reads them through this key
 * alone, so a bundle that never imports `questionForm` never holds the question's form.
 */
export const QUESTION_FORM: unique symbol = Symbol.for('toolmark.questionForm') as never

/** The two halves of a question's form: its fields, and its Decline / Answer buttons. */
export interface QuestionFormParts {
  readonly Form: typeof ConfirmDialogQuestion
  readonly Buttons: typeof ConfirmDialogQuestionButtons
}

/**
 * What `<ConfirmDialog questions>` takes: {@link questionForm} from `@toolmark/react`, the form a
 * question (`ctx.ask`) is answered with. Opaque; nothing else is one.
 */
export interface QuestionForm {
  readonly [QUESTION_FORM]: QuestionFormParts
}

/** The parts of a `questionForm`, or `undefined` for anything else. */
export function questionFormParts(value: unknown): QuestionFormParts | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const parts = (value as Partial<QuestionForm>)[QUESTION_FORM]
  return typeof parts === 'object' && parts !== null ? parts : undefined
}
