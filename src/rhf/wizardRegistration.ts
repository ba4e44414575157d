import type { Toolmark } from '@toolmark/core'
import { createWizardTools } from '@toolmark/core/forms'
import type { FormMemory, WizardStep } from '@toolmark/core/forms'
import { latestSchema, sameSchema, sensitiveKey } from '@toolmark/core/observers'
import type { RegistrationRules } from '@toolmark/core/observers'
import type { ScopeSlot } from '../ScopeContext'
import {
  hintsFrom,
  comparableHints,
  declaredLookups,
  latestLookups,
  optionFields,
  plainDeclaration,
  refusePlain,
  warnWithoutResolver,
  withLookups,
  type AnyForm,
} from './registrationParts'
import { createRhfAdapter } from './rhfAdapter'
import type { UseWizardToolOptions } from './wizardToolTypes'

/** Everything `useWizardTool` registers from: the latest of each, pushed after every render. */
export interface WizardDeclaration {
  toolmark: Toolmark
  scope: ScopeSlot | null
  memory: FormMemory
  options: UseWizardToolOptions<any>
  /** Shows a step: the hook's state setter (stable). */
  setStep: (stepId: string) => void
}

/** What agents see of the steps, as one comparable string: inline step lists do not register again. */
const stepsKey = (options: WizardDeclaration['options']): string =>
  JSON.stringify(
    options.steps.map((s) => [
      s.id,
      s.title ?? '',
      sensitiveKey(s.sensitive),
      optionFields(declaredLookups(s.options)),
    ]),
  )

/**
 * Whether the wizard's tools must be registered again: the registry, scope, memory or a step's form
 * changed, or what agents see did (names, texts, hints, steps by value, each schema by its JSON
 * Schema). A re-render with inline steps and schemas registers nothing.
 */
function wizardToolsChanged(registered: WizardDeclaration, next: WizardDeclaration): boolean {
  const a = registered.options
  const b = next.options
  return (
    registered.toolmark !== next.toolmark ||
    registered.scope !== next.scope ||
    registered.memory !== next.memory ||
    a.steps.length !== b.steps.length ||
    a.steps.some(
      (step, k) =>
        step.form.control !== b.steps[k].form.control ||
        !sameSchema(step.schema, b.steps[k].schema, 'input'),
    ) ||
    a.name !== b.name ||
    a.description !== b.description ||
    a.title !== b.title ||
    stepsKey(a) !== stepsKey(b) ||
    comparableHints(a.hints) !== comparableHints(b.hints) ||
    (typeof a.submitSummary === 'function') !== (typeof b.submitSummary === 'function')
  )
}

/** Registers the wizard's tools; every callback reads the latest declaration from the registration. */
function registerWizardTools(
  declaration: WizardDeclaration,
  registration: { readonly current: WizardDeclaration },
): { dispose(): void } {
  const latest = () => registration.current.options
  const { toolmark: tm, scope, memory, options } = declaration
  const { name } = options
  for (const s of options.steps) {
    if (plainDeclaration(undefined, s.options)) {
      return refusePlain(tm, 'useWizardTool', name, 'options', s.id)
    }
  }
  const steps: WizardStep[] = options.steps.map((s, k) => {
    warnWithoutResolver(
      tm,
      s.form as AnyForm,
      `${name}.${s.id}`,
      `[toolmark] useWizardTool("${name}"): the form of step "${s.id}" has no resolver, so ` +
        'a submit does not check it. Pass its schema to useForm({ resolver: zodResolver(schema) }).',
    )
    const lookups = latestLookups(
      optionFields(declaredLookups(s.options)),
      (field) => declaredLookups(latest().steps[k]?.options)?.[field],
      (field) => `${s.id}.${field}`,
    )
    return {
      id: s.id,
      ...(s.title ? { title: s.title } : {}),
      // A step's submit validates it and hands its values back; the wizard submits once.
      adapter: createRhfAdapter(
        () => latest().steps[k].form as AnyForm,
        (values) => values,
      ),
      schema: latestSchema(s.schema, () => latest().steps[k]?.schema),
      sensitive: s.sensitive ? [...s.sensitive] : [],
      ...(s.options ? { options: withLookups(s.options, lookups) } : {}),
    }
  })
  return createWizardTools(tm, {
    name,
    description: options.description,
    title: options.title,
    steps,
    onSubmit: (values) => latest().onSubmit(values),
    submitSummary:
      typeof options.submitSummary === 'function'
        ? (values) => latest().submitSummary!(values)
        : undefined,
    hints: hintsFrom(comparableHints(options.hints)),
    scope: scope ? scope.acquire() : undefined,
    memory,
    // Follows the agent: shows the step a fill leads to, then tells the app.
    onStepChange: (id) => {
      registration.current.setStep(id)
      latest().onStepChange?.(id)
    },
  })
}

/** When and how `useWizardTool` registers its tools. */
export const WIZARD_RULES: RegistrationRules<WizardDeclaration> = {
  changed: wizardToolsChanged,
  register: registerWizardTools,
}
