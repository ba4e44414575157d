/**
 * The small form `<ConfirmDialog>` draws for a question entry (`ctx.ask`), React-free: the fields
 * its JSON Schema describes, the answer a draft makes, and where each issue goes. Core has checked
 * the schema's shape (a string, number, integer or boolean, an enum of those, or a flat object of
 * them), so anything else here is read as a text field rather than trusted.
 */

import type { JsonSchema, ResultIssue } from '@toolmark/core'

type Primitive = string | number | boolean

/** One labelled control of a question's form. */
export interface QuestionField {
  /** The issue path it answers to: the property name, or `''` for a single-value question. */
  path: string
  label: string
  description?: string
  control: 'text' | 'number' | 'checkbox' | 'select'
  /** For `number`: whole numbers only. */
  integer?: boolean
  /** For `select`: the choices, in the schema's order. */
  options?: readonly Primitive[]
  required: boolean
  min?: number
  max?: number
  maxLength?: number
}

/** What the person has entered so far, by field path: text as typed, a box's state, a choice's index. */
export type QuestionDraft = Readonly<Record<string, string | boolean>>

const isPrimitive = (v: unknown): v is Primitive =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Whether the question's answer is an object of fields (else one value). */
export function isObjectQuestion(schema: JsonSchema): boolean {
  return schema.type === 'object' && isRecord(schema.properties)
}

function fieldOf(node: unknown, path: string, label: string, required: boolean): QuestionField {
  const schema = isRecord(node) ? node : {}
  const field: QuestionField = {
    path,
    label: typeof schema.title === 'string' && schema.title !== '' ? schema.title : label,
    control: 'text',
    required,
  }
  if (typeof schema.description === 'string') field.description = schema.description
  const options = Array.isArray(schema.enum)
    ? schema.enum.filter(isPrimitive)
    : isPrimitive(schema.const)
      ? [schema.const]
      : undefined
  if (options && options.length > 0) {
    field.control = 'select'
    field.options = options
  } else if (schema.type === 'boolean') {
    field.control = 'checkbox'
  } else if (schema.type === 'number' || schema.type === 'integer') {
    field.control = 'number'
    if (schema.type === 'integer') field.integer = true
    const min = num(schema.minimum)
    const max = num(schema.maximum)
    if (min !== undefined) field.min = min
    if (max !== undefined) field.max = max
  } else {
    const maxLength = num(schema.maxLength)
    if (maxLength !== undefined) field.maxLength = maxLength
  }
  return field
}

/**
 * The fields of a question's form. A single value gets one field labelled by its `title`, else
 * `answerLabel`; an object gets one per property, labelled by its `title`, else its name.
 */
export function questionFields(schema: JsonSchema, answerLabel: string): QuestionField[] {
  if (!isObjectQuestion(schema)) return [fieldOf(schema, '', answerLabel, true)]
  const properties = schema.properties as Record<string, unknown>
  const required = Array.isArray(schema.required) ? schema.required : []
  return Object.keys(properties).map((name) =>
    fieldOf(properties[name], name, name, required.includes(name)),
  )
}

/** The draft a form starts from: each field's `default` when the schema gives one. */
export function initialDraft(schema: JsonSchema, fields: readonly QuestionField[]): QuestionDraft {
  const draft: Record<string, string | boolean> = {}
  const nodeOf = (path: string): Record<string, unknown> => {
    const node = path === '' ? schema : (schema.properties as Record<string, unknown>)[path]
    return isRecord(node) ? node : {}
  }
  for (const field of fields) {
    const given = nodeOf(field.path).default
    if (field.control === 'checkbox') draft[field.path] = given === true
    else if (field.control === 'select') {
      const at = field.options!.findIndex((o) => o === given)
      draft[field.path] = at >= 0 ? String(at) : ''
    } else draft[field.path] = isPrimitive(given) ? String(given) : ''
  }
  return draft
}

/** One field's value, or `undefined` when it was left empty. */
function valueOf(field: QuestionField, entered: string | boolean | undefined): unknown {
  if (field.control === 'checkbox') return entered === true
  const text = typeof entered === 'string' ? entered : ''
  if (field.control === 'select') return text === '' ? undefined : field.options![Number(text)]
  if (field.control === 'number') {
    if (text.trim() === '') return undefined
    // Not a number: sent as typed, so the schema says what is wrong with it.
    const n = Number(text)
    return Number.isFinite(n) ? n : text
  }
  // An optional text left empty is no answer; a required one is sent as typed (empty too).
  return text === '' && !field.required ? undefined : text
}

/**
 * The answer a draft makes: one value, or an object of the fields filled in (an empty optional
 * field is left out; a checkbox is always `true` or `false`).
 */
export function answerOf(
  schema: JsonSchema,
  fields: readonly QuestionField[],
  draft: QuestionDraft,
): unknown {
  if (!isObjectQuestion(schema)) return valueOf(fields[0], draft[''])
  const answer: Record<string, unknown> = {}
  for (const field of fields) {
    const value = valueOf(field, draft[field.path])
    if (value !== undefined) answer[field.path] = value
  }
  return answer
}

/** Issues by field path; those no field answers to (the whole answer) under `''`. */
export function issuesByField(
  fields: readonly QuestionField[],
  issues: readonly ResultIssue[],
): Map<string, string[]> {
  const byField = new Map<string, string[]>()
  const paths = new Set(fields.map((f) => f.path))
  for (const issue of issues) {
    // `floor.0` (a nested detail) still belongs to `floor`.
    const head = issue.path.split('.')[0]
    const path = paths.has(issue.path) ? issue.path : paths.has(head) ? head : ''
    const list = byField.get(path) ?? []
    list.push(issue.message)
    byField.set(path, list)
  }
  return byField
}
