import { joinName } from '../tool/names'
import { reportError } from '../events/reportError'
import { Subscribable } from '../events/subscribable'
import type { ErrorEvent, Scope, ToolDefinition, ToolHandle, ToolResult, Toolmark } from '../types'
import { Registration, type RegistrationRules } from './registration'
import { SENSITIVE_FUNCTION, hintsKey, keyToHints, sensitiveKey } from './registrationKeys'
import { latestSchema, sameJsonSchema, sameSchema } from './stableSchema'
import {
  readToolCalls,
  unwatchToolCalls,
  watchToolCalls,
  type ToolCallSnapshot,
} from './toolCallStore'

/** A scope made on demand: known by its path before it exists, created when a tool registers. */
export interface ScopeSource {
  /** The scope's full path (`''` for the root). */
  readonly path: string
  /** Creates the scope if needed; called only while registering. */
  acquire(): Scope
}

/** What a {@link ToolBinding} registers, and where. */
export interface ToolBindingOptions<TInput = unknown, TOutput = unknown> {
  toolmark: Toolmark
  /** The latest definition: `run`, `check`, `summary`, `confirmation`, `sensitive` functions and schema validation always use it. */
  definition: ToolDefinition<TInput, TOutput>
  /** The scope to register in; the registry's root when absent. */
  scope?: ScopeSource | null
}

/** What a {@link ToolBinding} shows: the same object until something in it changes. */
export interface ToolBindingResult<TInput = unknown, TOutput = unknown> {
  /** The full name agents see (scope path + local name). */
  readonly name: string
  /** `'running'` while any caller's call runs; the last result's status after. */
  readonly status: ToolCallSnapshot['status']
  /** The last result, whoever called. */
  readonly lastResult: ToolResult<TOutput> | undefined
  /** Calls the tool as caller `human`; never throws. The same function for the binding's life. */
  readonly call: (input?: TInput) => Promise<ToolResult<TOutput>>
}

/**
 * A tool declared by a component, bound to a registry. Registered while subscribed, and
 * registered again only when what agents see changes: name, description, title, hints and
 * `sensitive` paths (by value), deadline, `verify` and `grant`, whether `summary`/`confirmation`/`check` exist, the schemas (by
 * their JSON Schema, see {@link sameSchema}), the registry or the scope. Everything else is read
 * from the latest definition when it is used, so re-renders never touch the registry's revision.
 */
export interface ToolBinding<TInput = unknown, TOutput = unknown> {
  /** Pushes the latest options; call from an effect, never during render. */
  setOptions(options: ToolBindingOptions<TInput, TOutput>): void
  /** Registers the tool and watches its calls while any listener is subscribed. */
  subscribe(listener: () => void): () => void
  getSnapshot(): ToolBindingResult<TInput, TOutput>
  /** Idle with no result, whatever the registry holds: what a server renders and hydration expects. */
  getServerSnapshot(): ToolBindingResult<TInput, TOutput>
}

const hasFunction = (value: unknown) => typeof value === 'function'

/** Whether moving from the registered options to `next` needs a new registration. */
export function toolChanged(
  registered: ToolBindingOptions<any, any>,
  next: ToolBindingOptions<any, any>,
) {
  if (registered.toolmark !== next.toolmark || (registered.scope ?? null) !== (next.scope ?? null))
    return true
  const a = registered.definition
  const b = next.definition
  if (a === b) return false
  return (
    a.name !== b.name ||
    a.description !== b.description ||
    a.title !== b.title ||
    a.timeoutMs !== b.timeoutMs ||
    a.verify !== b.verify ||
    a.grant !== b.grant ||
    hintsKey(a.hints) !== hintsKey(b.hints) ||
    sensitiveKey(a.sensitive) !== sensitiveKey(b.sensitive) ||
    hasFunction(a.summary) !== hasFunction(b.summary) ||
    hasFunction(a.confirmation) !== hasFunction(b.confirmation) ||
    hasFunction(a.check) !== hasFunction(b.check) ||
    !sameSchema(a.input, b.input, 'input') ||
    !sameSchema(a.output, b.output, 'output') ||
    !sameJsonSchema(a.inputSchema, b.inputSchema)
  )
}

const fullName = (options: ToolBindingOptions<any, any>) =>
  joinName(options.scope?.path ?? '', options.definition.name)

/** Registers the definition; every callback reads the latest one from the registration. */
function registerTool(
  options: ToolBindingOptions<any, any>,
  registration: Registration<ToolBindingOptions<any, any>>,
): ToolHandle {
  const { toolmark, definition: def, scope } = options
  const sensitive = sensitiveKey(def.sensitive)
  const registered: ToolDefinition<any, any> = {
    name: def.name,
    description: def.description,
    title: def.title,
    input: def.input && latestSchema(def.input, () => registration.current.definition.input),
    output: def.output && latestSchema(def.output, () => registration.current.definition.output),
    inputSchema: def.inputSchema,
    timeoutMs: def.timeoutMs,
    // Safety settings travel as declared: a verified tool stays verified, `grant: false` stays.
    ...(def.verify === undefined ? {} : { verify: def.verify }),
    ...(def.grant === undefined ? {} : { grant: def.grant }),
    hints: keyToHints(hintsKey(def.hints)),
    sensitive:
      sensitive === SENSITIVE_FUNCTION
        ? () => {
            const current = registration.current.definition.sensitive
            return typeof current === 'function' ? current() : (current ?? [])
          }
        : sensitive
          ? (JSON.parse(sensitive) as string[])
          : undefined,
    summary: hasFunction(def.summary)
      ? (value) => registration.current.definition.summary?.(value) ?? def.description
      : undefined,
    confirmation: hasFunction(def.confirmation)
      ? (value) => registration.current.definition.confirmation?.(value) ?? {}
      : undefined,
    check: hasFunction(def.check)
      ? (value, ctx) => registration.current.definition.check?.(value, ctx)
      : undefined,
    run: (value, ctx) => registration.current.definition.run(value, ctx),
  }
  return toolmark.register(registered, scope ? { scope: scope.acquire() } : undefined)
}

const TOOL_RULES: RegistrationRules<ToolBindingOptions<any, any>> = {
  changed: toolChanged,
  register: registerTool,
}

class Binding<TInput, TOutput> extends Subscribable implements ToolBinding<TInput, TOutput> {
  protected readonly label = 'tool binding'
  readonly #registration: Registration<ToolBindingOptions<TInput, TOutput>>
  #name: string
  /** The registry and name watched while subscribed. */
  #watchedIn: Toolmark | undefined
  #watchedName = ''
  #calls: ToolCallSnapshot | undefined
  #result: ToolBindingResult<TInput, TOutput> | undefined
  #idle: ToolBindingResult<TInput, TOutput> | undefined

  constructor(options: ToolBindingOptions<TInput, TOutput>) {
    super()
    this.#registration = new Registration(options, TOOL_RULES)
    this.#name = fullName(options)
  }

  protected report(event: ErrorEvent): void {
    reportError(this.#registration.current.toolmark, event)
  }

  protected override onFirst(): void {
    this.#registration.acquire()
    this.#watch()
  }

  protected override onLast(): void {
    this.#unwatch()
    this.#registration.release()
  }

  #watch() {
    this.#watchedIn = this.#registration.current.toolmark
    this.#watchedName = this.#name
    watchToolCalls(this.#watchedIn, this.#name, this)
  }

  #unwatch() {
    const toolmark = this.#watchedIn
    this.#watchedIn = undefined
    if (toolmark) unwatchToolCalls(toolmark, this.#watchedName, this)
  }

  readonly call = (input?: TInput) =>
    this.#registration.current.toolmark.call(this.#name, input, {
      caller: 'human',
    }) as Promise<ToolResult<TOutput>>

  setOptions(options: ToolBindingOptions<TInput, TOutput>): void {
    const current = this.#registration.current
    // The first effect after mount pushes what the binding was created with.
    if (
      options.definition === current.definition &&
      options.toolmark === current.toolmark &&
      options.scope === current.scope
    ) {
      return
    }
    const before = current.toolmark
    this.#registration.update(options)
    const name = fullName(options)
    if (name === this.#name && options.toolmark === before) return
    this.#name = name
    if (this.#watchedIn) {
      this.#unwatch()
      this.#watch()
    }
    this.notify()
  }

  readonly getSnapshot = (): ToolBindingResult<TInput, TOutput> => {
    const calls = readToolCalls(this.#registration.current.toolmark, this.#name)
    const result = this.#result
    if (result && calls === this.#calls && result.name === this.#name) return result
    this.#calls = calls
    return (this.#result = Object.freeze({
      name: this.#name,
      status: calls.status,
      lastResult: calls.lastResult as ToolResult<TOutput> | undefined,
      call: this.call,
    }))
  }

  readonly getServerSnapshot = (): ToolBindingResult<TInput, TOutput> => {
    if (this.#idle?.name !== this.#name) {
      this.#idle = Object.freeze({
        name: this.#name,
        status: 'idle',
        lastResult: undefined,
        call: this.call,
      })
    }
    return this.#idle
  }
}

/**
 * Binds a tool definition to a registry for a framework hook: `useTool` is this binding plus
 * `useSyncExternalStore`. Nothing is registered until the first subscriber.
 *
 * @example
 * const binding = createToolBinding({ toolmark: tm, definition: greet })
 * const off = binding.subscribe(() => render(binding.getSnapshot())) // registers "greet"
 * binding.setOptions({ toolmark: tm, definition: { ...greet, run: newRun } }) // no new registration
 * off() // unregisters
 */
export function createToolBinding<TInput = unknown, TOutput = unknown>(
  options: ToolBindingOptions<TInput, TOutput>,
): ToolBinding<TInput, TOutput> {
  return new Binding(options)
}
