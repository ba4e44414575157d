import type { FieldValues, UseFormReturn } from 'react-hook-form'
import type { ToolHints, Toolmark } from '@toolmark/core'
import type { FormOptionsLookup } from '@toolmark/core/forms'
import { hintsKey, keyToHints } from '@toolmark/core/observers'

// What `useFormTool` and `useWizardTool` both register with: the rules differ, these parts do not.

export type AnyForm = UseFormReturn<FieldValues, any, any>

type Lookups = Readonly<Record<string, FormOptionsLookup>> | undefined

// Bundlers replace `process.env.NODE_ENV` with a string literal, so production builds drop the
// development warning below; declared here so the kit does not depend on Node's types.
declare const process: { env: { NODE_ENV?: string } }

/** The fields that have an options lookup, sorted. */
export const optionFields = (lookups: Lookups): string[] =>
  Object.keys(lookups ?? {})
    .filter((field) => typeof lookups?.[field] === 'function')
    .sort()

/**
 * One lookup per field that calls the latest declaration's function for it (`latest(field)`), so
 * a new function on a re-render is used without registering again.
 */
export function latestLookups(
  fields: readonly string[],
  latest: (field: string) => FormOptionsLookup | undefined,
  label: (field: string) => string,
): Record<string, FormOptionsLookup> {
  const lookups: Record<string, FormOptionsLookup> = {}
  for (const field of fields) {
    lookups[field] = (args) => {
      const lookup = latest(field)
      if (!lookup) throw new Error(`The options of "${label(field)}" are gone`)
      return lookup(args)
    }
  }
  return lookups
}

/** Hints as a comparable key: `undefined` (the default: consequential) differs from `{}` (none). */
export const comparableHints = (hints: ToolHints | undefined): string | undefined =>
  hints === undefined ? undefined : hintsKey(hints)

/** The hints a key stands for (`{}` for the empty key), or `undefined` for the default. */
export const hintsFrom = (key: string | undefined): ToolHints | undefined =>
  key === undefined ? undefined : (keyToHints(key) ?? {})

const warned = new Set<string>()

/** Development only, once per `key`: a form without a resolver is not checked on submit. */
export function warnWithoutResolver(tm: Toolmark, form: AnyForm, key: string, message: string) {
  if (process.env.NODE_ENV === 'production' || !tm.dev || form.control._options.resolver) return
  if (warned.has(key)) return
  warned.add(key)
  console.warn(message)
}
