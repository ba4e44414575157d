import type { FieldValues } from 'react-hook-form'
import type { StandardSchemaV1, ToolHints, Toolmark } from '@toolmark/core'
import type { FormProvenanceResult } from '../useFormProvenance'
import type { FileFields, FormSteps, FormToolNames, OptionLookups } from '@toolmark/core/forms'

/** Options of `useFormTool`. */
export interface UseFormToolOptions<TFieldValues extends FieldValues, TTransformedValues> {
  /** Prefix of the tools' names: `ticket` registers `ticket.fill`, `ticket.submit`, `ticket.state`. */
  name: string
  /** What the form is for, for the model. */
  description: string
  /** For people: the confirmation dialog's title for a submit. */
  title?: string
  /** The schema the form's resolver uses (`zodResolver(schema)`); fills are validated with it. */
  schema: StandardSchemaV1
  /** Runs on submit with the resolver's output; its return value is the submit tool's `data`. */
  onSubmit: (values: TTransformedValues) => unknown
  /**
   * Paths whose values are masked in results, confirmations and events (`'cards[].cvc'`).
   * Password, one-time-code and card inputs are found on their own.
   */
  sensitive?: readonly string[]
  /**
   * Fields whose allowed values agents can look up with `<name>.options`:
   * `optionLookups({ assignee: ({ query, signal }) => … })`.
   */
  options?: OptionLookups
  /**
   * File fields, by path, with their rules:
   * `fileFields({ attachment: { accept: 'image/*', maxBytes: 5e6 } })`. Fills take `{ ref }` or
   * `{ url }` for them, as `createToolmark({ files })` allows. A registered
   * `<input type="file">` gets a `FileList`, a `Controller` field a `File` (or a list).
   */
  files?: FileFields
  /** The confirmation's one-liner for a submit. Default `Submit <title or name>`. */
  submitSummary?: (values: TFieldValues) => string
  /** Hints of `<name>.submit`. Default `{ consequential: true }`: a person confirms. */
  hints?: ToolHints
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
  /**
   * Serves the form as a wizard, `formSteps([{ id, title?, fields }])`: the fields each step shows
   * (every field in one step). One fill then takes every step's values at once, keyed by step id:
   * `{ values: { who: { email } } }`. Render the returned `step`; it follows the agent.
   */
  steps?: FormSteps
  /**
   * Called when a fill, an undo or an invalid submit moves a wizard to another step (the first
   * with an issue, else the last), for apps that keep the step elsewhere (a route).
   */
  onStepChange?: (stepId: string) => void
}

/**
 * What `useFormTool` returns: the tools' full names, for a wizard its visible step, and which
 * fields hold a value an agent wrote (`provenance`, `revertField`).
 */
export interface UseFormToolResult extends FormToolNames, FormProvenanceResult {
  /** The step to show: the first until the agent or `setStep` moves it; undefined without steps. */
  step: string | undefined
  /** Shows a step (the wizard's Next and Back buttons). */
  setStep: (stepId: string) => void
}
