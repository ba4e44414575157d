import { createCallPipeline } from '../call/callPipeline'
import { attachCallSeam } from '../call/runWrappers'
import { installFeature } from '../confirmations/feature'
import { createConfirmationStore } from '../confirmations/confirmationStore'
import { Anchors, bindAnchors } from '../anchors/anchors'
import { createEmitter } from '../events/emitter'
import { isAbortSignal, isCaller, isObject } from '../base/guards'
import { randomId } from '../base/ids'
import { createManifests } from './manifest'
import { isSegment, joinName, nameLabel, toLlmName } from '../tool/names'
import { confirmModesOf, perCaller } from '../tool/callers'
import {
  bothPolicies,
  compilePolicy,
  createRateLimiter,
  needsConfirmation,
  needsVerification,
  toolClass,
  type CompiledCallerPolicy,
} from '../tool/policy'
import { problemMessage } from './misconfiguration'
import type { Problem } from '../base/problem'
import { NODE_ENV_READABLE } from '../base/nodeEnv'
import { readOptions } from './options'
import { compileSensitive } from '../redaction/redact'
import { normalizeResult, type ResultProblem } from '../base/results'
import { attachReporter } from '../events/reportError'
import { attachDefinitions } from './definitions'
import { createScopeQueue } from '../tool/scopeQueue'
import { createSubscribable } from '../events/subscribable'
import { definitionProblem, hintsOf } from './toolDefinition'
import type {
  Access,
  RegistryInternals,
  ResultSource,
  ScopeNode,
  ToolErrorSource,
  ToolRecord,
} from '../tool/toolRecord'
import type {
  Caller,
  CancelledBy,
  ErrorEvent,
  Policy,
  RegisterOptions,
  Scope,
  ScopeOptions,
  ToolDefinition,
  ToolHandle,
  Toolmark,
  ToolmarkOptions,
} from '../types'
import { createUndoJournal } from '../undo/undoJournal'

declare const process: { env: Record<string, string | undefined> }

/** Development unless `process.env.NODE_ENV` says production; where it cannot be read, too. */
const defaultDev = (): boolean => !NODE_ENV_READABLE || process.env.NODE_ENV !== 'production'

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
  const read = readOptions(options)
  const dev = read.dev ?? defaultDev()
  const { limits, converter } = read
  const events = createEmitter()
  const anchors = new Anchors((event) => events.emit('interaction', event))
  const errorEvent = (event: ErrorEvent) => events.emit('error', event)

  // Problems found while creating the registry are reported once listeners can be attached.
  const startup: ErrorEvent[] = []
  const atStartup = (event: ErrorEvent) => startup.push(event)
  for (const problem of read.problems) misconfigured('invalid_options', problem, '', atStartup)
  const confirmModes = confirmModesOf(read.confirm)
  const tools = new Map<string, ToolRecord>()
  const llmNames = new Map<string, ToolRecord>()
  const subscribers = createSubscribable<[number]>({ report: errorEvent, label: 'tm.subscribe' })
  const scopeNodes = new WeakMap<Scope, ScopeNode>()
  let policy = applyPolicy(read.policy as Policy | undefined, atStartup)
  let rev = 0
  /** Bumped by every change (several may share one revision): what access answers depend on. */
  let generation = 0
  let notifyScheduled = false
  if (startup.length > 0) queueMicrotask(() => startup.splice(0).forEach(errorEvent))

  /** Development warnings fire once per cause and registry. */
  const warned = new Set<string>()

  /** Development throws with the fix; production reports and the caller fails closed. */
  function misconfigured(
    code: string,
    problem: Problem,
    tool?: string,
    report: (event: ErrorEvent) => void = errorEvent,
  ): void {
    const message = problemMessage(problem)
    if (dev) throw new Error(`[toolmark] ${message}`)
    report(tool ? { code, message, tool } : { code, message })
  }

  function applyPolicy(
    given: Policy | undefined,
    report?: (event: ErrorEvent) => void,
  ): Record<Caller, CompiledCallerPolicy> {
    const { callers, problems } = compilePolicy(given)
    // That caller gets no tools (every agent caller, when the policy is not an object).
    for (const problem of problems) misconfigured('invalid_policy', problem, '', report)
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
    events,
    report: errorEvent,
  })
  // The optional parts given at creation lend their code before anything is filed.
  for (const feature of read.features) installFeature(feature, confirmations)

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
            misconfigured('invalid_scope', ['setWhen type', typeof next])
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

  function childScope(parent: ScopeNode, name: string, scopeOptions?: ScopeOptions): Scope {
    const o: ScopeOptions = isObject(scopeOptions) ? scopeOptions : {}
    const problem: Problem | undefined = !isSegment(name)
      ? ['scope name', nameLabel(name)]
      : scopeOptions !== undefined && !isObject(scopeOptions)
        ? ['scope options', name]
        : o.when !== undefined && typeof o.when !== 'boolean'
          ? ['scope flag', name, 'when']
          : o.transparent !== undefined && typeof o.transparent !== 'boolean'
            ? ['scope flag', name, 'transparent']
            : parent.disposed
              ? ['scope disposed', name]
              : undefined
    if (problem) {
      misconfigured('invalid_scope', problem)
      // A scope that registers nothing: what a misconfigured scope becomes in production.
      const dead = createScopeNode(undefined, parent.path, false)
      dead.disposed = true
      return dead.handle
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
  // A tour's step is answered afresh: it also depends on whom the tour acts for.
  function access(record: ToolRecord, caller: Caller, actingFor?: Caller): Access {
    if (caller === 'tour') return accessNow(record, caller, actingFor ?? 'inapp')
    if (record.accessGeneration !== generation) {
      record.accessGeneration = generation
      // One own key per caller and no prototype: a read never reaches a polluted Object.prototype.
      record.access = perCaller(() => undefined)
    }
    return (record.access![caller] ??= accessNow(record, caller, undefined))
  }

  function accessNow(record: ToolRecord, caller: Caller, actingFor: Caller | undefined): Access {
    if (record.disposed || !visible(record.scope)) return 'hidden'
    if (!policyOf(caller, actingFor).allows(record.name, record.cls)) return 'denied'
    // An approval that needs the person's passkey, and nothing to ask it with: fail closed.
    if (!read.verification.verifier && verifies(record, caller, actingFor)) return 'no_verifier'
    if (
      needsConfirmation(record.cls, caller) &&
      confirmModes[caller] === 'inline' &&
      !confirmations.hasPresenter()
    ) {
      return 'no_presenter'
    }
    return 'ok'
  }

  /** A caller's rules; a tour's step meets the tour's and its starter's both (DESIGN §11). */
  const policyOf = (caller: Caller, actingFor?: Caller): CompiledCallerPolicy =>
    caller === 'tour' ? bothPolicies(policy.tour, policy[actingFor ?? 'inapp']) : policy[caller]

  const verifies = (record: ToolRecord, caller: Caller, actingFor?: Caller) =>
    needsVerification(record.cls, record.def.verify, caller, policyOf(caller, actingFor))

  // --- the parts -----------------------------------------------------------------------------

  function toolError(
    code: string,
    source: ToolErrorSource,
    cause: unknown,
    detail = code.replace(/_/g, ' '),
  ) {
    const tool = source.record?.name
    errorEvent({
      code,
      message: problemMessage([detail, String(tool)]),
      tool,
      callId: source.callId,
      ...(cause === undefined ? {} : { cause }),
    })
  }
  /** What `normalizeResult` reports, said like every other error about a tool's own code. */
  const reportResult = ({ code, cause }: ResultProblem, source: ResultSource) =>
    toolError(code, source, cause)

  const internals: RegistryInternals = {
    dev,
    limits,
    events,
    tools,
    rev: () => rev,
    access,
    policyOf,
    rateLimiter: createRateLimiter(policy),
    confirmMode: (caller) => confirmModes[caller],
    verification: read.verification,
    verifies,
    misconfigured,
    errorEvent,
    toolError,
    converter,
    normalize: (raw, source) => normalizeResult(raw, reportResult, source),
  }
  const manifests = createManifests(internals, converter)
  const journal = createUndoJournal(internals)
  const pipeline = createCallPipeline(internals, journal, confirmations)

  // --- registration --------------------------------------------------------------------------

  function register<TInput, TOutput>(
    def: ToolDefinition<TInput, TOutput>,
    registerOptions?: RegisterOptions,
  ): ToolHandle {
    const ro: RegisterOptions = isObject(registerOptions) ? registerOptions : {}
    const node = ro.scope === undefined ? root : scopeNodes.get(ro.scope)
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
    journal.dropTool(record)
    pipeline.dropTool(record)
    changed()
  }

  // --- the registry --------------------------------------------------------------------------

  const tm: Toolmark = {
    clientId: randomId('page_'),
    dev,
    limits,
    ...(read.files ? { files: read.files } : {}),
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
    verifies(name, verifyOptions) {
      const record = typeof name === 'string' ? tools.get(name) : undefined
      const caller = isObject(verifyOptions) ? verifyOptions.caller : undefined
      return record !== undefined && verifies(record, isCaller(caller) ? caller : 'inapp')
    },
    cancelAll(cancelOptions) {
      const by = isObject(cancelOptions) ? cancelOptions.by : undefined
      pipeline.cancelAll(by === 'policy' || by === 'signal' ? (by as CancelledBy) : 'operator')
    },
    setPolicy(next) {
      policy = applyPolicy(next)
      internals.rateLimiter.reset(policy)
      changed()
    },
    subscribe(listener) {
      if (typeof listener !== 'function') {
        misconfigured('invalid_listener', ['subscribe'])
        return () => {}
      }
      return subscribers.subscribe(listener)
    },
    events: {
      on(type, listener) {
        if (typeof listener !== 'function') {
          misconfigured('invalid_listener', ['events.on', String(type)])
          return () => {}
        }
        return events.on(type, listener)
      },
    },
    anchor: (tool, param) => anchors.element(tool, param),
    use(consumer) {
      if (typeof consumer !== 'function') {
        misconfigured('invalid_consumer', ['use'])
        return () => {}
      }
      let teardown: (() => void) | void
      try {
        teardown = consumer(tm)
      } catch (cause) {
        if (dev) throw cause
        errorEvent({ code: 'consumer_threw', message: problemMessage(['consumer threw']), cause })
        return () => {}
      }
      let active = true
      return () => {
        if (!active) return
        active = false
        try {
          if (typeof teardown === 'function') teardown()
        } catch (cause) {
          const message = problemMessage(['consumer teardown threw'])
          errorEvent({ code: 'consumer_threw', message, cause })
        }
      }
    },
  }
  attachReporter(tm, errorEvent)
  attachCallSeam(tm, { runWrappers: pipeline.runWrappers, tools })
  attachDefinitions(tm, tools)
  bindAnchors(tm, anchors)
  return tm
}
