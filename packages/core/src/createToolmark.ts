import { createCallPipeline } from './callPipeline'
import { createConfirmationStore } from './confirmationStore'
import { createEmitter } from './emitter'
import { isAbortSignal, isObject, own } from './guards'
import { randomId } from './ids'
import { createManifests } from './manifest'
import { isSegment, joinName, nameLabel, toLlmName } from './names'
import {
  compilePolicy,
  createRateLimiter,
  needsConfirmation,
  toolClass,
  type CompiledCallerPolicy,
} from './policy'
import { compileSensitive } from './redact'
import { normalizeResult, type ResultProblem } from './results'
import { attachReporter } from './reportError'
import { createScopeQueue } from './scopeQueue'
import { createSubscribable } from './subscribable'
import { definitionProblem, hintsOf } from './toolDefinition'
import type { Access, RegistryInternals, ResultSource, ScopeNode, ToolRecord } from './toolRecord'
import type {
  Caller,
  CancelledBy,
  ConfirmMode,
  ErrorEvent,
  Limits,
  Policy,
  RegisterOptions,
  Scope,
  ScopeOptions,
  ToolDefinition,
  ToolHandle,
  Toolmark,
  ToolmarkOptions,
} from './types'
import { createUndoJournal } from './undoJournal'

/** Every limit's default (DESIGN §3.9). */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  queuePerScope: 32,
  pendingConfirmations: 100,
  undoJournal: 100,
  confirmationExpiryMs: 600_000,
  abortGraceMs: 5_000,
  callTimeoutMs: 120_000,
  messageBytes: 1_048_576,
  messageDepth: 64,
  fillNodes: 10_000,
  optionsTimeoutMs: 10_000,
  optionsItems: 50,
  signatureBudget: 240,
})

const OPTION_KEYS = ['dev', 'policy', 'confirm', 'limits', 'jsonSchema']

// Bundlers replace `process.env.NODE_ENV`; where nothing does, the lookup throws and dev wins.
declare const process: { env: Record<string, string | undefined> }

function defaultDev(): boolean {
  let env: string | undefined
  try {
    env = process.env.NODE_ENV
  } catch {
    env = undefined
  }
  return env !== 'production'
}

export { reportError } from './reportError'

/** What is wrong with `createToolmark`'s options (policy apart), each with its fix. */
function optionProblems(options: unknown): string[] {
  if (options === undefined) return []
  if (!isObject(options)) return ['createToolmark() takes an options object']
  const problems: string[] = []
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      problems.push(
        `createToolmark() got an unknown option "${key}": use ${OPTION_KEYS.join(', ')}`,
      )
    }
  }
  const dev = own(options, 'dev')
  const jsonSchema = own(options, 'jsonSchema')
  if (dev !== undefined && typeof dev !== 'boolean') {
    problems.push('createToolmark({ dev }) takes a boolean')
  }
  if (jsonSchema !== undefined && typeof jsonSchema !== 'function') {
    problems.push('createToolmark({ jsonSchema }) takes a function (schema) => JSON Schema')
  }
  const confirm = own(options, 'confirm')
  if (confirm !== undefined) {
    if (!isObject(confirm)) problems.push('createToolmark({ confirm }) takes { inapp?, test? }')
    else {
      for (const [key, mode] of Object.entries(confirm)) {
        if ((key !== 'inapp' && key !== 'test') || (mode !== 'deferred' && mode !== 'inline')) {
          problems.push(
            `confirm.${key} cannot be ${JSON.stringify(mode)}: only inapp and test are configurable, as "deferred" or "inline" (webmcp and mcp are always inline)`,
          )
        }
      }
    }
  }
  const limits = own(options, 'limits')
  if (limits !== undefined) {
    if (!isObject(limits)) problems.push('createToolmark({ limits }) takes an object')
    else {
      for (const [key, v] of Object.entries(limits)) {
        if (!(key in DEFAULT_LIMITS)) {
          problems.push(
            `limits.${key} is not a limit: use ${Object.keys(DEFAULT_LIMITS).join(', ')}`,
          )
        } else if (
          v !== undefined &&
          !(typeof v === 'number' && v > 0 && (Number.isFinite(v) || key === 'signatureBudget'))
        ) {
          problems.push(`limits.${key} must be a positive number`)
        }
      }
    }
  }
  return problems
}

/** The valid limits among `given`; the others keep their defaults (fail closed). */
function limitsFrom(given: unknown): Readonly<Limits> {
  const out: Limits = { ...DEFAULT_LIMITS }
  if (isObject(given)) {
    for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
      const v = own(given, key)
      if (typeof v === 'number' && v > 0 && (Number.isFinite(v) || key === 'signatureBudget')) {
        out[key] = v
      }
    }
  }
  return Object.freeze(out)
}

/**
 * Creates a registry: tools, the call pipeline, policy, confirmations, undo and events.
 * Starts no timer or listener until it is used. Misconfigurations throw in development, naming
 * the fix; in production they become `error` events and the registry fails closed.
 *
 * @example
 * const tm = createToolmark()
 * tm.register({ name: 'greet', description: 'Says hello', run: () => ok('hello') })
 * await tm.call('greet') // { status: 'ok', data: 'hello' }
 */
export function createToolmark(options: ToolmarkOptions = {}): Toolmark {
  // Own properties only, here and in the policy: a polluted Object.prototype configures nothing.
  const given: object = isObject(options) ? options : {}
  const opts: ToolmarkOptions = {
    dev: own(given, 'dev') as ToolmarkOptions['dev'],
    policy: own(given, 'policy') as ToolmarkOptions['policy'],
    confirm: own(given, 'confirm') as ToolmarkOptions['confirm'],
    limits: own(given, 'limits') as ToolmarkOptions['limits'],
    jsonSchema: own(given, 'jsonSchema') as ToolmarkOptions['jsonSchema'],
  }
  const dev = typeof opts.dev === 'boolean' ? opts.dev : defaultDev()
  const events = createEmitter()
  const errorEvent = (event: ErrorEvent) => events.emit('error', event)

  // Problems found while creating the registry are reported once listeners can be attached.
  const startup: ErrorEvent[] = []
  for (const message of optionProblems(options)) {
    if (dev) throw new Error(`[toolmark] ${message}`)
    startup.push({ code: 'invalid_options', message })
  }
  const limits = limitsFrom(opts.limits)
  const converter = typeof opts.jsonSchema === 'function' ? opts.jsonSchema : undefined
  const confirmOf = (caller: 'inapp' | 'test'): ConfirmMode =>
    isObject(opts.confirm) && own(opts.confirm, caller) === 'inline' ? 'inline' : 'deferred'
  const confirmModes: Record<Caller, ConfirmMode> = {
    inapp: confirmOf('inapp'),
    test: confirmOf('test'),
    webmcp: 'inline',
    mcp: 'inline',
    human: 'inline',
  }
  const tools = new Map<string, ToolRecord>()
  const llmNames = new Map<string, ToolRecord>()
  const subscribers = createSubscribable<[number]>({ report: errorEvent, label: 'tm.subscribe' })
  const scopeNodes = new WeakMap<Scope, ScopeNode>()
  let policy = applyPolicy(opts.policy, (event) => startup.push(event))
  let rev = 0
  /** Bumped by every change (several may share one revision): what access answers depend on. */
  let generation = 0
  let notifyScheduled = false
  if (startup.length > 0) queueMicrotask(() => startup.splice(0).forEach(errorEvent))

  const warned = new Set<string>()
  /** Development warnings fire once per cause and registry. */
  function warnOnce(cause: string, message: string): void {
    if (warned.has(cause)) return
    warned.add(cause)
    console.warn(message)
  }

  /** Development throws with the fix; production reports and the caller fails closed. */
  function misconfigured(code: string, message: string, tool?: string): void {
    if (dev) throw new Error(`[toolmark] ${message}`)
    errorEvent({ code, message, ...(tool ? { tool } : {}) })
  }

  function applyPolicy(
    given: Policy | undefined,
    report: (event: ErrorEvent) => void,
  ): Record<Caller, CompiledCallerPolicy> {
    const { callers, problems } = compilePolicy(given)
    for (const p of problems) {
      if (dev) throw new Error(`[toolmark] ${p.message}`)
      report({ code: 'invalid_policy', message: `${p.message}; that caller gets no tools` })
    }
    return callers
  }

  // --- revisions -----------------------------------------------------------------------------

  /** Any change: one revision per microtask, then withdrawal, `change` and subscribers. */
  function changed() {
    generation++
    manifests.clear()
    if (notifyScheduled) return
    notifyScheduled = true
    rev++
    queueMicrotask(() => {
      notifyScheduled = false
      pipeline.withdraw()
      events.emit('change', { rev })
      subscribers.notify(rev)
    })
  }

  const confirmations = createConfirmationStore({
    max: () => limits.pendingConfirmations,
    onPresenterChange: changed,
    report: errorEvent,
  })

  // --- scopes --------------------------------------------------------------------------------

  function createScopeNode(parent: ScopeNode | undefined, path: string, when: boolean): ScopeNode {
    const node: ScopeNode = {
      path,
      parent,
      when,
      disposed: false,
      children: new Set(),
      tools: new Set(),
      queue: createScopeQueue(),
      handle: {
        path,
        scope: (name, scopeOptions) => childScope(node, name, scopeOptions),
        setWhen(next) {
          if (typeof next !== 'boolean') {
            misconfigured('invalid_scope', `scope.setWhen() takes a boolean, got ${typeof next}`)
            return
          }
          if (node.disposed || node.when === next) return
          node.when = next
          changed()
        },
        dispose: () => disposeScope(node),
      },
    }
    parent?.children.add(node)
    // Scopes are looked up by handle, so a handle from another registry is refused.
    scopeNodes.set(node.handle, node)
    return node
  }

  const root = createScopeNode(undefined, '', true)

  /** A scope that registers nothing: what a misconfigured scope becomes in production. */
  function deadScope(parent: ScopeNode): Scope {
    const dead = createScopeNode(undefined, parent.path, false)
    dead.disposed = true
    return dead.handle
  }

  function childScope(parent: ScopeNode, name: string, scopeOptions?: ScopeOptions): Scope {
    if (!isSegment(name)) {
      misconfigured(
        'invalid_scope',
        `Scope name ${JSON.stringify(nameLabel(name))} is invalid: use letters, digits, "_" or "-"`,
      )
      return deadScope(parent)
    }
    if (scopeOptions !== undefined && !isObject(scopeOptions)) {
      misconfigured('invalid_scope', `Scope "${name}" got options that are not an object`)
      return deadScope(parent)
    }
    const o: ScopeOptions = scopeOptions ?? {}
    for (const key of ['when', 'transparent'] as const) {
      if (o[key] !== undefined && typeof o[key] !== 'boolean') {
        misconfigured('invalid_scope', `Scope "${name}" got a non-boolean ${key}`)
        return deadScope(parent)
      }
    }
    if (parent.disposed) {
      misconfigured('invalid_scope', `Scope "${name}" was created inside a disposed scope`)
      return deadScope(parent)
    }
    const path = o.transparent === true ? parent.path : joinName(parent.path, name)
    const node = createScopeNode(parent, path, o.when !== false)
    if (!node.when) changed()
    return node.handle
  }

  function disposeScope(node: ScopeNode) {
    if (node.disposed) return
    node.disposed = true
    for (const child of [...node.children]) disposeScope(child)
    for (const record of [...node.tools]) disposeTool(record)
    node.parent?.children.delete(node)
    changed()
  }

  const visible = (node: ScopeNode | undefined): boolean => {
    for (let n = node; n; n = n.parent) if (!n.when || n.disposed) return false
    return true
  }

  // Access only changes with a change (registration, scope, policy, presenter), so each tool keeps
  // its answers per caller until the next one: a call does not walk its scope chain every time.
  function access(record: ToolRecord, caller: Caller): Access {
    if (record.accessGeneration !== generation) {
      record.accessGeneration = generation
      record.access = {}
    }
    return (record.access![caller] ??= accessNow(record, caller))
  }

  function accessNow(record: ToolRecord, caller: Caller): Access {
    if (record.disposed || !visible(record.scope)) return 'hidden'
    if (!policy[caller].allows(record.name, record.cls)) return 'denied'
    if (
      needsConfirmation(record.cls, caller) &&
      confirmModes[caller] === 'inline' &&
      !confirmations.hasPresenter()
    ) {
      return 'no_presenter'
    }
    return 'ok'
  }

  // --- the parts -----------------------------------------------------------------------------

  const resultProblems: Record<ResultProblem['code'], string> = {
    invalid_result: 'returned something that is not a ToolResult',
    result_not_serializable: 'returned data that cannot be structured-cloned',
    result_keys_dropped: 'returned keys its result status does not have; they were dropped',
  }
  function reportResult({ code, cause }: ResultProblem, { record, callId }: ResultSource) {
    errorEvent({
      code,
      message: `Tool "${record?.name}" ${resultProblems[code]}`,
      tool: record?.name,
      callId,
      ...(cause === undefined ? {} : { cause }),
    })
  }

  const internals: RegistryInternals = {
    dev,
    limits,
    events,
    confirmations,
    tools,
    rev: () => rev,
    access,
    policyOf: (caller) => policy[caller],
    rateLimiter: createRateLimiter(),
    confirmMode: (caller) => confirmModes[caller],
    misconfigured,
    errorEvent,
    normalize: (raw, source) => normalizeResult(raw, reportResult, source),
  }
  const manifests = createManifests(internals, converter)
  const journal = createUndoJournal(internals)
  const pipeline = createCallPipeline(internals, journal)

  // --- registration --------------------------------------------------------------------------

  function register<TInput, TOutput>(
    def: ToolDefinition<TInput, TOutput>,
    registerOptions?: RegisterOptions,
  ): ToolHandle {
    const dead = (name: string): ToolHandle => ({ name, dispose() {} })
    if (registerOptions !== undefined && !isObject(registerOptions)) {
      misconfigured('invalid_tool', 'tm.register() options must be { scope?, signal? }')
      return dead('')
    }
    const ro: RegisterOptions = registerOptions ?? {}
    if (!isObject(def)) {
      misconfigured('invalid_tool', 'tm.register() takes a tool definition object')
      return dead('')
    }
    const node = ro.scope === undefined ? root : scopeNodes.get(ro.scope)
    if (!node) {
      misconfigured(
        'invalid_tool',
        `Tool ${JSON.stringify(nameLabel(def.name))} got a scope that is not from this registry`,
      )
      return dead(nameLabel(def.name))
    }
    const name = typeof def.name === 'string' ? joinName(node.path, def.name) : ''
    const problem = definitionProblem(def, name, converter)
    if (problem) {
      misconfigured('invalid_tool', problem, name || undefined)
      return dead(name)
    }
    if (node.disposed) {
      misconfigured('invalid_tool', `Tool "${name}" was registered in a disposed scope`, name)
      return dead(name)
    }
    const llmName = toLlmName(name)
    if (tools.has(name)) {
      misconfigured(
        'duplicate_tool',
        `Tool "${name}" is already registered: tool names are unique; dispose the first registration or rename one`,
        name,
      )
      return dead(name)
    }
    if (llmNames.has(llmName)) {
      misconfigured(
        'duplicate_tool',
        `Tool "${name}" has the same llmName "${llmName}" as "${llmNames.get(llmName)!.name}": rename one`,
        name,
      )
      return dead(name)
    }
    const signal = isAbortSignal(ro.signal) ? ro.signal : undefined
    if (signal?.aborted) return dead(name)

    const hints = hintsOf(def)
    const cls = toolClass(hints)
    if (
      dev &&
      (cls === 'consequential' || cls === 'destructive') &&
      def.summary === undefined &&
      def.confirmation === undefined
    ) {
      warnOnce(
        `no-summary:${name}`,
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
    journal.dropTool(record)
    pipeline.dropTool(record)
    changed()
  }

  // --- the registry --------------------------------------------------------------------------

  const tm: Toolmark = {
    clientId: randomId('page_'),
    dev,
    limits,
    get rev() {
      return rev
    },
    register,
    scope: (name, scopeOptions) => childScope(root, name, scopeOptions),
    manifest: manifests.manifest,
    describe: manifests.describe,
    call: pipeline.call,
    confirmations,
    undo: journal.undo,
    canUndo: journal.canUndo,
    cancelAll(cancelOptions) {
      const by = isObject(cancelOptions) ? cancelOptions.by : undefined
      pipeline.cancelAll(by === 'policy' || by === 'signal' ? (by as CancelledBy) : 'operator')
    },
    setPolicy(next) {
      policy = applyPolicy(next, errorEvent)
      internals.rateLimiter.reset()
      changed()
    },
    subscribe(listener) {
      if (typeof listener !== 'function') {
        misconfigured('invalid_listener', 'tm.subscribe() takes a function (rev) => void')
        return () => {}
      }
      return subscribers.subscribe(listener)
    },
    events: {
      on(type, listener) {
        if (typeof listener !== 'function') {
          misconfigured('invalid_listener', `tm.events.on("${String(type)}") takes a function`)
          return () => {}
        }
        return events.on(type, listener)
      },
    },
    use(consumer) {
      if (typeof consumer !== 'function') {
        misconfigured('invalid_consumer', 'tm.use() takes a function (tm) => dispose')
        return () => {}
      }
      let teardown: (() => void) | void
      try {
        teardown = consumer(tm)
      } catch (cause) {
        if (dev) throw cause
        errorEvent({
          code: 'consumer_threw',
          message: 'A consumer passed to tm.use() threw',
          cause,
        })
        return () => {}
      }
      let active = true
      return () => {
        if (!active) return
        active = false
        try {
          if (typeof teardown === 'function') teardown()
        } catch (cause) {
          errorEvent({ code: 'consumer_threw', message: 'A consumer teardown threw', cause })
        }
      }
    },
  }
  attachReporter(tm, errorEvent)
  return tm
}
