import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type RefCallback,
} from 'react'
import type { QuestionSpec, ResultIssue } from '@toolmark/core'
import type { ConfirmDialogLabels } from './confirmDialogLabels'
import {
  answerOf,
  initialDraft,
  issuesByField,
  questionFields,
  type QuestionDraft,
  type QuestionField,
} from './questionFields'

/**
 * A question entry's form: one labelled control per field the question's schema describes, the
 * issues an invalid answer got shown beside their fields, and focus on the first field (the first
 * invalid one after a refused answer). Its submit and decline buttons are
 * {@link ConfirmDialogQuestionButtons}, in the dialog's actions, tied to it by `formId`.
 */
export function ConfirmDialogQuestion({
  formId,
  question,
  answer,
  disabled,
  focusRef,
  labels,
}: {
  formId: string
  question: QuestionSpec
  /** Sends the answer; resolves with the issues to show (none when it was taken). */
  answer: (value: unknown) => Promise<readonly ResultIssue[]>
  disabled: boolean
  /** Put on the control focus starts on. */
  focusRef: RefCallback<HTMLElement>
  labels: ConfirmDialogLabels
}) {
  const { schema } = question
  const fields = useMemo(() => questionFields(schema, labels.yourAnswer), [schema, labels])
  const [draft, setDraft] = useState<QuestionDraft>(() => initialDraft(schema, fields))
  const [issues, setIssues] = useState<readonly ResultIssue[]>([])
  const byField = useMemo(() => issuesByField(fields, issues), [fields, issues])
  const baseId = useId()
  const controls = useRef(new Map<string, HTMLElement>())
  const firstInvalid = fields.find((f) => byField.has(f.path))?.path
  const focusPath = firstInvalid ?? fields[0]?.path

  // After a refused answer, the person lands on what to fix.
  useEffect(() => {
    if (firstInvalid !== undefined) controls.current.get(firstInvalid)?.focus()
  }, [issues, firstInvalid])

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (disabled) return
    void answer(answerOf(schema, fields, draft)).then(setIssues)
  }

  const general = fields.length > 1 || fields[0]?.path !== '' ? byField.get('') : undefined

  return (
    <form id={formId} data-part="question" noValidate onSubmit={submit}>
      {fields.map((field, i) => (
        <QuestionControl
          key={field.path}
          id={`${baseId}-${i}`}
          field={field}
          value={draft[field.path]}
          issues={byField.get(field.path)}
          disabled={disabled}
          labels={labels}
          refFor={(node) => {
            if (node) controls.current.set(field.path, node)
            else controls.current.delete(field.path)
            if (field.path === focusPath) focusRef(node)
          }}
          onChange={(value) => setDraft((d) => ({ ...d, [field.path]: value }))}
        />
      ))}
      {general ? (
        <p data-part="issue" role="alert">
          {general.join(' ')}
        </p>
      ) : null}
    </form>
  )
}

function QuestionControl({
  id,
  field,
  value,
  issues,
  disabled,
  labels,
  refFor,
  onChange,
}: {
  id: string
  field: QuestionField
  value: string | boolean | undefined
  issues: string[] | undefined
  disabled: boolean
  labels: ConfirmDialogLabels
  refFor: (node: HTMLElement | null) => void
  onChange: (value: string | boolean) => void
}) {
  const describedBy =
    [field.description ? `${id}-hint` : '', issues ? `${id}-issue` : '']
      .filter(Boolean)
      .join(' ') || undefined
  const common = {
    id,
    name: field.path || 'answer',
    disabled,
    'aria-describedby': describedBy,
    'aria-invalid': issues ? true : undefined,
    'aria-required': field.required && field.control !== 'checkbox' ? true : undefined,
  }
  const text = typeof value === 'string' ? value : ''
  let control
  if (field.control === 'checkbox') {
    control = (
      <input
        {...common}
        ref={refFor}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    )
  } else if (field.control === 'select') {
    control = (
      <select
        {...common}
        ref={refFor}
        value={text}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        <option value="">{labels.choose}</option>
        {field.options!.map((option, i) => (
          <option key={i} value={String(i)}>
            {String(option)}
          </option>
        ))}
      </select>
    )
  } else {
    control = (
      <input
        {...common}
        ref={refFor}
        type={field.control === 'number' ? 'number' : 'text'}
        inputMode={field.control === 'number' ? (field.integer ? 'numeric' : 'decimal') : undefined}
        step={field.control === 'number' ? (field.integer ? 1 : 'any') : undefined}
        min={field.min}
        max={field.max}
        maxLength={field.maxLength}
        autoComplete="off"
        value={text}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    )
  }
  return (
    <div data-part="field" data-control={field.control}>
      <label htmlFor={id}>
        {field.label}
        {field.required || field.control === 'checkbox' ? null : (
          <>
            {' '}
            <span data-part="optional">({labels.optional})</span>
          </>
        )}
      </label>
      {control}
      {field.description ? (
        <p id={`${id}-hint`} data-part="hint">
          {field.description}
        </p>
      ) : null}
      {issues ? (
        <p id={`${id}-issue`} data-part="issue">
          {issues.join(' ')}
        </p>
      ) : null}
    </div>
  )
}

/** Decline and Answer for a question: Answer submits the question's form (by `formId`). */
export function ConfirmDialogQuestionButtons({
  formId,
  decline,
  pending,
  labels,
}: {
  formId: string
  decline: () => void
  pending: boolean
  labels: ConfirmDialogLabels
}) {
  return (
    <div data-part="actions">
      <button type="button" data-action="deny" disabled={pending} onClick={decline}>
        {labels.decline}
      </button>
      <button
        type="submit"
        form={formId}
        data-action="answer"
        data-variant="primary"
        disabled={pending}
      >
        {pending ? labels.working : labels.answer}
      </button>
    </div>
  )
}
