import { useMemo } from 'react'
import { withProvenance, type FormProvenanceState } from '../useFormProvenance'
import type { UseFormToolResult } from './formToolTypes'

/**
 * What `useFormTool` and `useWizardTool` return: the form's tool names under `base`, the step to
 * show (the one asked for when it is a step of the form, else the first), `setStep`, and which
 * fields hold an agent's value. The same
 * object until one of them changes.
 */
export function useFormToolResult(
  base: string,
  hasOptions: boolean,
  stepIds: readonly string[] | undefined,
  step: string | undefined,
  setStep: UseFormToolResult['setStep'],
  provenance: FormProvenanceState,
): UseFormToolResult {
  const shown = stepIds
    ? step !== undefined && stepIds.includes(step)
      ? step
      : stepIds[0]
    : undefined
  return useMemo(
    () =>
      withProvenance(
        {
          fill: `${base}.fill`,
          submit: `${base}.submit`,
          state: `${base}.state`,
          ...(hasOptions ? { options: `${base}.options` } : {}),
          step: shown,
          setStep,
        },
        provenance,
      ),
    // A new object when a read provenance changes (`version`), so it works in dependency arrays.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [base, hasOptions, shown, setStep, provenance.version, provenance.read, provenance.revertField],
  )
}
