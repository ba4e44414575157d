import type { FieldValues, UseFormReturn } from 'react-hook-form'
import { reportError, type ToolHints, type Toolmark } from '@toolmark/core'
import type { FormOptionsLookup, FormStep, OptionLookups } from '@toolmark/core/forms'
import { hintsKey, keyToHints } from '@toolmark/core/observers'

// What `useFormTool` and `useWizardTool` both register with: the rules differ, these parts do not.

export type AnyForm = UseFormReturn<FieldValues, any, any>

type Lookups = Readonly<Record<string, FormOptionsLookup>> | undefined

// Bundlers replace `process.env.NODE_ENV` with a string literal, so production builds drop the
// development texts below; declared here so the kit does not depend on Node's types.
declare const process: { env: { NODE_ENV?: string } }

/** The fields that have an options lookup, sorted. */
export const optionFields = (lookups: Lookups): string[] =>
  Object.keys(lookups ?? {})
    .filter((field) => typeof lookups?.[field] === 'function')
    .sort()

const made = (value: unknown, kind: string) =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === kind

/** The steps of `formSteps([...])`; `undefined` without, or for a plain list (refused on register). */
export function declaredSteps(steps: unknown): readonly FormStep[] | undefined {
  const list = made(steps, 'formSteps') ? (steps as { steps: unknown }).steps : undefined
  return Array.isArray(list) ? list : undefined
}

/** The lookups of `optionLookups({...})`; `undefined` without, or for a plain map (refused on register). */
export const declaredLookups = (options: unknown): Lookups =>
  made(options, 'optionLookups') ? (options as OptionLookups).lookups : undefined

/** A declaration a hook refuses when it is plain: `formSteps`, `optionLookups`, `fileFields`. */
export type PlainDeclaration = 'steps' | 'options' | 'files'

/**
 * Which of a hook's `steps`, `options` and `files` (or a wizard step's `options`) is a plain list
 * or map where `formSteps([...])`, `optionLookups({...})` or `fileFields({...})` belongs;
 * `undefined` when none.
 */
export function plainDeclaration(
  steps: unknown,
  options: unknown,
  files?: unknown,
): PlainDeclaration | undefined {
  if (steps !== undefined && !made(steps, 'formSteps')) return 'steps'
  if (options !== undefined && !made(options, 'optionLookups')) return 'options'
  if (files !== undefined && !made(files, 'fileFields')) return 'files'
  return undefined
}

/**
 * Refuses a plain `steps`, `options` or `files` (see `plainDeclaration`): development throws with
 * the fix; production reports `invalid_form` with the short phrase core's forms use and registers
 * nothing.
 */
export function refusePlain(
  tm: Toolmark,
  api: string,
  name: string,
  what: PlainDeclaration,
  step?: string,
): { dispose(): void } {
  const at = step === undefined ? '' : `step "${step}": `
  let problem: string
  if (process.env.NODE_ENV === 'production') {
    problem =
      what === 'steps'
        ? 'plain steps'
        : what === 'files'
          ? 'plain files'
          : at
            ? `step plain lookups: ${step}`
            : 'plain lookups'
  } else {
    const from = (helper: string) => `(import { ${helper} } from '@toolmark/core/forms')`
    problem =
      what === 'steps'
        ? `steps must come from formSteps([...]) ${from('formSteps')}`
        : what === 'files'
          ? `files must come from fileFields({...}) ${from('fileFields')}`
          : `${at}options must come from optionLookups({ field: lookup }) ${from('optionLookups')}`
  }
  const message = `${api}("${name}"): ${problem}`
  if (tm.dev) throw new Error(`[toolmark] ${message}`)
  reportError(tm, { code: 'invalid_form', message })
  return { dispose() {} }
}

/**
 * The same lookup code as `declared` (carried under a symbol the spread copies) with other
 * lookups: the hooks hand core functions that call the latest declaration's.
 */
export const withLookups = (
  declared: OptionLookups,
  lookups: Readonly<Record<string, FormOptionsLookup>>,
): OptionLookups => Object.freeze({ ...declared, lookups: Object.freeze({ ...lookups }) })

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
