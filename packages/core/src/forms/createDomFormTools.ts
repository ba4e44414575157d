import type { Scope, ToolHints, Toolmark } from '../types'
import { linkFormTools } from '../webmcp/declarativeForms'
import { createFormTools, deadFormTools, formProblem } from './createFormTools'
import { domFormJsonSchema, readDomControls, type DomControl } from './dom/domControls'
import { createDomFormAdapter, domFormSchema } from './dom/domFormAdapter'
import type { FileFieldRules } from './values/fileValues'
import { formCodeOf } from './values/formCode'
import { createFormMemory } from './fill/formMemory'
import { formProvenance } from './fill/formProvenance'
import type { FileFields, FormMemory, FormTools } from './values/types'

/** Options of {@link createDomFormTools}. */
export interface DomFormToolsOptions {
  /** Prefix of the tools' names: `contact` registers `contact.fill`, `contact.submit`, … */
  name: string
  /** What the form is for, for the model. */
  description: string
  /** For people (the confirmation dialog, devtools). */
  title?: string
  /**
   * Runs on submit with the form's values; its return value is the submit tool's `data`.
   * Without it, a submit goes through the form's own submit (`requestSubmit()`), as a person's
   * click would, and `data` is `null`.
   */
  onSubmit?: (values: Record<string, unknown>, options: { signal: AbortSignal }) => unknown
  /** Paths masked everywhere, beyond password and secret-autocomplete fields (found on their own). */
  sensitive?: readonly string[]
  /**
   * Serves the form's file inputs, `fileFields({ name: rules })`: each input's `accept`,
   * `multiple` and `data-max-bytes`, with the rules given here on top (`fileFields({})` takes the
   * inputs as they are). Without it, agents cannot fill file inputs; their files are still shown
   * by name, size and type.
   */
  files?: FileFields
  /** The confirmation's one-liner for a submit; default `Submit <title or name>`. */
  submitSummary?: (values: Record<string, unknown>) => string
  /** Hints of `<name>.submit`. Default `{ consequential: true }`. */
  hints?: ToolHints
  /** The scope to register in. */
  scope?: Scope
  /** Keeps what the tools learned across registrations of this form. */
  memory?: FormMemory
}

/** What of the controls agents see: when it changes, the tools are registered again. */
const shapeOf = (controls: readonly DomControl[]) =>
  JSON.stringify(controls.map((c) => [c.name, c.kind, c.required, c.schema, c.fileRules]))

/**
 * Serves any HTML `<form>` to agents with the same tools and rules as a react-hook-form form:
 * `<name>.fill`, `<name>.submit`, `<name>.state`. The schema is read from the form's controls
 * (types, `required`, `min` / `max` / `pattern`, selects and radios as labelled choices,
 * checkboxes, file inputs); hidden, disabled and `data-tool-ignore` controls are left out, and
 * a control that is `readonly` or disabled when a fill, undo or revert comes is never written
 * (skipped `readonly`); values are written through the native setters with bubbling `input` / `change`, so
 * React-controlled inputs and form libraries update. Controls added or removed later register
 * the tools again. A form that carries declarative WebMCP `toolname` is left out of `webmcp()`.
 *
 * @example
 * const tools = createDomFormTools(tm, document.querySelector('form')!, {
 *   name: 'contact',
 *   description: 'The contact form: who is writing and why.',
 * })
 * await tm.call('contact.fill', { values: { email: 'ana@example.com' } })
 * tools.dispose()
 */
export function createDomFormTools(
  tm: Toolmark,
  form: HTMLFormElement,
  options: DomFormToolsOptions,
): FormTools {
  const label = typeof options?.name === 'string' ? options.name : ''
  if (!form || typeof (form as { requestSubmit?: unknown }).requestSubmit !== 'function') {
    return formProblem(tm, 'createDomFormTools', label, ['dom form'])
  }
  if (options?.onSubmit !== undefined && typeof options.onSubmit !== 'function') {
    return formProblem(tm, 'createDomFormTools', label, ['dom onSubmit'])
  }
  if (options?.files !== undefined && !formCodeOf(options.files, 'fileFields')) {
    return formProblem(tm, 'createDomFormTools', label, ['plain files'])
  }
  const memory = options.memory ?? createFormMemory()
  const first = readDomControls(form)
  let controls = first.controls
  const adapter = createDomFormAdapter(form, {
    controls: () => controls,
    onSubmit: options.onSubmit ? (values, o) => options.onSubmit!(values, o) : undefined,
  })
  const disconnect = adapter.connect()
  const schema = domFormSchema(() => controls)

  let current: FormTools = deadFormTools(label)
  let unlink = () => {}
  const warnSkipped = (skipped: readonly string[]) => {
    if (tm.dev && skipped.length > 0) {
      console.warn(
        `[toolmark] createDomFormTools("${label}"): left out the controls named ${skipped.join(', ')}: ` +
          'name fields with dot paths (letters, digits, "_", "-"), each name once.',
      )
    }
  }
  const warnFiles = () => {
    const unserved = controls.filter((c) => c.kind === 'file').map((c) => c.name)
    if (tm.dev && !options.files && unserved.length > 0) {
      console.warn(
        `[toolmark] createDomFormTools("${label}"): agents cannot fill the file inputs named ${unserved.join(', ')}: ` +
          "pass files: fileFields({}) (from '@toolmark/react' or '@toolmark/core/forms') to serve them.",
      )
    }
  }
  const register = () => {
    // File inputs are served only with fileFields(), which brings the file code: their
    // attributes give the rules, the declared ones go on top.
    const declared = options.files
    const rules: Record<string, FileFieldRules> = {}
    for (const c of controls) {
      if (c.kind === 'file') rules[c.name] = { ...c.fileRules, ...declared?.rules[c.name] }
    }
    const served = declared ? controls : controls.filter((c) => c.kind !== 'file')
    current = createFormTools(tm, adapter, {
      name: options.name,
      description: options.description,
      ...(options.title ? { title: options.title } : {}),
      schema,
      jsonSchema: domFormJsonSchema(served),
      sensitive: options.sensitive ? [...options.sensitive] : [],
      // The same file code as the declaration (its key is copied with it), with every input's rules.
      ...(declared ? { files: { ...declared, rules } } : {}),
      ...(options.submitSummary ? { submitSummary: options.submitSummary as never } : {}),
      ...(options.hints ? { hints: options.hints } : {}),
      ...(options.scope ? { scope: options.scope } : {}),
      memory,
    })
    unlink = linkFormTools(tm, Object.values(current.names) as string[], form)
  }
  warnSkipped(first.skipped)
  warnFiles()
  try {
    register()
  } catch (error) {
    disconnect()
    throw error
  }

  // Controls that come and go (a field shown on a choice) change what agents see: register again.
  let shape = shapeOf(controls)
  let scheduled = false
  const observer =
    typeof MutationObserver === 'function'
      ? new MutationObserver(() => {
          if (scheduled) return
          scheduled = true
          queueMicrotask(() => {
            scheduled = false
            if (disposed) return
            const next = readDomControls(form)
            const nextShape = shapeOf(next.controls)
            const declarative = form.hasAttribute('toolname')
            if (nextShape === shape && declarative === wasDeclarative) return
            shape = nextShape
            wasDeclarative = declarative
            controls = next.controls
            warnSkipped(next.skipped)
            warnFiles()
            unlink()
            current.dispose()
            register()
          })
        })
      : undefined
  let wasDeclarative = form.hasAttribute('toolname')
  observer?.observe(form, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: [
      'name',
      'type',
      'disabled',
      'required',
      'min',
      'max',
      'step',
      'pattern',
      'minlength',
      'maxlength',
      'accept',
      'multiple',
      'data-tool-ignore',
      'data-max-bytes',
      'toolname',
      'value',
    ],
  })
  let disposed = false
  return {
    get names() {
      return current.names
    },
    editedPaths: () => current.editedPaths(),
    isSensitive: (path) => current.isSensitive(path),
    provenance: formProvenance(memory),
    dispose() {
      if (disposed) return
      disposed = true
      observer?.disconnect()
      unlink()
      current.dispose()
      disconnect()
    },
  }
}
