import { createConfirmationStore, type ConfirmationHandler } from './confirmationStore'
import { createEmitter, type Emitter } from './emitter'
import { now, randomId } from './ids'
import { isSegment, isToolName, joinName, nameLabel, toLlmName } from './names'
import {
  compilePolicy,
  createRateLimiter,
  needsConfirmation,
  toolClass,
  type CompiledCallerPolicy,
} from './policy'
import { compileSensitive, redactChanges, redactValue, type SensitivePaths } from './redact'
import {
  cancelled,
  deepFreeze,
  errorResult,
  finalizeResult,
  invalid,
  isToolResult,
  notSerializable,
  refuse,
} from './results'
import {
  isStandardSchema,
  jsonSchemaSource,
  renderSignature,
  resolveJsonSchema,
  validateWith,
} from './schema'
import {
  CALLERS,
  type Caller,
  type CallOptions,
  type CancelledBy,
  type ConfirmationEntry,
  type ConfirmMode,
  type ErrorEvent,
  type FieldChange,
  type JsonSchema,
  type Limits,
  type Manifest,
  type ManifestEntry,
  type Policy,
  type ProgressEvent,
  type RegisterOptions,
  type Scope,
  type ScopeOptions,
  type ToolClass,
  type ToolContext,
  type ToolDefinition,
  type ToolHandle,
  type ToolHints,
  type Toolmark,
  type ToolmarkOptions,
  type ToolResult,
} from './types'

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

interface ScopeNode {
  readonly path: string
  readonly parent: ScopeNode | undefined
  when: boolean
  disposed: boolean
  readonly children: Set<ScopeNode>
  readonly tools: Set<ToolRecord>
  /** Calls holding the scope's single run slot (0 or 1) plus those waiting for it. */
  running: boolean
  readonly waiting: Array<() => void>
  readonly handle: Scope
}

interface ToolRecord {
  readonly def: ToolDefinition<any, any>
  readonly name: string
  readonly llmName: string
  readonly scope: ScopeNode
  readonly hints: ToolHints
  readonly cls: ToolClass
  readonly sensitive: SensitivePaths
  disposed: boolean
  schema?: JsonSchema | null
  summaryEntry?: ManifestEntry
  fullEntry?: ManifestEntry
}

type Phase = 'checking' | 'confirming' | 'queued' | 'running' | 'done'

interface Flight {
  readonly callId: string
  readonly record: ToolRecord
  /** Who asked (events, policy). */
  readonly caller: Caller
  /** Who the run sees: `human` for an approved deferred confirmation. */
  readonly runAs: Caller
  readonly controller: AbortController
  phase: Phase
  abortedBy?: CancelledBy
  /** Resolves with the reason once the call is aborted. */
  readonly aborted: Promise<CancelledBy>
  abort(by: CancelledBy): void
}

interface UndoEntry {
  readonly record: ToolRecord
  readonly restore: () => ToolResult | Promise<ToolResult>
}

type Access = 'ok' | 'hidden' | 'denied' | 'no_presenter'

const NO_SENSITIVE = compileSensitive(undefined)
const HINT_KEYS = ['readOnly', 'consequential', 'destructive', 'untrustedContent'] as const

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

const isAbortSignal = (v: unknown): v is AbortSignal =>
  isObject(v) &&
  typeof v.aborted === 'boolean' &&
  typeof (v as { addEventListener?: unknown }).addEventListener === 'function'

const isCaller = (v: unknown): v is Caller => (CALLERS as readonly unknown[]).includes(v)

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

function unref(timer: ReturnType<typeof setTimeout>) {
  ;(timer as { unref?: () => void }).unref?.()
  return timer
}

const registries = new WeakMap<object, Emitter>()

/**
 * Emits an `error` event on a registry. For parts built on top of the registry (bridge, WebMCP,
 * pairing) that must report a problem without throwing.
 */
export function reportError(tm: Toolmark, event: ErrorEvent): void {
  registries.get(tm)?.emit('error', event)
}

/**
 * Creates a registry: tools, the call pipeline, policy, confirmations, undo and events.
 * Starts no timer or listener until it is used.
 *
 * @example
 * const tm = createToolmark()
 * tm.register({ name: 'greet', description: 'Says hello', run: () => ok('hello') })
 * await tm.call('greet') // { status: 'ok', data: 'hello' }
 */
export function createToolmark(options: ToolmarkOptions = {}): Toolmark {
  const opts: ToolmarkOptions = isObject(options) ? options : {}
  const dev = typeof opts.dev === 'boolean' ? opts.dev : defaultDev()
  const limits: Readonly<Limits> = Object.freeze({
    ...DEFAULT_LIMITS,
    ...sanitizeLimits(opts.limits),
  })
  const events = createEmitter()
  const tools = new Map<string, ToolRecord>()
  const llmNames = new Map<string, ToolRecord>()
  const flights = new Set<Flight>()
  const journal = new Map<string, UndoEntry>()
  const subscribers = new Set<(rev: number) => void>()
  const manifestCache = new Map<string, Manifest>()
  const rateLimiter = createRateLimiter()
  const confirmModes: Record<Caller, ConfirmMode> = {
    inapp: opts.confirm?.inapp === 'inline' ? 'inline' : 'deferred',
    test: opts.confirm?.test === 'inline' ? 'inline' : 'deferred',
    webmcp: 'inline',
    mcp: 'inline',
    human: 'inline',
  }
  const errorEvent = (event: ErrorEvent) => events.emit('error', event)
  const scopeNodes = new WeakMap<Scope, ScopeNode>()
  let policy: Record<Caller, CompiledCallerPolicy> = applyPolicy(opts.policy)
  let rev = 0
  let notifyScheduled = false

  /** Development throws with the fix; production reports and the caller fails closed. */
  function misconfigured(code: string, message: string, tool?: string): void {
    if (dev) throw new Error(`[toolmark] ${message}`)
    errorEvent({ code, message, ...(tool ? { tool } : {}) })
  }

  function applyPolicy(given: Policy | undefined) {
    const { callers, problems } = compilePolicy(given)
    for (const p of problems) {
      if (dev) throw new Error(`[toolmark] ${p.message}`)
      errorEvent({ code: 'invalid_policy', message: p.message })
    }
    return callers
  }

  // --- revisions -----------------------------------------------------------------------------

  function changed() {
    manifestCache.clear()
    if (notifyScheduled) return
    notifyScheduled = true
    rev++
    queueMicrotask(() => {
      notifyScheduled = false
      withdrawCalls()
      events.emit('change', { rev })
      for (const listener of [...subscribers]) {
        try {
          listener(rev)
        } catch (cause) {
          errorEvent({ code: 'listener_threw', message: 'A subscribe listener threw', cause })
        }
      }
    })
  }

  /** Calls waiting in a queue or on a person lose their tool when access is withdrawn. */
  function withdrawCalls() {
    for (const flight of flights) {
      if (flight.phase !== 'queued' && flight.phase !== 'confirming') continue
      if (access(flight.record, flight.runAs) !== 'ok') flight.abort('policy')
    }
  }

  const confirmations = createConfirmationStore({
    max: () => limits.pendingConfirmations,
    onPresenterChange: changed,
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
      running: false,
      waiting: [],
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

  function childScope(parent: ScopeNode, name: string, scopeOptions?: ScopeOptions): Scope {
    const o = isObject(scopeOptions) ? scopeOptions : {}
    if (!isSegment(name)) {
      misconfigured(
        'invalid_scope',
        `Scope name ${JSON.stringify(nameLabel(name))} is invalid: use letters, digits, "_" or "-"`,
      )
      // Fail closed: a hidden, disposed scope that registers nothing.
      const dead = createScopeNode(undefined, `${parent.path}#invalid`, false)
      dead.disposed = true
      return dead.handle
    }
    if (parent.disposed) {
      misconfigured('invalid_scope', `Scope "${name}" was created inside a disposed scope`)
    }
    const path = o.transparent === true ? parent.path : joinName(parent.path, name)
    const node = createScopeNode(parent, path, o.when !== false)
    node.disposed = parent.disposed
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

  function access(record: ToolRecord, caller: Caller): Access {
    if (record.disposed || tools.get(record.name) !== record || !visible(record.scope)) {
      return 'hidden'
    }
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

  // --- registration --------------------------------------------------------------------------

  function register<TInput, TOutput>(
    def: ToolDefinition<TInput, TOutput>,
    registerOptions?: RegisterOptions,
  ): ToolHandle {
    const ro: RegisterOptions = isObject(registerOptions) ? registerOptions : {}
    const dead = (name: string): ToolHandle => ({ name, dispose() {} })
    if (!isObject(def)) {
      misconfigured('invalid_tool', 'tm.register() takes a tool definition object')
      return dead('')
    }
    const node = ro.scope ? scopeNodes.get(ro.scope) : root
    if (!node) {
      misconfigured(
        'invalid_tool',
        `Tool ${JSON.stringify(nameLabel(def.name))} got a scope that is not from this registry`,
      )
      return dead(nameLabel(def.name))
    }
    const name = typeof def.name === 'string' ? joinName(node.path, def.name) : ''
    const problem = definitionProblem(def, name)
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
    const signal = ro.signal
    if (isAbortSignal(signal) && signal.aborted) return dead(name)

    const hints: ToolHints = {}
    for (const key of HINT_KEYS) if (def.hints?.[key] === true) hints[key] = true
    const record: ToolRecord = {
      def: def as ToolDefinition<any, any>,
      name,
      llmName,
      scope: node,
      hints: Object.freeze(hints),
      cls: toolClass(hints),
      sensitive: compileSensitive(def.sensitive),
      disposed: false,
    }
    tools.set(name, record)
    llmNames.set(llmName, record)
    node.tools.add(record)
    changed()

    const onAbort = () => disposeTool(record)
    if (isAbortSignal(signal)) signal.addEventListener('abort', onAbort, { once: true })
    return {
      name,
      dispose() {
        if (isAbortSignal(signal)) signal.removeEventListener('abort', onAbort)
        disposeTool(record)
      },
    }
  }

  function definitionProblem(def: ToolDefinition<any, any>, name: string): string | undefined {
    const label = JSON.stringify(nameLabel(def.name))
    if (!isToolName(name)) {
      return `Tool name ${label} is invalid: use segments of letters, digits, "_" or "-" joined by ".", at most 128 characters`
    }
    if (typeof def.description !== 'string' || def.description.trim() === '') {
      return `Tool "${name}" needs a description: tell the model what it does and when to use it`
    }
    if (typeof def.run !== 'function') return `Tool "${name}" needs a run(input, ctx) function`
    if (def.input !== undefined && !isStandardSchema(def.input)) {
      return `Tool "${name}" has an input that is not a Standard Schema: pass a zod 4 schema (or any Standard Schema v1)`
    }
    if (def.output !== undefined && !isStandardSchema(def.output)) {
      return `Tool "${name}" has an output that is not a Standard Schema`
    }
    if (def.inputSchema !== undefined && !isObject(def.inputSchema)) {
      return `Tool "${name}" has an inputSchema that is not a JSON Schema object`
    }
    if (def.hints !== undefined) {
      if (!isObject(def.hints)) return `Tool "${name}" has hints that are not an object`
      for (const [key, value] of Object.entries(def.hints)) {
        if (!(HINT_KEYS as readonly string[]).includes(key) || typeof value !== 'boolean') {
          return `Tool "${name}" has an unknown or non-boolean hint "${key}": use ${HINT_KEYS.join(', ')}`
        }
      }
      if (def.hints.readOnly && (def.hints.consequential || def.hints.destructive)) {
        return `Tool "${name}" cannot be readOnly and consequential/destructive at once`
      }
    }
    if (
      def.sensitive !== undefined &&
      typeof def.sensitive !== 'function' &&
      (!Array.isArray(def.sensitive) || !def.sensitive.every((p) => typeof p === 'string'))
    ) {
      return `Tool "${name}" has sensitive paths that are not a string array`
    }
    if (
      def.timeoutMs !== undefined &&
      !(typeof def.timeoutMs === 'number' && def.timeoutMs > 0 && Number.isFinite(def.timeoutMs))
    ) {
      return `Tool "${name}" has an invalid timeoutMs: use a positive number of milliseconds`
    }
    for (const key of ['summary', 'confirmation'] as const) {
      if (def[key] !== undefined && typeof def[key] !== 'function') {
        return `Tool "${name}" has a ${key} that is not a function`
      }
    }
    if (jsonSchemaSource(def.input, def.inputSchema, opts.jsonSchema) === undefined) {
      return `Tool "${name}" has an input schema without a JSON Schema: use zod ≥ 4.2, pass inputSchema, or give createToolmark a jsonSchema converter`
    }
    return undefined
  }

  function disposeTool(record: ToolRecord) {
    if (record.disposed) return
    record.disposed = true
    if (tools.get(record.name) === record) tools.delete(record.name)
    if (llmNames.get(record.llmName) === record) llmNames.delete(record.llmName)
    record.scope.tools.delete(record)
    for (const [callId, entry] of journal) if (entry.record === record) journal.delete(callId)
    for (const id of confirmations.find((e) => pendingOwner.get(e.id) === record)) {
      pendingWithdraw.get(id)?.()
    }
    changed()
  }

  // --- manifest ------------------------------------------------------------------------------

  function schemaOf(record: ToolRecord): JsonSchema | undefined {
    if (record.schema === undefined) {
      try {
        const schema = resolveJsonSchema(record.def.input, record.def.inputSchema, opts.jsonSchema)
        record.schema = schema ? deepFreeze(structuredClone(schema)) : null
      } catch (cause) {
        record.schema = null
        errorEvent({
          code: 'json_schema_failed',
          message: `The input JSON Schema of "${record.name}" could not be produced`,
          tool: record.name,
          cause,
        })
      }
    }
    return record.schema ?? undefined
  }

  function entryOf(record: ToolRecord, detail: 'summary' | 'full'): ManifestEntry {
    const cached = detail === 'full' ? record.fullEntry : record.summaryEntry
    if (cached) return cached
    const { def } = record
    const schema = schemaOf(record)
    const entry: ManifestEntry = { name: record.name, llmName: record.llmName } as ManifestEntry
    if (typeof def.title === 'string' && def.title) entry.title = def.title
    entry.description = def.description
    entry.hints = { ...record.hints }
    if (detail === 'summary') {
      const signature = renderSignature(schema, limits.signatureBudget)
      if (signature !== undefined) entry.signature = signature
      record.summaryEntry = deepFreeze(entry)
    } else {
      const signature = renderSignature(schema, Infinity)
      if (signature !== undefined) entry.signature = signature
      if (schema) entry.inputSchema = structuredClone(schema)
      record.fullEntry = deepFreeze(entry)
    }
    return entry
  }

  function manifest(manifestOptions?: { caller?: Caller; detail?: 'summary' | 'full' }): Manifest {
    const mo = isObject(manifestOptions) ? manifestOptions : {}
    const caller = isCaller(mo.caller) ? mo.caller : mo.caller === undefined ? 'inapp' : undefined
    const detail = mo.detail === 'full' ? 'full' : 'summary'
    const key = `${String(caller)}|${detail}`
    const cached = manifestCache.get(key)
    if (cached) return cached
    const list: ManifestEntry[] = []
    if (caller) {
      for (const record of tools.values()) {
        if (access(record, caller) === 'ok') list.push(entryOf(record, detail))
      }
    }
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const result: Manifest = Object.freeze({ rev, tools: Object.freeze(list) as ManifestEntry[] })
    manifestCache.set(key, result)
    return result
  }

  function describe(
    name: string,
    describeOptions?: { caller?: Caller },
  ): ManifestEntry | undefined {
    const d = isObject(describeOptions) ? describeOptions : {}
    const caller = d.caller === undefined ? 'inapp' : d.caller
    if (typeof name !== 'string' || !isCaller(caller)) return undefined
    const record = tools.get(name)
    if (!record || access(record, caller) !== 'ok') return undefined
    return entryOf(record, 'full')
  }

  // --- the call pipeline ---------------------------------------------------------------------

  function createFlight(callId: string, record: ToolRecord, caller: Caller, runAs: Caller): Flight {
    const controller = new AbortController()
    let resolveAborted!: (by: CancelledBy) => void
    const aborted = new Promise<CancelledBy>((resolve) => (resolveAborted = resolve))
    const flight: Flight = {
      callId,
      record,
      caller,
      runAs,
      controller,
      phase: 'checking',
      aborted,
      abort(by) {
        if (flight.abortedBy || flight.phase === 'done') return
        flight.abortedBy = by
        controller.abort(new DOMExceptionLike(`Call cancelled (${by})`))
        resolveAborted(by)
      },
    }
    return flight
  }

  /** Clones, freezes and checks what a tool returned. */
  function normalize(raw: unknown, record: ToolRecord | undefined, callId: string): ToolResult {
    if (!isToolResult(raw)) {
      errorEvent({
        code: 'invalid_result',
        message: `Tool "${record?.name}" returned something that is not a ToolResult`,
        tool: record?.name,
        callId,
      })
      return deepFreeze(errorResult('Tool failed'))
    }
    const final = finalizeResult(raw)
    if (!final) {
      errorEvent({
        code: 'result_not_serializable',
        message: `Tool "${record?.name}" returned data that cannot be structured-cloned`,
        tool: record?.name,
        callId,
      })
      return notSerializable()
    }
    return final
  }

  async function call(
    name: string,
    input?: unknown,
    callOptions?: CallOptions,
  ): Promise<ToolResult> {
    const started = now()
    const callId = randomId('call_')
    try {
      return await pipeline(callId, started, name, input, callOptions)
    } catch (cause) {
      // The pipeline itself is written not to throw; this is the last line of defence.
      errorEvent({ code: 'internal_error', message: 'The call pipeline failed', callId, cause })
      return deepFreeze(errorResult('Tool failed'))
    }
  }

  async function pipeline(
    callId: string,
    started: number,
    name: unknown,
    input: unknown,
    callOptions: unknown,
  ): Promise<ToolResult> {
    const co = isObject(callOptions) ? (callOptions as CallOptions) : {}
    const caller = co.caller === undefined ? 'inapp' : co.caller
    const label = nameLabel(name)
    const record = typeof name === 'string' ? tools.get(name) : undefined
    const eventCaller = (isCaller(caller) ? caller : String(caller)) as Caller
    events.emit('call', {
      callId,
      tool: label,
      caller: eventCaller,
      input: events.has('call') ? redactValue(input, record?.sensitive ?? NO_SENSITIVE) : undefined,
    })
    const finish = (result: ToolResult): ToolResult => {
      const frozen = Object.isFrozen(result) ? result : normalize(result, record, callId)
      events.emit('result', {
        callId,
        tool: label,
        caller: eventCaller,
        result: frozen,
        durationMs: now() - started,
      })
      return frozen
    }

    if (!isCaller(caller)) {
      return finish(refuse('not_allowed', `Unknown caller ${JSON.stringify(nameLabel(caller))}`))
    }
    const seen = record ? access(record, caller) : 'hidden'
    if (!record || seen === 'hidden') {
      const old = typeof co.rev === 'number' && co.rev < rev
      return finish(
        old
          ? refuse('stale', `Tool ${JSON.stringify(label)} is gone since revision ${co.rev}`, {
              rev,
            })
          : refuse('unknown_tool', `No tool named ${JSON.stringify(label)}`, { rev }),
      )
    }
    if (seen === 'denied') {
      return finish(
        refuse('not_allowed', `Policy does not allow ${caller} to call "${record.name}"`),
      )
    }
    if (seen === 'no_presenter') {
      return finish(
        refuse(
          'not_allowed',
          `"${record.name}" needs a person's confirmation and no one can see it now`,
        ),
      )
    }
    if (!rateLimiter.take(caller, policy[caller].rateLimit, now())) {
      return finish(refuse('rate_limited', `Too many calls from ${caller}; wait and retry`))
    }
    const signal = isAbortSignal(co.signal) ? co.signal : undefined
    if (signal?.aborted) return finish(cancelled('signal'))

    const checked = await checkInput(record, input, callId)
    if ('result' in checked) return finish(checked.result)
    const value = checked.value

    const flight = createFlight(callId, record, caller, caller)
    const onSignal = () => flight.abort('signal')
    signal?.addEventListener('abort', onSignal, { once: true })
    flights.add(flight)
    try {
      if (needsConfirmation(record.cls, caller)) {
        const prepared = prepareConfirmation(record, value, callId)
        if ('result' in prepared) return finish(prepared.result)
        if (confirmModes[caller] === 'deferred') {
          return finish(requestDeferred(flight, value, prepared))
        }
        return await requestInline(flight, value, prepared, finish)
      }
      return finish(await execute(flight, value))
    } finally {
      flight.phase = 'done'
      flights.delete(flight)
      signal?.removeEventListener('abort', onSignal)
    }
  }

  async function checkInput(
    record: ToolRecord,
    input: unknown,
    callId: string,
  ): Promise<{ value: unknown } | { result: ToolResult }> {
    const schema = record.def.input
    if (!schema) {
      if (input === undefined || (isObject(input) && Object.keys(input).length === 0)) {
        return { value: undefined }
      }
      return { result: invalid([{ path: '', message: 'This tool takes no input' }]) }
    }
    try {
      const checked = await validateWith(schema, input)
      if ('issues' in checked) return { result: invalid(checked.issues) }
      return { value: checked.value }
    } catch (cause) {
      errorEvent({
        code: 'validator_threw',
        message: `The input schema of "${record.name}" threw while validating`,
        tool: record.name,
        callId,
        cause,
      })
      return { result: errorResult('Tool failed') }
    }
  }

  interface Prepared {
    summary: string
    changes?: FieldChange[]
    isStale?: () => boolean
  }

  function prepareConfirmation(
    record: ToolRecord,
    value: unknown,
    callId: string,
  ): Prepared | { result: ToolResult } {
    const { def } = record
    try {
      const extra = def.confirmation?.(value)
      const summary = def.summary?.(value) ?? extra?.summary ?? `${def.title ?? record.name}`
      if (typeof summary !== 'string') throw new TypeError('summary must return a string')
      const prepared: Prepared = { summary }
      if (Array.isArray(extra?.changes))
        prepared.changes = redactChanges(extra.changes, record.sensitive)
      if (typeof extra?.isStale === 'function') prepared.isStale = extra.isStale
      return prepared
    } catch (cause) {
      errorEvent({
        code: 'tool_threw',
        message: `The summary or confirmation of "${record.name}" threw`,
        tool: record.name,
        callId,
        cause,
      })
      return { result: errorResult('Tool failed') }
    }
  }

  const pendingOwner = new Map<string, ToolRecord>()
  const pendingWithdraw = new Map<string, () => void>()

  function makeEntry(flight: Flight, value: unknown, prepared: Prepared, mode: ConfirmMode) {
    const { record } = flight
    const createdAt = Date.now()
    const entry: ConfirmationEntry = {
      id: randomId('cf_'),
      callId: flight.callId,
      tool: record.name,
      caller: flight.caller,
      mode,
      summary: prepared.summary,
      input: redactValue(value, record.sensitive),
      hints: { ...record.hints },
      createdAt,
      expiresAt: createdAt + limits.confirmationExpiryMs,
    }
    if (record.def.title) entry.title = record.def.title
    if (prepared.changes) entry.changes = prepared.changes
    return deepFreeze(entry)
  }

  const editCheck = (record: ToolRecord, callId: string) => async (edited: unknown) => {
    const checked = await checkInput(record, edited, callId)
    return 'result' in checked ? deepFreeze(structuredClone(checked.result)) : undefined
  }

  function requestDeferred(flight: Flight, value: unknown, prepared: Prepared): ToolResult {
    const { record, callId } = flight
    const entry = makeEntry(flight, value, prepared, 'deferred')
    const settle = (type: 'approved' | 'rejected' | 'expired', result: ToolResult) => {
      pendingOwner.delete(entry.id)
      pendingWithdraw.delete(entry.id)
      events.emit('confirm', { type, entry, result })
      return result
    }
    const handler: ConfirmationHandler = {
      check: editCheck(record, callId),
      async approve(edited, hasInput) {
        let input = value
        if (hasInput) {
          const checked = await checkInput(record, edited, callId)
          if ('result' in checked)
            return settle('rejected', deepFreeze(structuredClone(checked.result)))
          input = checked.value
        }
        const started = now()
        const result = await runApproved(flight, input, prepared)
        events.emit('result', {
          callId,
          tool: record.name,
          caller: 'human',
          result,
          durationMs: now() - started,
        })
        return settle('approved', result)
      },
      async reject() {
        return settle('rejected', deepFreeze(cancelled('operator')))
      },
      expire() {
        settle('expired', expiredResult())
      },
    }
    pendingOwner.set(entry.id, record)
    pendingWithdraw.set(entry.id, () => {
      if (confirmations.remove(entry.id)) settle('rejected', deepFreeze(cancelled('policy')))
    })
    confirmations.add(entry, handler)
    events.emit('confirm', { type: 'requested', entry })
    const result: ToolResult = {
      status: 'needs_confirmation',
      confirmId: entry.id,
      summary: entry.summary,
    }
    if (entry.changes) result.changes = entry.changes as FieldChange[]
    return result
  }

  /** An approved deferred confirmation: the tool runs as `human`, in its scope's queue. */
  async function runApproved(
    origin: Flight,
    input: unknown,
    prepared: Prepared,
  ): Promise<ToolResult> {
    const { record } = origin
    if (stale(prepared))
      return deepFreeze(
        refuse('stale', 'The form changed after this confirmation was requested', { rev }),
      )
    if (access(record, 'human') !== 'ok') return deepFreeze(cancelled('policy'))
    const flight = createFlight(origin.callId, record, origin.caller, 'human')
    flights.add(flight)
    try {
      return normalize(await execute(flight, input), record, origin.callId)
    } finally {
      flight.phase = 'done'
      flights.delete(flight)
    }
  }

  function stale(prepared: Prepared): boolean {
    try {
      return prepared.isStale?.() === true
    } catch {
      return true
    }
  }

  const expiredResult = () =>
    deepFreeze(refuse('confirmation_expired', 'The confirmation expired before anyone answered'))

  async function requestInline(
    flight: Flight,
    value: unknown,
    prepared: Prepared,
    finish: (result: ToolResult) => ToolResult,
  ): Promise<ToolResult> {
    const { record, callId } = flight
    const entry = makeEntry(flight, value, prepared, 'inline')
    let resolveDone!: (result: ToolResult) => void
    const done = new Promise<ToolResult>((resolve) => (resolveDone = resolve))
    type Decision =
      | { kind: 'approve'; input: unknown; hasInput: boolean }
      | { kind: 'reject' }
      | { kind: 'expire' }
    let decide!: (decision: Decision) => void
    const decision = new Promise<Decision>((resolve) => (decide = resolve))
    const handler: ConfirmationHandler = {
      check: editCheck(record, callId),
      approve(input, hasInput) {
        decide({ kind: 'approve', input, hasInput })
        return done
      },
      reject() {
        decide({ kind: 'reject' })
        return done
      },
      expire() {
        decide({ kind: 'expire' })
      },
    }
    const end = (type: 'approved' | 'rejected' | 'expired', result: ToolResult) => {
      const final = finish(result)
      events.emit('confirm', { type, entry, result: final })
      resolveDone(final)
      return final
    }
    flight.phase = 'confirming'
    pendingOwner.set(entry.id, record)
    pendingWithdraw.set(entry.id, () => flight.abort('policy'))
    confirmations.add(entry, handler)
    events.emit('confirm', { type: 'requested', entry })
    const outcome = await Promise.race([decision, flight.aborted])
    pendingOwner.delete(entry.id)
    pendingWithdraw.delete(entry.id)
    if (typeof outcome === 'string') {
      confirmations.remove(entry.id)
      return end('rejected', cancelled(outcome))
    }
    if (outcome.kind === 'reject') return end('rejected', cancelled('operator'))
    if (outcome.kind === 'expire') return end('expired', expiredResult())
    let input = value
    if (outcome.hasInput) {
      const checked = await checkInput(record, outcome.input, callId)
      if ('result' in checked) return end('rejected', checked.result)
      input = checked.value
    }
    if (stale(prepared)) {
      return end(
        'approved',
        refuse('stale', 'The form changed after this confirmation was requested', { rev }),
      )
    }
    if (flight.abortedBy) return end('approved', cancelled(flight.abortedBy))
    return end('approved', await execute(flight, input))
  }

  /** Steps 6–7: wait for the scope's slot, run with the deadline and the abort grace. */
  async function execute(flight: Flight, input: unknown): Promise<ToolResult> {
    const { record } = flight
    const node = record.scope
    if ((node.running ? 1 : 0) + node.waiting.length >= limits.queuePerScope) {
      return refuse(
        'busy',
        `Too many calls are waiting in "${node.path || 'the root scope'}"; retry later`,
      )
    }
    const timeoutMs = record.def.timeoutMs ?? limits.callTimeoutMs
    let deadline: ReturnType<typeof setTimeout> | undefined
    let remaining = timeoutMs
    let deadlineStarted = 0
    const startDeadline = () => {
      deadlineStarted = now()
      deadline = unref(setTimeout(() => flight.abort('policy'), Math.max(0, remaining)))
    }
    const pauseDeadline = () => {
      if (deadline === undefined) return
      clearTimeout(deadline)
      deadline = undefined
      remaining -= now() - deadlineStarted
    }
    startDeadline()
    let holdsSlot = false
    const release = () => {
      if (!holdsSlot) return
      holdsSlot = false
      node.running = false
      node.waiting.shift()?.()
    }
    try {
      if (node.running) {
        flight.phase = 'queued'
        let wake!: () => void
        const turn = new Promise<void>((resolve) => (wake = resolve))
        const slot = () => {
          node.running = true
          holdsSlot = true
          wake()
        }
        node.waiting.push(slot)
        const first = await Promise.race([turn.then(() => 'turn' as const), flight.aborted])
        if (first !== 'turn') {
          const at = node.waiting.indexOf(slot)
          if (at >= 0) node.waiting.splice(at, 1)
          else release()
          return cancelled(first)
        }
      } else {
        node.running = true
        holdsSlot = true
      }
      if (flight.abortedBy) {
        release()
        return cancelled(flight.abortedBy)
      }
      flight.phase = 'running'
      const ctx = createContext(flight, pauseDeadline, startDeadline)
      const running = Promise.resolve()
        .then(() => record.def.run(input, ctx))
        .then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        )
      const first = await Promise.race([running, flight.aborted])
      if (typeof first !== 'string') {
        release()
        return settleRun(first, flight, input)
      }
      // Aborted while running: give the run a grace period to stop, then free the slot.
      let grace: ReturnType<typeof setTimeout> | undefined
      const graceOver = new Promise<'grace'>((resolve) => {
        grace = unref(setTimeout(() => resolve('grace'), limits.abortGraceMs))
      })
      const late = await Promise.race([running, graceOver])
      clearTimeout(grace)
      release()
      if (late === 'grace') {
        void running.then((settled) => {
          errorEvent({
            code: 'late_result',
            message: `Tool "${record.name}" settled after its call was abandoned`,
            tool: record.name,
            callId: flight.callId,
            cause: settled.ok ? settled.value : settled.error,
          })
        })
        return cancelled(first)
      }
      // A run that stopped by throwing (usually an AbortError) was cancelled; one that returned a
      // result says what really happened, so nothing is reported as undone that was done.
      if (!late.ok) return cancelled(first)
      return settleRun(late, flight, input)
    } finally {
      pauseDeadline()
      release()
    }
  }

  function settleRun(
    settled: { ok: true; value: unknown } | { ok: false; error: unknown },
    flight: Flight,
    input: unknown,
  ): ToolResult {
    const { record, callId } = flight
    void input
    if (!settled.ok) {
      errorEvent({
        code: 'tool_threw',
        message: `Tool "${record.name}" threw`,
        tool: record.name,
        callId,
        cause: settled.error,
      })
      return errorResult('Tool failed')
    }
    const result = normalize(settled.value, record, callId)
    if (dev && result.status === 'ok' && record.def.output) {
      void checkOutput(record, result.data, callId)
    }
    return result
  }

  async function checkOutput(record: ToolRecord, data: unknown, callId: string) {
    try {
      const checked = await validateWith(record.def.output!, data)
      if ('issues' in checked) {
        errorEvent({
          code: 'output_invalid',
          message: `Tool "${record.name}" returned data that does not match its output schema`,
          tool: record.name,
          callId,
          cause: checked.issues,
        })
      }
    } catch (cause) {
      errorEvent({
        code: 'output_invalid',
        message: `The output schema of "${record.name}" threw`,
        tool: record.name,
        callId,
        cause,
      })
    }
  }

  function createContext(flight: Flight, pause: () => void, resume: () => void): ToolContext {
    const { record, callId } = flight
    return {
      signal: flight.controller.signal,
      callId,
      caller: flight.runAs,
      registerUndo(restore) {
        if (typeof restore !== 'function') {
          misconfigured(
            'invalid_undo',
            `ctx.registerUndo() in "${record.name}" takes a function`,
            record.name,
          )
          return
        }
        if (record.disposed) return
        journal.delete(callId)
        journal.set(callId, { record, restore })
        while (journal.size > limits.undoJournal) {
          journal.delete(journal.keys().next().value as string)
        }
      },
      async confirm(req) {
        if (flight.abortedBy) return { approved: false, reason: 'cancelled' }
        if (!confirmations.hasPresenter()) return { approved: false, reason: 'no_presenter' }
        const summary = isObject(req) && typeof req.summary === 'string' ? req.summary : record.name
        const prepared: Prepared = { summary }
        if (isObject(req) && Array.isArray(req.changes)) {
          prepared.changes = redactChanges(req.changes as FieldChange[], record.sensitive)
        }
        const entry = makeEntry(flight, undefined, prepared, 'inline')
        let decide!: (d: { approved: boolean; reason?: string }) => void
        const decision = new Promise<{ approved: boolean; reason?: string }>((r) => (decide = r))
        confirmations.add(entry, {
          async approve() {
            decide({ approved: true })
            events.emit('confirm', { type: 'approved', entry })
            return deepFreeze(structuredClone({ status: 'ok', data: null }) as ToolResult)
          },
          async reject(reason) {
            decide({ approved: false, ...(reason ? { reason } : {}) })
            const result = deepFreeze(cancelled('operator'))
            events.emit('confirm', { type: 'rejected', entry, result })
            return result
          },
          expire() {
            decide({ approved: false, reason: 'expired' })
            events.emit('confirm', { type: 'expired', entry, result: expiredResult() })
          },
        })
        events.emit('confirm', { type: 'requested', entry })
        pause()
        const answer = await Promise.race([decision, flight.aborted])
        resume()
        if (typeof answer === 'string') {
          confirmations.remove(entry.id)
          return { approved: false, reason: 'cancelled' }
        }
        return answer
      },
      progress(p) {
        if (flight.phase !== 'running' || !isObject(p)) return
        const done = Number(p.done)
        if (!Number.isFinite(done)) return
        const event: ProgressEvent = {
          callId,
          tool: record.name,
          caller: flight.caller,
          done,
        }
        if (typeof p.total === 'number' && Number.isFinite(p.total)) event.total = p.total
        if (typeof p.message === 'string') event.message = p.message
        events.emit('progress', event)
      },
    }
  }

  // --- undo, stop, policy --------------------------------------------------------------------

  async function undo(callId: string): Promise<ToolResult> {
    const entry = typeof callId === 'string' ? journal.get(callId) : undefined
    if (!entry || entry.record.disposed) {
      return deepFreeze(refuse('undo_unavailable', 'There is nothing to undo for this call'))
    }
    journal.delete(callId)
    let result: ToolResult
    try {
      result = normalize(await entry.restore(), entry.record, callId)
    } catch (cause) {
      errorEvent({
        code: 'tool_threw',
        message: `The undo of "${entry.record.name}" threw`,
        tool: entry.record.name,
        callId,
        cause,
      })
      result = deepFreeze(errorResult('Tool failed'))
    }
    events.emit('undo', { callId, tool: entry.record.name, result })
    return result
  }

  function cancelAll(cancelOptions?: { by?: CancelledBy }) {
    const by = cancelOptions?.by
    const reason: CancelledBy = by === 'policy' || by === 'signal' ? by : 'operator'
    for (const flight of [...flights]) if (flight.caller !== 'human') flight.abort(reason)
  }

  const tm: Toolmark = {
    clientId: randomId('page_'),
    dev,
    limits,
    get rev() {
      return rev
    },
    register,
    scope: (name, scopeOptions) => {
      const handle = childScope(root, name, scopeOptions)
      return handle
    },
    manifest,
    describe,
    call,
    confirmations,
    undo,
    canUndo: (callId) => {
      const entry = journal.get(callId)
      return !!entry && !entry.record.disposed
    },
    cancelAll,
    setPolicy(next) {
      policy = applyPolicy(next)
      rateLimiter.reset()
      changed()
    },
    subscribe(listener) {
      const wrapped = (r: number) => listener(r)
      subscribers.add(wrapped)
      return () => {
        subscribers.delete(wrapped)
      }
    },
    events: { on: events.on },
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
          teardown?.()
        } catch (cause) {
          errorEvent({ code: 'consumer_threw', message: 'A consumer teardown threw', cause })
        }
      }
    },
  }
  registries.set(tm, events)
  return tm

  function sanitizeLimits(given: Partial<Limits> | undefined): Partial<Limits> {
    if (!isObject(given)) return {}
    const out: Partial<Limits> = {}
    for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
      const v = given[key]
      if (v === undefined) continue
      if (typeof v === 'number' && v > 0 && (Number.isFinite(v) || key === 'signatureBudget')) {
        out[key] = v
      } else {
        const message = `limits.${key} must be a positive number`
        if (opts.dev ?? defaultDev()) throw new Error(`[toolmark] ${message}`)
      }
    }
    return out
  }
}

/** An AbortError-shaped reason that works where DOMException is missing. */
class DOMExceptionLike extends Error {
  override name = 'AbortError'
}
