import type { ResultIssue, StandardSchemaV1 } from '../../types'
import type { DomControl } from './domControls'
import { isBlob, isFileList } from '../values/fileValues'
import { getIn, setIn, splitPath } from '../values/paths'
import type { FormAdapter, FormField, FormSubmitOutcome } from '../values/types'

/** Reads one field's value from its controls. */
function readControl(control: DomControl): unknown {
  const [first] = control.elements
  switch (control.kind) {
    case 'text':
      return (first as HTMLInputElement).value
    case 'number': {
      const input = first as HTMLInputElement
      return input.value === '' ? null : input.valueAsNumber
    }
    case 'boolean':
      return (first as HTMLInputElement).checked
    case 'choice': {
      if (first.tagName === 'SELECT') {
        const value = (first as HTMLSelectElement).value
        return value === '' ? null : value
      }
      const checked = control.elements.find((e) => (e as HTMLInputElement).checked)
      return checked ? (checked as HTMLInputElement).value : null
    }
    case 'choices':
      if (first.tagName === 'SELECT') {
        return Array.from((first as HTMLSelectElement).selectedOptions, (o) => o.value)
      }
      return control.elements
        .filter((e) => (e as HTMLInputElement).checked)
        .map((e) => (e as HTMLInputElement).value)
    case 'file': {
      const input = first as HTMLInputElement
      const files = Array.from(input.files ?? [])
      return input.multiple ? files : (files[0] ?? null)
    }
  }
}

/** The prototype's setter: React keeps its own on the element, which would hide the change. */
function setNative(element: HTMLElement, key: 'value' | 'checked', value: unknown): void {
  let proto: object | null = Object.getPrototypeOf(element)
  while (proto) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, key)
    if (descriptor?.set) {
      descriptor.set.call(element, value)
      return
    }
    proto = Object.getPrototypeOf(proto)
  }
  ;(element as unknown as Record<string, unknown>)[key] = value
}

/** Bubbling `input` and `change`, as a person's edit sends them (React and form libraries listen). */
function announce(element: HTMLElement): void {
  element.dispatchEvent(new Event('input', { bubbles: true }))
  element.dispatchEvent(new Event('change', { bubbles: true }))
}

/** Checks or unchecks a radio or checkbox the way a click would, so every listener hears it. */
function setChecked(element: HTMLElement, checked: boolean): void {
  const input = element as HTMLInputElement
  if (input.checked === checked) return
  if (checked || input.type === 'checkbox') {
    input.click()
    // A click a handler cancelled leaves it as it was: write it.
    if (input.checked !== checked) {
      setNative(input, 'checked', checked)
      announce(input)
    }
  } else {
    setNative(input, 'checked', false)
    announce(input)
  }
}

/** Writes one field's value into its controls, so React-controlled inputs update too. */
function writeControl(control: DomControl, value: unknown): void {
  const [first] = control.elements
  switch (control.kind) {
    case 'text':
    case 'number':
      setNative(first, 'value', value === null || value === undefined ? '' : String(value))
      announce(first)
      return
    case 'boolean':
      setChecked(first, value === true)
      return
    case 'choice':
      if (first.tagName === 'SELECT') {
        setNative(first, 'value', value === null || value === undefined ? '' : String(value))
        announce(first)
        return
      }
      for (const element of control.elements) {
        if ((element as HTMLInputElement).value === value) setChecked(element, true)
      }
      if (value === null || value === undefined) {
        for (const element of control.elements) setChecked(element, false)
      }
      return
    case 'choices': {
      const wanted = new Set(Array.isArray(value) ? value.map(String) : [])
      if (first.tagName === 'SELECT') {
        for (const option of Array.from((first as HTMLSelectElement).options)) {
          option.selected = wanted.has(option.value)
        }
        announce(first)
        return
      }
      for (const element of control.elements) {
        setChecked(element, wanted.has((element as HTMLInputElement).value))
      }
      return
    }
    case 'file': {
      const input = first as HTMLInputElement
      const files = isFileList(value)
        ? Array.from(value)
        : Array.isArray(value)
          ? value
          : isBlob(value)
            ? [value]
            : []
      const transfer = new DataTransfer()
      for (const file of files) if (file instanceof File) transfer.items.add(file)
      input.files = transfer.files
      announce(input)
      return
    }
  }
}

/**
 * Whether nobody may change a control now: it carries `readonly` (on any type, even those
 * browsers ignore it on, such as checkboxes and selects), or it is disabled, by its own
 * `disabled` or a `<fieldset disabled>` around it.
 */
const isLocked = (element: HTMLElement) =>
  element.hasAttribute('readonly') || element.matches(':disabled')

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0)

const EMAIL = /^[^\s@]+@[^\s@]+$/

/** The issues of one field's value against the constraints its controls declare. */
function controlIssues(control: DomControl, value: unknown): string | undefined {
  if (isEmpty(value) || (control.kind === 'boolean' && value === false)) {
    return control.required ? 'Fill in this field' : undefined
  }
  const schema = control.schema
  switch (control.kind) {
    case 'text': {
      if (typeof value !== 'string') return 'Expected text'
      if (typeof schema.minLength === 'number' && value.length < schema.minLength) {
        return `Use at least ${schema.minLength} characters`
      }
      if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) {
        return `Use at most ${schema.maxLength} characters`
      }
      if (typeof schema.pattern === 'string') {
        let matches = true
        try {
          matches = new RegExp(schema.pattern, 'v').test(value)
        } catch {
          // A pattern the browser would ignore is ignored here too.
        }
        if (!matches) return 'Match the requested format'
      }
      if (schema.format === 'email' && !EMAIL.test(value)) return 'Enter an email address'
      if (schema.format === 'uri') {
        try {
          new URL(value)
        } catch {
          return 'Enter a URL'
        }
      }
      return undefined
    }
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Expected a number'
      if (schema.type === 'integer' && !Number.isInteger(value)) return 'Expected a whole number'
      if (typeof schema.minimum === 'number' && value < schema.minimum) {
        return `Must be ${schema.minimum} or more`
      }
      if (typeof schema.maximum === 'number' && value > schema.maximum) {
        return `Must be ${schema.maximum} or less`
      }
      return undefined
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Expected true or false'
    case 'choice':
      return control.choices.includes(value as string)
        ? undefined
        : `Choose one of: ${control.choices.join(', ')}`
    case 'choices':
      return Array.isArray(value) && value.every((v) => control.choices.includes(v as string))
        ? undefined
        : `Choose among: ${control.choices.join(', ')}`
    case 'file':
      return isBlob(value) || (Array.isArray(value) && value.every(isBlob))
        ? undefined
        : 'Expected a file'
  }
}

/** A Standard Schema that checks a form's values against what its controls declare. */
export function domFormSchema(controls: () => readonly DomControl[]): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolmark-dom',
      validate(values) {
        const issues: Array<{ message: string; path: string[] }> = []
        for (const control of controls()) {
          const segments = splitPath(control.name)
          const message = controlIssues(control, getIn(values, segments))
          if (message) issues.push({ message, path: segments })
        }
        return issues.length > 0 ? { issues } : { value: values }
      },
    },
  }
}

/** Reads every field of the form into one object, nested along dotted names. */
export function readDomValues(controls: readonly DomControl[]): Record<string, unknown> {
  let values: unknown = {}
  for (const control of controls) {
    values = setIn(values, splitPath(control.name), readControl(control))
  }
  return values as Record<string, unknown>
}

/**
 * A `FormAdapter` over a plain `<form>`: reads its controls, writes through the native setters
 * with bubbling `input` / `change` (so React-controlled inputs and form libraries hear it),
 * counts as the user's edits only trusted events (a person's), and submits through `onSubmit`
 * or the form's own submit. Start it with `connect()`, which returns its teardown.
 */
export function createDomFormAdapter(
  form: HTMLFormElement,
  options: {
    controls: () => readonly DomControl[]
    /** Runs instead of the form's own submit, with the form's values. */
    onSubmit?: (values: Record<string, unknown>, options: { signal: AbortSignal }) => unknown
  },
): FormAdapter<Record<string, unknown>> & { connect(): () => void } {
  const dirty = new Set<string>()
  let defaults: Record<string, unknown> | undefined
  const controls = options.controls
  const nameOf = (target: EventTarget | null): string | undefined => {
    if (!target || !(target as Element).getAttribute) return undefined
    const name = (target as Element).getAttribute('name')
    return controls().some((c) => c.name === name) ? (name as string) : undefined
  }
  const onEdit = (event: Event) => {
    // Only a person's own events count: the writes below dispatch untrusted ones.
    if (!event.isTrusted) return
    const name = nameOf(event.target)
    if (name) dirty.add(name)
  }
  const onReset = () => {
    dirty.clear()
    defaults = undefined
  }

  return {
    connect() {
      defaults = readDomValues(controls())
      form.addEventListener('input', onEdit, true)
      form.addEventListener('change', onEdit, true)
      form.addEventListener('reset', onReset)
      return () => {
        form.removeEventListener('input', onEdit, true)
        form.removeEventListener('change', onEdit, true)
        form.removeEventListener('reset', onReset)
      }
    },
    getValues: () => readDomValues(controls()),
    defaultValues: () => (defaults ??= readDomValues(controls())),
    setValues(values) {
      const byName = new Map(controls().map((c) => [c.name, c]))
      for (const [path, value] of values) {
        const control = byName.get(path)
        if (control) {
          writeControl(control, value)
          continue
        }
        // A path above fields (`address` set whole, or cleared): write each field below it.
        for (const [name, below] of byName) {
          if (name.startsWith(`${path}.`)) {
            writeControl(below, getIn(value, splitPath(name.slice(path.length + 1))) ?? null)
          }
        }
      }
    },
    dirtyPaths: () => [...dirty],
    readOnlyPaths: () => controls().flatMap((c) => (c.elements.some(isLocked) ? [c.name] : [])),
    async submit({ signal }): Promise<FormSubmitOutcome> {
      const values = readDomValues(controls())
      const checked = domFormSchema(controls)['~standard'].validate(values) as {
        issues?: Array<{ message: string; path: string[] }>
      }
      if (checked.issues) {
        const issues: ResultIssue[] = checked.issues.map((i) => ({
          path: i.path.join('.'),
          message: i.message,
        }))
        return { ok: false, issues }
      }
      if (options.onSubmit) return { ok: true, data: await options.onSubmit(values, { signal }) }
      let submitted = false
      const seen = () => {
        submitted = true
      }
      form.addEventListener('submit', seen, { once: true })
      form.requestSubmit()
      form.removeEventListener('submit', seen)
      if (submitted) return { ok: true, data: null }
      // The browser's own validation stopped it: say what it says.
      const issues: ResultIssue[] = controls()
        .filter((c) => c.elements.some((e) => !(e as HTMLInputElement).validity?.valid))
        .map((c) => ({
          path: c.name,
          message: (c.elements[0] as HTMLInputElement).validationMessage || 'Invalid value',
        }))
      return {
        ok: false,
        issues: issues.length > 0 ? issues : [{ path: '', message: 'The form was not submitted' }],
      }
    },
    fields: (): FormField[] =>
      controls().map((c) => ({
        path: c.name,
        element: c.elements[0],
        ...(c.label ? { label: c.label } : {}),
      })),
    available: () => form.isConnected,
    subscribe(onChange) {
      // Every value change, the writes' own events included; a reset applies after its event.
      const changed = () => onChange()
      const reset = () => void Promise.resolve().then(onChange)
      form.addEventListener('input', changed, true)
      form.addEventListener('change', changed, true)
      form.addEventListener('reset', reset)
      return () => {
        form.removeEventListener('input', changed, true)
        form.removeEventListener('change', changed, true)
        form.removeEventListener('reset', reset)
      }
    },
  }
}
