import { FORM_CODE } from '../values/formCode'
import { createOptionsTool } from './optionsTool'
import { isPlainObject } from '../values/paths'
import type { FormOptionsLookup, OptionLookups } from '../values/types'

/** The code `optionLookups()` brings, under `FORM_CODE`: the `<form>.options` tool. */
export interface OptionLookupsCode {
  readonly kind: 'optionLookups'
  readonly createTool: typeof createOptionsTool
}

const LOOKUPS_CODE: OptionLookupsCode = { kind: 'optionLookups', createTool: createOptionsTool }

/**
 * Fields whose allowed values agents can look up with `<name>.options`, by field path: each lookup
 * gets `{ query, signal }` and returns `[{ value, title }]`. Pass the result as the `options` of
 * `createFormTools`, `useFormTool` or a wizard step; it brings the lookup code, so a form without
 * lookups does not bundle it. The map is copied and frozen.
 *
 * @example
 * const tools = createFormTools(tm, adapter, {
 *   name: 'ticket',
 *   description: 'The new-ticket form',
 *   schema: ticketSchema,
 *   options: optionLookups({
 *     assignee: ({ query, signal }) => searchPeople(query, { signal }), // [{ value: 'u1', title: 'Ana' }]
 *   }),
 * })
 * await tm.call('ticket.options', { field: 'assignee', query: 'an' })
 */
export function optionLookups(lookups: Readonly<Record<string, FormOptionsLookup>>): OptionLookups {
  // Anything but a map is kept as it is, for the form's checks to name.
  const copy = isPlainObject(lookups) ? Object.freeze({ ...lookups }) : lookups
  return Object.freeze({ kind: 'optionLookups', lookups: copy, [FORM_CODE]: LOOKUPS_CODE })
}
