import type { ReactElement, ReactNode } from 'react'

/** A labelled form field with its error, tied to its control by id (`field-<name>`). */
export function Field({
  label,
  name,
  error,
  required,
  mark,
  children,
}: {
  label: string
  name: string
  error?: string
  required?: boolean
  /** Shown under the control: who filled the field (see `AgentFilled`). */
  mark?: ReactNode
  children: ReactElement
}) {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={`field-${name}`}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {children}
      {mark}
      {error && (
        <p className="field__error" id={`field-${name}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
