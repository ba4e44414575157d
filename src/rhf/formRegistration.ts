import type { FieldValues } from 'react-hook-form'
import type { Toolmark } from '@toolmark/core'
import { createFormTools } from '@toolmark/core/forms'
import type { FormMemory } from '@toolmark/core/forms'
import { latestSchema, sameSchema, sensitiveKey } from '@toolmark/core/observers'
import type { RegistrationRules } from '@toolmark/core/observers'
import type { ScopeSlot } from '../ScopeContext'
import {
  hintsFrom,
  comparableHints,
  declaredLookups,
  declaredSteps,
  latestLookups,
  optionFields,
  plainDeclaration,
  refusePlain,
  warnWithoutResolver,
  withLookups,
  type AnyForm,
} from './registrationParts'
import { createRhfAdapter } from './rhfAdapter'
import type { UseFormToolOptions } from './formToolTypes'

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

/** A wizard's steps by value: inline step lists do not register again. */
const stepsOf = (options: FormDeclaration['options']) =>
  JSON.stringify(declaredSteps(options.steps) ?? null)

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
    optionFields(declaredLookups(a.options)).join('\n') !==
      optionFields(declaredLookups(b.options)).join('\n') ||
    comparableHints(a.hints) !== comparableHints(b.hints) ||
    stepsOf(a) !== stepsOf(b) ||
    JSON.stringify(a.files ?? {}) !== JSON.stringify(b.files ?? {}) ||
    (typeof a.submitSummary === 'function') !== (typeof b.submitSummary === 'function')
  )
}

/** Registers the form's tools; every callback reads the latest declaration from the registration. */
function registerRhfFormTools(
  declaration: FormDeclaration,
  registration: { readonly current: FormDeclaration },
): { dispose(): void } {
  const latest = () => registration.current
  const { toolmark: tm, scope, form, memory, options } = declaration
  const { name } = options
  const plain = plainDeclaration(options.steps, options.options, options.files)
  if (plain) return refusePlain(tm, 'useFormTool', name, plain)
  const adapter = createRhfAdapter(
    () => latest().form,
    (values) => latest().options.onSubmit(values),
  )
  warnWithoutResolver(
    tm,
    form,
    name,
    `[toolmark] useFormTool("${name}"): the form has no resolver, so a submit is not checked ` +
      'against the schema. Pass the same schema to useForm({ resolver: zodResolver(schema) }).',
  )
  const lookups = latestLookups(
    optionFields(declaredLookups(options.options)),
    (field) => declaredLookups(latest().options.options)?.[field],
    (field) => field,
  )
  return createFormTools(tm, adapter, {
    name,
    description: options.description,
    title: options.title,
    schema: latestSchema(options.schema, () => latest().options.schema),
    sensitive: options.sensitive ? [...options.sensitive] : [],
    // Frozen by fileFields(): what was compared is what is registered.
    ...(options.files ? { files: options.files } : {}),
    ...(options.options ? { options: withLookups(options.options, lookups) } : {}),
    submitSummary:
      typeof options.submitSummary === 'function'
        ? (values) => latest().options.submitSummary!(values as FieldValues)
        : undefined,
    hints: hintsFrom(comparableHints(options.hints)),
    scope: scope ? scope.acquire() : undefined,
    memory,
    ...(options.steps
      ? {
          // Frozen by formSteps(): what was compared is what is registered.
          steps: options.steps,
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
  register: registerRhfFormTools,
}
