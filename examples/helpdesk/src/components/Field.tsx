import type { ReactElement } from 'react'

/** A labelled form field with its error, tied to its control by id (`field-<name>`). */
export function Field({
  label,
  name,
  error,
  required,
  children,
}: {
  label: string
  name: string
  error?: string
  required?: boolean
  children: ReactElement
}) {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={`field-${name}`}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {children}
      {error && (
        <p className="field__error" id={`field-${name}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
