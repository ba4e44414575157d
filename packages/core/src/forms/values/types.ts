import type { FileFieldRules } from './fileValues'
import type { FORM_CODE } from './formCode'
import type {
  Caller,
  FieldChange,
  JsonSchema,
  ResultIssue,
  Scope,
  StandardSchemaV1,
  ToolHints,
} from '../../types'

/** One field of a form, as its adapter sees it. */
export interface FormField {
  /** Dot path of the field's value (`customer.email`, `items.0.name`). */
  path: string
  /** What a person reads next to the field. */
  label?: string
  /** The input element, when there is one: `type` and `autocomplete` reveal secrets. */
  element?: unknown
  /** The adapter knows the field holds a secret. */
  sensitive?: boolean
}

/** Who writes through `FormAdapter.setValues`: a fill, or the undo of one. */
export type FormWriteSource = 'agent' | 'undo'

/** What submitting the form came to: the app's `onSubmit` value, or validation issues. */
export type FormSubmitOutcome = { ok: true; data: unknown } | { ok: false; issues: ResultIssue[] }

/**
 * The bridge between form tools and a form library. An adapter only reads and writes; every
 * decision (what to overwrite, validation, undo, redaction) is made by `createFormTools`.
 */
export interface FormAdapter<TValues = Record<string, unknown>> {
  /** The current values (not mutated by the caller). */
  getValues(): TValues
  /** The values the form started from: submit confirmations diff against them. */
  defaultValues?(): unknown
  /** Writes values at dot paths; arrays are written whole. */
  setValues(
    values: ReadonlyMap<string, unknown>,
    options: { source: FormWriteSource },
  ): void | Promise<void>
  /**
   * Paths the user changed (for react-hook-form: dirty or touched fields). Core keeps only those
   * whose value differs from what the agent last wrote there (or from the default value).
   */
  dirtyPaths(): readonly string[]
  /** Validates and submits the way the app does; resolves with the outcome. */
  submit(options: { signal: AbortSignal }): Promise<FormSubmitOutcome>
  /** The form's fields, for labels and to find secrets. */
  fields(): readonly FormField[]
  /**
   * How the form holds the files a fill resolved for a file field (a `FileList` for a native
   * `<input type="file">`). Default: a `File` (or `null`) for a single field, a list for a
   * `multiple` one.
   */
  fileValue?(path: string, files: readonly File[], options: { multiple: boolean }): unknown
  /** False when the form is gone from the page: fills are then refused `stale`, nothing written. */
  available?(): boolean
  /**
   * Paths of the fields nobody may change now: for a plain HTML form, those with a control that
   * is `readonly` or disabled (by its own `disabled` or a `<fieldset disabled>` around it). Read
   * at every fill, undo and revert, which never write them and report them skipped `readonly`.
   */
  readOnlyPaths?(): readonly string[]
  /**
   * Calls `onChange` after the form's values changed (a person typing, a reset); returns the
   * unsubscribe. Lets the form's provenance follow a person's edits as they happen; without it,
   * provenance is read afresh whenever it is asked for.
   */
  subscribe?(onChange: () => void): () => void
}

/** An allowed value of a field, for `<form>.options`. */
export interface FormOption {
  value: string | number | boolean | null
  title: string
}

/** Looks up the allowed values of a field; `signal` aborts on timeout or cancellation. */
export type FormOptionsLookup = (args: {
  query: string
  signal: AbortSignal
}) => readonly FormOption[] | Promise<readonly FormOption[]>

/**
 * What form tools remember across registrations of one form: the values the agent last wrote
 * (so it may rewrite its own values) and the paths found sensitive (sensitive stays sensitive).
 */
export interface FormMemory {
  /** The value the agent last wrote at each path. */
  readonly agentWrites: Map<string, unknown>
  /** Patterns of fields found sensitive on their elements. */
  readonly sensitive: Set<string>
}

/**
 * A step of a wizard over one form: the fields it shows. Every field of the form belongs to
 * exactly one step, so the agent sees (and a person confirms) the whole form.
 */
export interface FormStep {
  /** Names the step in the fill's input (`values.who.email`): letters, digits, `_` or `-`. */
  id: string
  /** For people and the model (`Who needs access`). */
  title?: string
  /** The form paths the step shows (`email`, `address.city`); a path covers what is below it. */
  fields: readonly string[]
}

/**
 * A form's steps, from `formSteps([...])`: serves one form as a wizard. Frozen. A plain list is
 * not one: `formSteps` carries the wizard code, so a form without steps does not bundle it.
 */
export interface FormSteps {
  readonly kind: 'formSteps'
  /** The steps, in the order a person goes through them. */
  readonly steps: readonly FormStep[]
  /** The wizard code, bundled only where `formSteps` is imported. */
  readonly [FORM_CODE]: object
}

/**
 * A form's option lookups by field path, from `optionLookups({...})`, served as `<name>.options`.
 * Frozen. A plain object is not one: `optionLookups` carries the lookup code, so a form without
 * lookups does not bundle it.
 */
export interface OptionLookups {
  readonly kind: 'optionLookups'
  /** The lookup of each field. */
  readonly lookups: Readonly<Record<string, FormOptionsLookup>>
  /** The lookup code, bundled only where `optionLookups` is imported. */
  readonly [FORM_CODE]: object
}

/**
 * A form's file fields by path, from `fileFields({...})`: what each accepts. Frozen. A plain
 * object is not one: `fileFields` carries the code that checks, resolves and fetches files, so a
 * form without file fields does not bundle it.
 */
export interface FileFields {
  readonly kind: 'fileFields'
  /** The rules of each file field. */
  readonly rules: Readonly<Record<string, Readonly<FileFieldRules>>>
  /** The file code, bundled only where `fileFields` is imported. */
  readonly [FORM_CODE]: object
}

/** How complete one step of a wizard is, in `<form>.state`. */
export interface FormStepState {
  id: string
  title?: string
  /** The step's fields pass validation. */
  complete: boolean
}

/** Options every form's tools share, wizards included. */
export interface FormToolsBaseOptions<TValues> {
  /** Prefix of the tools' names: `ticket` registers `ticket.fill`, `ticket.submit`, … */
  name: string
  /** What the form is for, for the model; every tool's description starts with it. */
  description: string
  /** For people (the confirmation dialog, devtools). */
  title?: string
  /**
   * Fields whose allowed values agents can look up with `<name>.options`:
   * `optionLookups({ assignee: ({ query, signal }) => … })`.
   */
  options?: OptionLookups
  /** The confirmation's one-liner for a submit; default `Submit <title or name>`. */
  submitSummary?: (values: TValues) => string
  /** Hints of `<name>.submit`. Default `{ consequential: true }`. */
  hints?: ToolHints
  /** The scope to register in. */
  scope?: Scope
  /** Keeps what the tools learned across registrations; see `createFormMemory`. */
  memory?: FormMemory
  /**
   * A wizard's UI follows the agent: called with the step to show after a fill or an undo
   * changed the form, or a submit came back invalid — the first step (in order) with a
   * validation issue, else the last step.
   */
  onStepChange?: (stepId: string) => void
}

/** Options of `createFormTools`. */
export interface FormToolsOptions<
  TValues = Record<string, unknown>,
> extends FormToolsBaseOptions<TValues> {
  /** The form's schema (the one its resolver uses); fills are validated with it. */
  schema: StandardSchemaV1
  /** The form's JSON Schema, when `schema` has no Standard JSON Schema. */
  jsonSchema?: JsonSchema
  /** Paths whose values are masked everywhere (`'ssn'`, `'cards[].cvc'`). */
  sensitive?: readonly string[]
  /**
   * File fields, `fileFields({ path: rules })`: a fill takes `{ ref }` or `{ url }` for them (see
   * `createToolmark({ files })`) and resolves every file before writing anything. A file value
   * in a form without them is still shown by name, size and type, but agents cannot fill it.
   */
  files?: FileFields
  /**
   * Serves the form as a wizard, `formSteps([{ id, title?, fields }])`: one fill takes every
   * step's values at once, keyed by step id (`{ values: { who: { email }, system: { name } } }`),
   * and every path the tools report is keyed the same way. `options` and `sensitive` keep the
   * form's own paths.
   */
  steps?: FormSteps
}

/** A step of a wizard whose steps each have a form of their own (`createWizardTools`). */
export interface WizardStep<TValues = Record<string, unknown>> {
  /** Names the step in the fill's input (`values.who.email`): letters, digits, `_` or `-`. */
  id: string
  /** For people and the model. */
  title?: string
  /** The step's form. Its `submit` validates the step and resolves with its values. */
  adapter: FormAdapter<TValues>
  /** The step form's schema. */
  schema: StandardSchemaV1
  /** The step's JSON Schema, when `schema` has no Standard JSON Schema. */
  jsonSchema?: JsonSchema
  /** Paths of the step's form whose values are masked everywhere. */
  sensitive?: readonly string[]
  /**
   * Fields of the step whose allowed values agents can look up (`<name>.options`), from
   * `optionLookups({...})`.
   */
  options?: OptionLookups
}

/**
 * Options of `createWizardTools`. Paths of the wizard are keyed by step id (`who.email`), and
 * so are the values `submitSummary` and `onSubmit` get.
 */
export interface WizardToolsOptions<
  TValues = Record<string, unknown>,
> extends FormToolsBaseOptions<TValues> {
  /** The steps, in the order a person goes through them. */
  steps: readonly WizardStep<any>[]
  /** Submits the wizard once every step is valid, with each step's values under its id. */
  onSubmit: (values: TValues, options: { signal: AbortSignal }) => unknown
}

/** The full names of a form's tools. */
export interface FormToolNames {
  fill: string
  submit: string
  state: string
  /** Present when a field declares `options`. */
  options?: string
}

/** Returned by `createFormTools`. */
export interface FormTools {
  readonly names: FormToolNames
  /** Paths the user edited, by the rule fills follow. */
  editedPaths(): string[]
  /** Whether a form path is masked. */
  isSensitive(path: string): boolean
  /**
   * Which fields hold a value an agent wrote (and from which call), and `revertField(path)`. The
   * same store for every registration of one form memory.
   */
  readonly provenance: FormProvenanceStore
  /** Unregisters the tools; idempotent. */
  dispose(): void
}

/** A field a fill or an undo left alone, and why. */
export interface SkippedField {
  path: string
  /**
   * `user_edited`: the user changed it; `changed`: it no longer holds what the fill wrote;
   * `reverted`: a person reverted that field (`revertField`), so the fill's undo leaves it alone;
   * `readonly`: the form does not let it change now (a `readonly` or disabled control), whatever
   * `overwrite` says.
   */
  reason: 'user_edited' | 'changed' | 'reverted' | 'readonly'
}

/** What `<form>.fill` and its undo return. */
export interface FillResult {
  /** What was written, sorted by path; sensitive values masked. */
  changes: FieldChange[]
  /** What was left alone, sorted by path. */
  skipped: SkippedField[]
}

/** What `<form>.state` returns. */
export interface FormStateResult {
  /** Current values, sensitive ones masked. */
  values: unknown
  /** Current validation issues of the whole form. */
  issues: ResultIssue[]
  /** Paths the user edited (fills skip them unless `overwrite`). */
  edited: string[]
  /** A wizard's steps, in order, and whether each is complete. */
  steps?: FormStepState[]
}

/** What `<form>.options` returns. */
export interface FormOptionsResult {
  field: string
  options: FormOption[]
  /** More matched than were returned: narrow the query. */
  more: boolean
}

/** Who wrote the value a field holds: the agent's call, its caller, and when (ms since epoch). */
export interface FieldProvenance {
  readonly callId: string
  readonly caller: Caller
  readonly at: number
}

/**
 * The fields that hold a value an agent wrote, by the tools' dot path (for a wizard, keyed by
 * step id: `who.email`). A replaced or appended-to list is one entry at the list's path.
 */
export type FormProvenance = ReadonlyMap<string, FieldProvenance>

/** What `revertField` did. It never throws. */
export type RevertFieldOutcome =
  | { status: 'reverted'; path: string; change: FieldChange }
  | {
      status: 'skipped'
      path: string
      /**
       * `not_filled`: no agent value is recorded at this path (never written, already reverted
       * or undone); `user_edited`: the user changed it since; `changed`: something else did;
       * `readonly`: the form does not let it change now (a `readonly` or disabled control);
       * `unavailable`: the form's tools are not registered, or writing the form failed.
       */
      reason: 'not_filled' | 'user_edited' | 'changed' | 'readonly' | 'unavailable'
    }

/**
 * Which fields of one form hold a value an agent wrote, and `revertField`. One per form memory,
 * so it outlives registering the form's tools again; `subscribe` / `getSnapshot` suit
 * `useSyncExternalStore`.
 */
export interface FormProvenanceStore {
  /** The same map until a field gains or loses an agent's value. */
  getSnapshot(): FormProvenance
  /** Calls `listener` after the snapshot changed; returns the unsubscribe. */
  subscribe(listener: () => void): () => void
  /**
   * Restores one field to what it held before the agent wrote it (a person's value, or the
   * default), if it still holds the agent's value. The rest of the fill stays, and the fill's
   * undo leaves this field alone (reported skipped `reverted`).
   */
  revertField(path: string): Promise<RevertFieldOutcome>
}
