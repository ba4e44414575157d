import type { JsonSchema } from '../../types'
import type { FileFieldRules } from '../values/fileValues'

/** What kind of value a named control (or a group of them) holds. */
export type DomControlKind = 'text' | 'number' | 'boolean' | 'choice' | 'choices' | 'file'

/** One field of a plain HTML form: the controls that share a name, read as one value. */
export interface DomControl {
  /** The control's `name`: a dot path (`address.city`). */
  readonly name: string
  readonly kind: DomControlKind
  /** The elements: one, or every radio / checkbox of a group. */
  readonly elements: readonly HTMLElement[]
  /** The field's JSON Schema (types, limits, labelled choices). */
  readonly schema: JsonSchema
  readonly required: boolean
  readonly label: string | undefined
  /** Allowed values of a choice (a select's options, a group's radios or checkboxes). */
  readonly choices: readonly string[]
  /** For a file input: the rules its attributes set (`accept`, `multiple`, `data-max-bytes`). */
  readonly fileRules?: FileFieldRules
}

/** Input types that are not fields of the form's data. */
const SKIPPED_TYPES = new Set(['hidden', 'submit', 'button', 'reset', 'image'])
/** A name core can use as a dot path: segments of letters, digits, `_`, `-` or `$`. */
const PATH_NAME = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor'])

const text = (node: Element | null | undefined): string | undefined => {
  if (!node) return undefined
  const copy = node.cloneNode(true) as Element
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"], input, select, textarea')) {
    hidden.remove()
  }
  return copy.textContent?.replace(/\s+/g, ' ').trim() || undefined
}

/** The name a person reads for an element: aria-label, aria-labelledby, its label, a title. */
function ownLabel(element: HTMLElement): string | undefined {
  const aria = element.getAttribute('aria-label')
  if (aria) return aria
  const by = element.getAttribute('aria-labelledby')
  if (by) {
    const joined = by
      .split(/\s+/)
      .map((id) => text(element.ownerDocument.getElementById(id)))
      .filter(Boolean)
      .join(' ')
    if (joined) return joined
  }
  const labels = (element as HTMLInputElement).labels
  if (labels && labels.length > 0) return text(labels[0])
  return element.getAttribute('title') || element.getAttribute('placeholder') || undefined
}

/** The name of a group of radios or checkboxes: its fieldset's legend or group label. */
function groupLabel(element: HTMLElement): string | undefined {
  const group = element.closest('fieldset, [role="radiogroup"], [role="group"]')
  if (!group) return undefined
  const aria = group.getAttribute('aria-label')
  if (aria) return aria
  const legend = group.tagName === 'FIELDSET' ? group.querySelector(':scope > legend') : null
  return text(legend)
}

const numberAttr = (element: Element, name: string): number | undefined => {
  const raw = element.getAttribute(name)
  if (raw === null || raw.trim() === '') return undefined
  const value = Number(raw)
  return Number.isFinite(value) ? value : undefined
}

/** A choice as JSON Schema: its values, each with the label a person reads. */
function choiceSchema(values: readonly string[], titles: readonly (string | undefined)[]) {
  return {
    oneOf: values.map((value, i) =>
      titles[i] && titles[i] !== value ? { const: value, title: titles[i] } : { const: value },
    ),
  }
}

const TEXT_FORMATS: Record<string, string> = {
  email: 'email',
  url: 'uri',
  date: 'date',
  time: 'time',
  'datetime-local': 'date-time',
}
const TEXT_HINTS: Record<string, string> = {
  'datetime-local': 'YYYY-MM-DDTHH:MM',
  month: 'YYYY-MM',
  week: 'YYYY-Www',
  color: '#rrggbb',
}

/** The JSON Schema of one text-like or number control, from its type and constraints. */
function valueSchema(element: HTMLElement, type: string, label: string | undefined): JsonSchema {
  const schema: JsonSchema = {}
  if (label) schema.title = label
  if (type === 'number' || type === 'range') {
    const step = element.getAttribute('step')
    const min = numberAttr(element, 'min')
    const integral =
      step !== 'any' &&
      Number.isInteger(step === null ? 1 : Number(step)) &&
      (min === undefined || Number.isInteger(min))
    schema.type = integral ? 'integer' : 'number'
    if (min !== undefined) schema.minimum = min
    const max = numberAttr(element, 'max')
    if (max !== undefined) schema.maximum = max
    return schema
  }
  schema.type = 'string'
  if (TEXT_FORMATS[type]) schema.format = TEXT_FORMATS[type]
  const hints = [TEXT_HINTS[type]]
  const min = element.getAttribute('min')
  const max = element.getAttribute('max')
  if (min) hints.push(`from ${min}`)
  if (max) hints.push(`to ${max}`)
  const description = hints.filter(Boolean).join(', ')
  if (description) schema.description = description
  const minLength = numberAttr(element, 'minlength')
  if (minLength !== undefined) schema.minLength = minLength
  const maxLength = numberAttr(element, 'maxlength')
  if (maxLength !== undefined && maxLength >= 0) schema.maxLength = maxLength
  const pattern = element.getAttribute('pattern')
  if (pattern) schema.pattern = `^(?:${pattern})$`
  return schema
}

/** Whether an element is left out of the form's fields. */
function isLeftOut(element: HTMLElement): boolean {
  if (element.closest('[data-tool-ignore]')) return true
  if (element.matches(':disabled')) return true
  const tag = element.tagName
  if (tag === 'INPUT') {
    return SKIPPED_TYPES.has((element as HTMLInputElement).type)
  }
  return tag !== 'SELECT' && tag !== 'TEXTAREA'
}

/**
 * The fields of a plain HTML form, read from its controls: named inputs, selects and textareas
 * that are not hidden, disabled, buttons or inside `data-tool-ignore`; controls sharing a name
 * form one field (a radio group, a checkbox group). Names that are not dot paths are skipped
 * and reported through `skipped`.
 */
export function readDomControls(form: HTMLFormElement): {
  controls: DomControl[]
  skipped: string[]
} {
  const groups = new Map<string, HTMLElement[]>()
  const skipped: string[] = []
  for (const element of Array.from(form.elements) as HTMLElement[]) {
    const name = element.getAttribute('name')
    if (!name || isLeftOut(element)) continue
    if (!PATH_NAME.test(name) || name.split('.').some((s) => FORBIDDEN.has(s))) {
      if (!skipped.includes(name)) skipped.push(name)
      continue
    }
    const list = groups.get(name) ?? []
    list.push(element)
    groups.set(name, list)
  }
  const controls: DomControl[] = []
  const taken: string[] = []
  for (const [name, elements] of groups) {
    // `a` and `a.b` cannot both be fields: the first one named wins.
    if (taken.some((t) => name.startsWith(`${t}.`) || t.startsWith(`${name}.`))) {
      skipped.push(name)
      continue
    }
    taken.push(name)
    controls.push(controlOf(name, elements))
  }
  return { controls, skipped }
}

function controlOf(name: string, elements: HTMLElement[]): DomControl {
  const first = elements[0]
  const required = elements.some((e) => (e as HTMLInputElement).required)
  const base = { name, elements, required }
  if (first.tagName === 'SELECT') {
    const select = first as HTMLSelectElement
    const options = Array.from(select.options).filter((o) => !o.disabled)
    // A placeholder option (value "") is "no choice", not a choice.
    const real = options.filter((o) => o.value !== '')
    const values = real.map((o) => o.value)
    const titles = real.map((o) => o.text.trim() || undefined)
    const label = ownLabel(select)
    const one = choiceSchema(values, titles)
    const schema: JsonSchema = select.multiple
      ? { type: 'array', items: one, uniqueItems: true }
      : { ...one }
    if (label) schema.title = label
    return {
      ...base,
      kind: select.multiple ? 'choices' : 'choice',
      schema,
      label,
      choices: values,
    }
  }
  if (first.tagName === 'TEXTAREA') {
    const label = ownLabel(first)
    return { ...base, kind: 'text', schema: valueSchema(first, 'text', label), label, choices: [] }
  }
  const type = (first as HTMLInputElement).type
  if (type === 'radio' || (type === 'checkbox' && elements.length > 1)) {
    const inputs = elements.filter((e) => (e as HTMLInputElement).type === type)
    const values = inputs.map((e) => (e as HTMLInputElement).value)
    const titles = inputs.map((e) => ownLabel(e))
    const label = groupLabel(first) ?? (type === 'checkbox' ? undefined : undefined)
    const one = choiceSchema(values, titles)
    const schema: JsonSchema =
      type === 'radio' ? { ...one } : { type: 'array', items: one, uniqueItems: true }
    if (label) schema.title = label
    return {
      ...base,
      elements: inputs,
      kind: type === 'radio' ? 'choice' : 'choices',
      schema,
      label,
      choices: values,
    }
  }
  const label = ownLabel(first)
  if (type === 'checkbox') {
    const schema: JsonSchema = { type: 'boolean' }
    if (label) schema.title = label
    return { ...base, kind: 'boolean', schema, label, choices: [] }
  }
  if (type === 'file') {
    const input = first as HTMLInputElement
    const maxBytes = numberAttr(input, 'data-max-bytes')
    const accept = input.getAttribute('accept')
    const fileRules: FileFieldRules = {
      ...(accept ? { accept } : {}),
      ...(input.multiple ? { multiple: true } : {}),
      ...(maxBytes !== undefined && maxBytes > 0 ? { maxBytes } : {}),
    }
    const schema: JsonSchema = label ? { title: label } : {}
    return { ...base, kind: 'file', schema, label, choices: [], fileRules }
  }
  const kind = type === 'number' || type === 'range' ? 'number' : 'text'
  return { ...base, kind, schema: valueSchema(first, type, label), label, choices: [] }
}

/** The JSON Schema of a form's fields: an object, nested along dotted names. */
export function domFormJsonSchema(controls: readonly DomControl[]): JsonSchema {
  const root: JsonSchema = { type: 'object', properties: {}, additionalProperties: false }
  for (const control of controls) {
    const segments = control.name.split('.')
    let node = root
    for (const segment of segments.slice(0, -1)) {
      const properties = node.properties as Record<string, JsonSchema>
      properties[segment] ??= { type: 'object', properties: {}, additionalProperties: false }
      node = properties[segment]
    }
    const last = segments[segments.length - 1]
    ;(node.properties as Record<string, JsonSchema>)[last] = control.schema
    if (control.required) {
      node.required = [...((node.required as string[] | undefined) ?? []), last]
    }
  }
  return root
}
