import { reportError } from '../../events/reportError'
import type {
  JsonSchema,
  ResultIssue,
  StandardSchemaV1,
  ToolDefinition,
  ToolHandle,
  Toolmark,
} from '../../types'
import { anchorFormTools } from './formAnchors'
import { createFillTool } from './fillTool'
import type { FileFieldsCode } from '../files/fileFields'
import type { FileFieldRules } from '../values/fileValues'
import { fieldChange, type FormContext } from './formContext'
import { createEditTracker, createFormMemory } from './formMemory'
import { internalProvenance } from './formProvenance'
import { redactChanges } from '../../redaction/redact'
import type { OptionLookupsCode } from './optionLookups'
import { compileFormSchema, fillInputSchema } from '../values/formSchema'
import { isAtOrBelow } from '../values/paths'
import { createFormSecrets, readFormFields } from './sensitiveFields'
import { createStateTool } from './stateTool'
import { createSubmitTool } from './submitTool'
import type {
  FormAdapter,
  FormOptionsLookup,
  FormTools,
  FormToolsBaseOptions,
} from '../values/types'

/** A form as its tools see it: for a wizard, keyed by step id. */
export interface FormSource {
  readonly adapter: FormAdapter<unknown>
  readonly schema: StandardSchemaV1
  readonly jsonSchema: JsonSchema
  readonly steps?: ReadonlyArray<{ readonly id: string; readonly title?: string }>
  /** Sensitive patterns, at the tools' paths. */
  readonly sensitive: readonly string[]
  /** Option lookups, by the tools' paths, with the code `optionLookups()` brought to serve them. */
  readonly options?: {
    readonly lookups: Readonly<Record<string, FormOptionsLookup>>
    readonly code: OptionLookupsCode
  }
  /** Rules of the file fields, by the tools' paths, with the code `fileFields()` brought. */
  readonly files?: {
    readonly rules: ReadonlyMap<string, FileFieldRules>
    readonly code: FileFieldsCode
  }
  /** What `submitSummary` is given. */
  summaryValues(): unknown
}

/** A sentence: ends with a full stop unless it already ends with punctuation. */
const sentence = (text: string) => {
  const trimmed = text.trim()
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`
}

/**
 * After a wizard's fill or undo, shows the first step with an issue (else the last step) through
 * the app's `onStepChange`; a callback that throws is reported, and what the form did stands.
 */
function followIssues(
  tm: Toolmark,
  name: string,
  steps: FormSource['steps'],
  onStepChange: FormToolsBaseOptions<any>['onStepChange'],
  issues: readonly ResultIssue[],
) {
  if (!steps || typeof onStepChange !== 'function') return
  const first = steps.find((step) => issues.some((i) => isAtOrBelow(i.path, step.id)))
  try {
    onStepChange((first ?? steps[steps.length - 1]).id)
  } catch (cause) {
    // What the form did stands; the app's callback failing is the app's to hear about.
    reportError(tm, {
      code: 'listener_threw',
      message: `onStepChange of form "${name}" threw`,
      cause,
    })
  }
}

/** Registers every tool into `handles`, all or none: one that throws disposes the others. */
function registerAll(
  tm: Toolmark,
  defs: Record<string, ToolDefinition<any, any>>,
  handles: Partial<Record<string, ToolHandle>>,
  scope: FormToolsBaseOptions<any>['scope'],
) {
  try {
    for (const [key, def] of Object.entries(defs)) {
      handles[key] = tm.register(def, scope ? { scope } : undefined)
    }
  } catch (error) {
    for (const handle of Object.values(handles)) handle?.dispose()
    throw error
  }
}

/** Registers the tools of a form (or a wizard) whose options were checked already. */
export function registerFormTools(
  tm: Toolmark,
  source: FormSource,
  options: FormToolsBaseOptions<any>,
): FormTools {
  const { name, title } = options
  const { adapter, steps, files } = source
  const root = compileFormSchema(source.jsonSchema)
  const memory = options.memory ?? createFormMemory()
  const readFields = () => readFormFields(tm, name, () => adapter.fields())
  const secrets = createFormSecrets({ tm, declared: source.sensitive, memory, root, readFields })
  const handles: Partial<Record<string, ToolHandle>> = {}

  const form: FormContext = {
    tm,
    name,
    title,
    adapter,
    schema: source.schema,
    jsonSchema: source.jsonSchema,
    root,
    edits: createEditTracker(memory, adapter),
    provenance: internalProvenance(memory),
    secrets,
    steps,
    files: files?.rules ?? new Map(),
    fileCode: files?.code,
    handles,
    readFields,
    followIssues: (issues) => followIssues(tm, name, steps, options.onStepChange, issues),
  }

  const fill = createFillTool(form)
  const submit = createSubmitTool(form, () =>
    options.submitSummary
      ? options.submitSummary(source.summaryValues())
      : `Submit ${title || name}`,
  )
  const lookups = Object.fromEntries(
    Object.entries(source.options?.lookups ?? {}).filter(([, fn]) => typeof fn === 'function'),
  )
  const optionsTool =
    source.options && Object.keys(lookups).length > 0
      ? source.options.code.createTool(form, lookups)
      : undefined

  // Inputs are shaped by callers: their secrets are masked wherever a key puts them.
  const anywhere = () => {
    secrets.scan()
    return secrets.anywhere()
  }
  const intro = sentence(options.description)
  const whatValuesAre = steps
    ? 'All steps at once, all or nothing. Partial; null clears.'
    : 'Partial; null clears.'
  const arrays = fill.hasArrays
    ? ' Lists take a new list, {"$append":[...]} or {"$remove":[index]}.'
    : ''
  const defs: Record<string, ToolDefinition<any, any>> = {
    fill: {
      name: `${name}.fill`,
      description: `${intro} ${whatValuesAre}${arrays} Keeps user edits unless \`overwrite\`.`,
      hints: { untrustedContent: true },
      input: fill.schema,
      inputSchema: fillInputSchema(source.jsonSchema, {
        arrays: fill.hasArrays,
        ...(files && files.rules.size > 0
          ? {
              files: (values) =>
                files.code.inputSchema(values, files.rules, files.code.means(tm.files)),
            }
          : {}),
      }),
      sensitive: anywhere,
      run: fill.fill,
    },
    submit: {
      name: `${name}.submit`,
      description: `${intro} Submits ${steps ? 'every step' : 'the form'}.`,
      ...(title ? { title } : {}),
      hints: options.hints ?? { consequential: true },
      sensitive: () => secrets.shown(),
      confirmation: submit.confirmation,
      run: submit.submit,
    },
    state: {
      name: `${name}.state`,
      description: `${intro} Values${steps ? ', step completeness' : ''}, issues, user edits.`,
      hints: { readOnly: true, untrustedContent: true },
      sensitive: anywhere,
      run: createStateTool(form),
    },
  }
  if (optionsTool) {
    defs.options = {
      name: `${name}.options`,
      description: `${intro} Allowed values of \`field\` matching \`query\`; fill with a \`value\`.`,
      hints: { readOnly: true, untrustedContent: true },
      input: optionsTool.input,
      inputSchema: optionsTool.inputSchema,
      sensitive: anywhere,
      run: optionsTool.run,
    }
  }

  registerAll(tm, defs, handles, options.scope)
  const names = { fill: handles.fill!.name, submit: handles.submit!.name }
  const unanchor = anchorFormTools(tm, names, adapter, source.schema)
  const detach = form.provenance.attach({
    tm,
    adapter,
    edits: form.edits,
    change(path, before, after) {
      secrets.scan()
      const change = fieldChange(path, before, after)
      return secrets.scanned.empty ? change : redactChanges([change], secrets.scanned)[0]
    },
  })
  return {
    names: {
      ...names,
      state: handles.state!.name,
      ...(handles.options ? { options: handles.options.name } : {}),
    },
    editedPaths: () => form.edits.editedPaths(),
    isSensitive(path) {
      return secrets.paths.matches(path)
    },
    provenance: form.provenance,
    dispose() {
      detach()
      unanchor()
      for (const handle of Object.values(handles)) handle?.dispose()
    },
  }
}
