import { NODE_ENV_READABLE } from '../../base/nodeEnv'
import type { Problem } from '../../base/problem'

declare const process: { env: Record<string, string | undefined> }

/**
 * The message of a form misconfiguration: the fix in development builds; in production builds the
 * short phrase and its words (the texts below are left out of the bundle).
 */
export function formMessage(problem: Problem): string {
  if (NODE_ENV_READABLE && process.env.NODE_ENV !== 'production') {
    const [detail, a = '', b = ''] = problem
    const text = TEXTS[detail]
    return text ? text(a, b) : detail
  }
  const [detail, ...words] = problem
  return words.length > 0 ? `${detail}: ${words.join(', ')}` : detail
}

const NO_JSON_SCHEMA =
  'has no JSON Schema: use zod ≥ 4.2 (or any schema with Standard JSON Schema), or pass `jsonSchema`'

/** Development texts, by detail: what is wrong and how to fix it. */
const TEXTS: Record<string, (a: string, b: string) => string> = {
  options: () => 'options must be an object { name, description, schema, … }',
  'wizard options': () => 'options must be an object { name, description, steps, onSubmit, … }',
  name: () => 'give the form a `name` (e.g. "ticket")',
  description: () => 'give the form a `description`: tell the model what the form is for',
  'plain lookups': () =>
    "options must come from optionLookups({ field: lookup }) (import { optionLookups } from '@toolmark/core/forms')",
  lookups: () => 'optionLookups() takes an object that maps field paths to lookup functions',
  lookup: (field) => `options["${field}"] must be a function`,
  submitSummary: () => '`submitSummary` must be a function (values) => string',
  onStepChange: () => '`onStepChange` must be a function (stepId) => void',
  adapter: (method) => `the adapter has no ${method}() function`,
  schema: () => '`schema` must be a Standard Schema (the zod schema the form’s resolver uses)',
  sensitive: () => '`sensitive` must be a list of paths (e.g. ["password", "cards[].cvc"])',
  'no JSON Schema': () => `the schema ${NO_JSON_SCHEMA}`,
  'not an object': () => 'the form schema must describe an object of fields',
  'unshown lookup': (field) => `options["${field}"]: no step shows that field`,
  files: () =>
    'fileFields() takes an object that maps field paths to rules { accept?, maxBytes?, multiple?, maxFiles? }',
  'file field': (field) => `files["${field}"]: not a field of the form's schema`,
  'file rules': (field) =>
    `files["${field}"] must be { accept?: string | string[], maxBytes?: number, multiple?: boolean, maxFiles?: number }`,
  'dom form': () => 'pass the <form> element (a ref to it, once mounted)',
  'dom onSubmit': () => '`onSubmit` must be a function (values, { signal }) => result',
  'unshown file': (field) => `files["${field}"]: no step shows that field`,
  // one form split into steps
  'plain files': () =>
    "files must come from fileFields({ field: rules }) (import { fileFields } from '@toolmark/core/forms')",
  'plain steps': () =>
    "steps must come from formSteps([...]) (import { formSteps } from '@toolmark/core/forms')",
  steps: () => 'formSteps() takes a list of { id, title?, fields } (at least one step)',
  'step id': (id) => `step id ${id} is invalid: use letters, digits, "_" or "-"`,
  'step twice': (id) => `two steps have the id "${id}": give each step its own id`,
  'step title': (id) => `step "${id}" has a title that is not a string`,
  'step fields': (id) => `step "${id}" needs \`fields\`: the form paths it shows (e.g. ["email"])`,
  'step field': (id, field) =>
    `step "${id}" lists ${field}, which is not a field of the form's schema`,
  'field twice': (a, b) =>
    `"${a}" and "${b}" are listed twice (or one inside the other): list each field in one step`,
  'unshown fields': (fields) => `no step shows ${fields}: list every field of the form in a step`,
  // a wizard of one form per step
  onSubmit: () => 'give the wizard an `onSubmit(values)`: it gets every step’s values under its id',
  'wizard steps': () =>
    '`steps` must be a list of { id, title?, adapter, schema } (at least one step)',
  'step schema': (id) =>
    `step "${id}" needs a \`schema\`: the Standard Schema its form's resolver uses`,
  'step adapter': (id, method) => `the adapter of step "${id}" has no ${method}() function`,
  'step sensitive': (id) =>
    `step "${id}": \`sensitive\` must be a list of paths (e.g. ["password"])`,
  'step plain lookups': (id) =>
    `step "${id}": options must come from optionLookups({ field: lookup }) (import { optionLookups } from '@toolmark/core/forms')`,
  'step lookups': (id) =>
    `step "${id}": optionLookups() takes an object that maps fields to lookup functions`,
  'step lookup': (id, field) => `step "${id}": options["${field}"] must be a function`,
  'step no JSON Schema': (id) => `the schema of step "${id}" ${NO_JSON_SCHEMA}`,
  'step not an object': (id) => `the schema of step "${id}" must describe an object of fields`,
}
