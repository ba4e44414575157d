import type { FieldValues, UseFormReturn } from 'react-hook-form'
import type { Toolmark } from '@toolmark/core'
import { createFormTools } from '@toolmark/core/forms'
import type { FormMemory, FormOptionsLookup, FormStep } from '@toolmark/core/forms'
import {
  hintsKey,
  keyToHints,
  latestSchema,
  sameSchema,
  sensitiveKey,
} from '@toolmark/core/observers'
import type { RegistrationRules } from '@toolmark/core/observers'
import type { ScopeSlot } from '../ScopeContext'
import { createRhfAdapter } from './rhfAdapter'
import type { UseFormToolOptions } from './useFormTool'

type AnyForm = UseFormReturn<FieldValues, any, any>

// Bundlers replace `process.env.NODE_ENV` with a string literal, so production builds drop the
// development warning below; declared here so the kit does not depend on Node's types.
declare const process: { env: { NODE_ENV?: string } }

/** Everything `useFormTool` registers from: the latest of each, pushed after every render. */
export interface FormDeclaration {
  toolmark: Toolmark
  scope: ScopeSlot | null
  form: AnyForm
  memory: FormMemory
  options: UseFormToolOptions<FieldValues, any>
  /** Shows a wizard's step: the hook's state setter (stable). */
  setStep: (stepId: string) => void
}

/** The fields that have an options lookup, as one comparable string. */
const optionFields = (options: FormDeclaration['options']) =>
  Object.keys(options.options ?? {})
    .filter((field) => typeof options.options?.[field] === 'function')
    .sort()
    .join('\n')

/** A wizard's steps by value: inline step lists do not register again. */
const stepsOf = (options: FormDeclaration['options']) =>
  options.steps ? JSON.stringify(options.steps) : ''

/** `undefined` hints (the default: consequential) differ from `{}` (no confirmation). */
const hintsOf = (options: FormDeclaration['options']) =>
  options.hints === undefined ? undefined : hintsKey(options.hints)

/**
 * Whether the form's tools must be registered again: what agents see changed (names, texts,
 * hints, sensitive paths, option fields and wizard steps by value, the schema by its JSON Schema), or the
 * registry, scope or form did. A re-render with inline options registers nothing.
 */
function formToolsChanged(registered: FormDeclaration, next: FormDeclaration): boolean {
  if (
    registered.toolmark !== next.toolmark ||
    registered.scope !== next.scope ||
    registered.form.control !== next.form.control ||
    registered.memory !== next.memory
  ) {
    return true
  }
  const a = registered.options
  const b = next.options
  return (
    a.name !== b.name ||
    a.description !== b.description ||
    a.title !== b.title ||
    !sameSchema(a.schema, b.schema, 'input') ||
    sensitiveKey(a.sensitive) !== sensitiveKey(b.sensitive) ||
    optionFields(a) !== optionFields(b) ||
    hintsOf(a) !== hintsOf(b) ||
    stepsOf(a) !== stepsOf(b) ||
    (typeof a.submitSummary === 'function') !== (typeof b.submitSummary === 'function')
  )
}

const warned = new Set<string>()

/** Registers the form's tools; every callback reads the latest declaration from the registration. */
function registerFormTools(
  declaration: FormDeclaration,
  registration: { readonly current: FormDeclaration },
): { dispose(): void } {
  const latest = () => registration.current
  const { toolmark: tm, scope, form, memory, options } = declaration
  const { name } = options
  const adapter = createRhfAdapter(
    () => latest().form,
    (values) => latest().options.onSubmit(values),
  )
  if (process.env.NODE_ENV !== 'production' && tm.dev && !form.control._options.resolver) {
    if (!warned.has(name)) {
      warned.add(name)
      console.warn(
        `[toolmark] useFormTool("${name}"): the form has no resolver, so a submit is not checked ` +
          'against the schema. Pass the same schema to useForm({ resolver: zodResolver(schema) }).',
      )
    }
  }
  const lookups: Record<string, FormOptionsLookup> = {}
  for (const field of optionFields(options).split('\n').filter(Boolean)) {
    lookups[field] = (args) => {
      const lookup = latest().options.options?.[field]
      if (!lookup) throw new Error(`The options of "${field}" are gone`)
      return lookup(args)
    }
  }
  const hints = hintsOf(options)
  return createFormTools(tm, adapter, {
    name,
    description: options.description,
    title: options.title,
    schema: latestSchema(options.schema, () => latest().options.schema),
    sensitive: options.sensitive ? [...options.sensitive] : [],
    options: lookups,
    submitSummary:
      typeof options.submitSummary === 'function'
        ? (values) => latest().options.submitSummary!(values as FieldValues)
        : undefined,
    hints: hints === undefined ? undefined : (keyToHints(hints) ?? {}),
    scope: scope ? scope.acquire() : undefined,
    memory,
    ...(options.steps
      ? {
          steps: JSON.parse(stepsOf(options)) as FormStep[],
          // Follows the agent: shows the step a fill leads to, then tells the app.
          onStepChange: (id: string) => {
            latest().setStep(id)
            latest().options.onStepChange?.(id)
          },
        }
      : {}),
  })
}

/** When and how `useFormTool` registers its form's tools. */
export const FORM_RULES: RegistrationRules<FormDeclaration> = {
  changed: formToolsChanged,
  register: registerFormTools,
}
