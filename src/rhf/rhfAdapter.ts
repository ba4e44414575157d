import type { FieldValues, UseFormReturn } from 'react-hook-form'
import type { ResultIssue } from '@toolmark/core'
import type { FormAdapter, FormField, FormSubmitOutcome } from '@toolmark/core/forms'
import { fieldLabel } from './fieldLabel'

type AnyForm = UseFormReturn<FieldValues, any, any>

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object'

const join = (parent: string, key: string | number) =>
  parent === '' ? String(key) : `${parent}.${key}`

/** The leaf paths of a tree of flags (`dirtyFields`, `touchedFields`). */
function flagPaths(tree: unknown, prefix: string, out: Set<string>, depth = 0): void {
  if (depth > 64 || !tree) return
  if (!isObject(tree)) {
    if (prefix !== '') out.add(prefix)
    return
  }
  if (Array.isArray(tree))
    tree.forEach((item, i) => flagPaths(item, join(prefix, i), out, depth + 1))
  else for (const key of Object.keys(tree)) flagPaths(tree[key], join(prefix, key), out, depth + 1)
}

/** react-hook-form's nested errors as `{ path, message }` issues (`items.root` → `items`). */
function errorIssues(
  errors: unknown,
  prefix = '',
  out: ResultIssue[] = [],
  depth = 0,
): ResultIssue[] {
  if (depth > 64 || !isObject(errors)) return out
  const message = errors.message
  if (typeof errors.type === 'string' || typeof message === 'string') {
    const path = prefix.endsWith('.root') ? prefix.slice(0, -'.root'.length) : prefix
    out.push({ path, message: typeof message === 'string' && message ? message : 'Invalid value' })
  }
  // Object.entries also walks sparse arrays (rows without errors are holes).
  for (const [key, value] of Object.entries(errors)) {
    if (key === 'ref' || key === 'types' || key === 'message' || key === 'type') continue
    errorIssues(value, join(prefix, key), out, depth + 1)
  }
  return out
}

const isElement = (value: unknown): value is Element =>
  isObject(value) && typeof (value as { getAttribute?: unknown }).getAttribute === 'function'

/** The element of a registered field: its ref, its first radio/checkbox, or one found by name. */
function elementOf(field: RegisteredField): unknown {
  const fromRefs = Array.isArray(field.refs) ? field.refs.find(isElement) : undefined
  if (fromRefs) return fromRefs
  if (isElement(field.ref)) return field.ref
  // Controller fields keep a focus proxy as their ref: look the input up by its name.
  if (typeof document !== 'undefined' && typeof field.name === 'string') {
    const [byName] = document.getElementsByName(field.name)
    if (byName) return byName
  }
  return field.ref
}

function labelOf(element: unknown): string | undefined {
  return isElement(element) ? fieldLabel(element) : undefined
}

interface RegisteredField {
  name?: string
  ref?: unknown
  refs?: unknown[]
}

/** One `FormField` per registration, reused while its ref stays the same (redaction asks often). */
const fieldCache = new WeakMap<object, { ref: unknown; refs: unknown; field: FormField }>()

function fieldOf(own: RegisteredField & object): FormField {
  const cached = fieldCache.get(own)
  if (cached && cached.ref === own.ref && cached.refs === own.refs) return cached.field
  const element = elementOf(own)
  const field: FormField = { path: own.name as string, element }
  // Labels are read only when shown (a submit confirmation), not on every redaction.
  Object.defineProperty(field, 'label', {
    get: () => labelOf(element),
    enumerable: true,
    configurable: true,
  })
  // An element found by name may be replaced by the app: look it up again next time.
  const fromRegistration =
    element === own.ref || (Array.isArray(own.refs) && own.refs.includes(element))
  if (fromRegistration) fieldCache.set(own, { ref: own.ref, refs: own.refs, field })
  return field
}

function collectFields(node: unknown, out: FormField[], depth = 0): void {
  if (depth > 64 || !isObject(node)) return
  const own = (node as { _f?: RegisteredField })._f
  if (isObject(own) && typeof own.name === 'string') out.push(fieldOf(own))
  for (const key of Object.keys(node)) {
    if (key !== '_f') collectFields((node as Record<string, unknown>)[key], out, depth + 1)
  }
}

/**
 * A `FormAdapter` over a react-hook-form form: reads and writes through its public API
 * (`getValues`, `setValue`, `trigger`, `handleSubmit`) and its field registry for elements and
 * dirty state. Decides nothing.
 */
export function createRhfAdapter(
  getForm: () => AnyForm,
  onSubmit: (values: unknown) => unknown,
): FormAdapter<FieldValues> {
  return {
    getValues: () => getForm().getValues(),
    defaultValues: () => getForm().control._defaultValues,
    setValues(values) {
      const form = getForm()
      // Agent writes are dirty like a person's (the app's "unsaved" state shows them); core
      // tells them apart by remembering what the agent wrote.
      for (const [path, value] of values) form.setValue(path, value, { shouldDirty: true })
      // react-hook-form keeps a file input's FileList in its state and empties the input: show
      // the files in the input too, so a person sees what the agent attached.
      if (typeof FileList !== 'undefined') {
        const fields: FormField[] = []
        for (const [path, value] of values) {
          if (!(value instanceof FileList)) continue
          if (fields.length === 0) collectFields(form.control._fields, fields)
          const element = fields.find((f) => f.path === path)?.element
          if (isFileInput(element)) element.files = value
        }
      }
      const { _formState: state, _options: formOptions } = form.control
      const paths = [...values.keys()]
      const shown = errorIssues(state.errors).map((i) => i.path)
      const showsErrors = paths.some((path) =>
        shown.some((p) => p === path || p.startsWith(`${path}.`)),
      )
      // Validate the way a person's change would: once errors show or the form was submitted.
      const eager = formOptions.mode === 'onChange' || formOptions.mode === 'all'
      if (eager || state.isSubmitted || showsErrors) void form.trigger(paths)
    },
    subscribe(onChange) {
      // Values only, outside React: a keystroke re-renders nothing unless provenance changed.
      return getForm().subscribe({ formState: { values: true }, callback: () => onChange() })
    },
    dirtyPaths() {
      const { _formState: state } = getForm().control
      const out = new Set<string>()
      flagPaths(state.dirtyFields, '', out)
      flagPaths(state.touchedFields, '', out)
      return [...out]
    },
    async submit(): Promise<FormSubmitOutcome> {
      let outcome: FormSubmitOutcome | undefined
      await getForm().handleSubmit(
        async (values) => {
          outcome = { ok: true, data: await onSubmit(values) }
        },
        (errors) => {
          outcome = { ok: false, issues: errorIssues(errors) }
        },
      )()
      if (!outcome) throw new Error('The form was reset while it was being submitted')
      return outcome
    },
    fields() {
      const out: FormField[] = []
      collectFields(getForm().control._fields, out)
      return out
    },
    fileValue(path, files, { multiple }) {
      const fields: FormField[] = []
      collectFields(getForm().control._fields, fields)
      const element = fields.find((f) => f.path === path)?.element
      // A registered <input type="file"> holds a FileList: react-hook-form writes it to the input.
      if (isFileInput(element) && typeof DataTransfer !== 'undefined') {
        const transfer = new DataTransfer()
        for (const file of files) transfer.items.add(file)
        return transfer.files
      }
      return multiple ? [...files] : (files[0] ?? null)
    },
  }
}

const isFileInput = (element: unknown): element is HTMLInputElement =>
  isElement(element) &&
  element.tagName === 'INPUT' &&
  element.getAttribute('type')?.toLowerCase() === 'file'
