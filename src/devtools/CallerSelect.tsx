import { useId } from 'react'
import type { Caller } from '@toolmark/core'
import { defaultConfirmDialogLabels } from '../confirm-dialog/confirmDialogLabels'

/** Every caller, in core's order: the dialog names each one (`Record<Caller, string>`). */
const CALLERS = Object.keys(defaultConfirmDialogLabels.callers) as Caller[]

/** How the devtools name a caller: the dialog's wording, with the protocol name beside it. */
export function callerLabel(caller: Caller): string {
  return `${defaultConfirmDialogLabels.callers[caller] ?? caller} (${caller})`
}

/** A labelled picker of every caller. */
export function CallerSelect({
  value,
  onChange,
}: {
  value: Caller
  onChange: (caller: Caller) => void
}) {
  const id = useId()
  return (
    <label htmlFor={id}>
      Caller
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as Caller)}>
        {CALLERS.map((caller) => (
          <option key={caller} value={caller}>
            {callerLabel(caller)}
          </option>
        ))}
      </select>
    </label>
  )
}
