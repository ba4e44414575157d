import { isAbortSignal, isObject } from '../base/guards'
import { NODE_ENV_READABLE } from '../base/nodeEnv'
import type { Problem } from '../base/problem'
import { compileSensitive } from '../redaction/redact'
import type { JsonSchemaConverter } from '../schema/jsonSchemaConverter'
import { joinName, nameLabel, toLlmName } from '../tool/names'
import { toolClass } from '../tool/policy'
import type { ToolRecord } from '../tool/toolRecord'
import type { RegisterOptions, ToolDefinition, ToolHandle } from '../types'
import type { ScopeTree } from './scopeTree'
import { definitionProblem, hintsOf } from './toolDefinition'

declare const process: { env: Record<string, string | undefined> }

/** What registration needs of its registry. */
export interface RegistrarParts {
  readonly dev: boolean
  readonly converter: JsonSchemaConverter | undefined
  /** The registry's tools by full name: registration is their one writer. */
  readonly tools: Map<string, ToolRecord>
  readonly scopes: ScopeTree
  /** Development throws with the fix; production reports and the tool is not registered. */
  misconfigured(code: string, problem: Problem, tool?: string): void
  /** Something changed: a new revision. */
  changed(): void
}

/** Adds tools to a registry and removes them. */
export interface Registrar {
  register<TInput, TOutput>(
    def: ToolDefinition<TInput, TOutput>,
    registerOptions?: RegisterOptions,
  ): ToolHandle
  disposeTool(record: ToolRecord): void
  /** What holds something of a tool (the undo journal, the call pipeline): let go on removal. */
  readonly holders: { dropTool(record: ToolRecord): void }[]
}

/** A registry's registration: definitions checked, duplicates refused, removal undone once. */
export function createRegistrar(parts: RegistrarParts): Registrar {
  const { dev, converter, tools, scopes, misconfigured, changed } = parts
  const llmNames = new Map<string, ToolRecord>()
  const holders: Registrar['holders'] = []
  /** Development warnings fire once per cause and registry. */
  const warned = new Set<string>()

  function register<TInput, TOutput>(
    def: ToolDefinition<TInput, TOutput>,
    registerOptions?: RegisterOptions,
  ): ToolHandle {
    const ro: RegisterOptions = isObject(registerOptions) ? registerOptions : {}
    const node = ro.scope === undefined ? scopes.root : scopes.nodeOf(ro.scope)
    // Nothing is known of a tool before its definition and scope are: it is reported nameless.
    const unreadable: Problem | undefined =
      registerOptions !== undefined && !isObject(registerOptions)
        ? ['register options']
        : !isObject(def)
          ? ['definition']
          : !node
            ? ['foreign scope', nameLabel(def.name)]
            : undefined
    if (unreadable || !node) {
      misconfigured('invalid_tool', unreadable!)
      return { name: unreadable?.[0] === 'foreign scope' ? unreadable[1] : '', dispose() {} }
    }
    const name = typeof def.name === 'string' ? joinName(node.path, def.name) : ''
    const llmName = toLlmName(name)
    const other = llmNames.get(llmName)
    const problem: Problem | undefined =
      definitionProblem(def, name, converter) ??
      (node.disposed
        ? ['disposed scope', name]
        : tools.has(name)
          ? ['duplicate', name]
          : other
            ? ['duplicate llmName', name, llmName, other.name]
            : undefined)
    if (problem) {
      if (problem[0] === 'duplicate' || problem[0] === 'duplicate llmName') {
        misconfigured('duplicate_tool', problem, name)
      } else misconfigured('invalid_tool', problem, name || undefined)
      return { name, dispose() {} }
    }
    const signal = isAbortSignal(ro.signal) ? ro.signal : undefined
    if (signal?.aborted) return { name, dispose() {} }

    const hints = hintsOf(def)
    const cls = toolClass(hints)
    if (
      NODE_ENV_READABLE &&
      process.env.NODE_ENV !== 'production' &&
      dev &&
      (cls === 'consequential' || cls === 'destructive') &&
      def.summary === undefined &&
      def.confirmation === undefined &&
      !warned.has(name)
    ) {
      warned.add(name)
      console.warn(
        `[toolmark] Tool "${name}" is ${cls} but has no summary: the person approving it sees its title and raw input. Add summary: (input) => 'what will happen'.`,
      )
    }
    const record: ToolRecord = {
      def: def as ToolDefinition<any, any>,
      name,
      llmName,
      scope: node,
      hints,
      cls,
      sensitive: compileSensitive(def.sensitive),
      disposed: false,
    }
    tools.set(name, record)
    llmNames.set(llmName, record)
    node.tools.add(record)
    changed()

    const onAbort = () => disposeTool(record)
    signal?.addEventListener('abort', onAbort, { once: true })
    return {
      name,
      dispose() {
        signal?.removeEventListener('abort', onAbort)
        disposeTool(record)
      },
    }
  }

  function disposeTool(record: ToolRecord) {
    if (record.disposed) return
    record.disposed = true
    tools.delete(record.name)
    llmNames.delete(record.llmName)
    record.scope.tools.delete(record)
    for (const holder of holders) holder.dropTool(record)
    changed()
  }

  return { register, disposeTool, holders }
}
