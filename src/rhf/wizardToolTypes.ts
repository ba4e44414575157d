import type { UseFormReturn } from 'react-hook-form'
import type { StandardSchemaV1, ToolHints, Toolmark } from '@toolmark/core'
import type { OptionLookups } from '@toolmark/core/forms'

/** A step of `useWizardTool`: a `useForm` of its own. */
export interface UseWizardToolStep {
  /** Names the step in the fill's input (`values.who.email`): letters, digits, `_` or `-`. */
  id: string
  /** For people and the model (`Who needs access`). */
  title?: string
  /** The step's form, from `useForm` in the component that renders the wizard. */
  form: UseFormReturn<any, any, any>
  /** The schema the step form's resolver uses. */
  schema: StandardSchemaV1
  /** Paths of the step's form whose values are masked (`'password'`). */
  sensitive?: readonly string[]
  /**
   * Fields of the step whose allowed values agents can look up with `<name>.options`, from
   * `optionLookups({...})`. The steps themselves stay a plain list: `useWizardTool` is the
   * wizard code.
   */
  options?: OptionLookups
}

/** Options of `useWizardTool`. */
export interface UseWizardToolOptions<TValues = Record<string, any>> {
  /** Prefix of the tools' names: `access` registers `access.fill`, `access.submit`, … */
  name: string
  /** What the wizard is for, for the model. */
  description: string
  /** For people: the confirmation dialog's title for a submit. */
  title?: string
  /** The steps, in the order a person goes through them. */
  steps: readonly UseWizardToolStep[]
  /**
   * Runs once every step is valid, with each step's resolver output under its id
   * (`{ who: {…}, system: {…} }`); its return value is the submit tool's `data`.
   */
  onSubmit: (values: TValues) => unknown
  /** The confirmation's one-liner for a submit. Default `Submit <title or name>`. */
  submitSummary?: (values: TValues) => string
  /** Hints of `<name>.submit`. Default `{ consequential: true }`: a person confirms. */
  hints?: ToolHints
  /** Called when a fill, an undo or an invalid submit moves the wizard to another step. */
  onStepChange?: (stepId: string) => void
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}
