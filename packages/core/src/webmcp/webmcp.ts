import { bodyOf } from '../base/registryBody'
import { reportError } from '../events/reportError'
import { errorResult, refuse } from '../base/results'
import { markUntrusted } from '../ai-sdk/markUntrusted'
import { endGrantsOf } from '../confirmations/endGrants'
import type { Consumer, JsonSchema, ManifestEntry, Toolmark, ToolHints, ToolResult } from '../types'
import { hasDeclarativeTwin } from './declarativeForms'
import {
  findModelContext,
  type WebMCPHost,
  type WebMCPModelContext,
  type WebMCPTool,
  type WebMCPToolResponse,
} from './modelContext'

/** Options of {@link webmcp}. */
export interface WebMCPOptions {
  /**
   * The model context to register on. Default: `document.modelContext`, else
   * `navigator.modelContext`, looked up when the consumer is attached.
   */
  modelContext?: WebMCPModelContext
  /**
   * Narrows what browser agents see, on top of the `webmcp` policy: return `false` to keep a
   * tool off `modelContext`. Default: every tool visible to caller `webmcp`.
   */
  filter?: (entry: ManifestEntry) => boolean
}

/** One tool as currently handed to the model context. */
interface HostedTool {
  /** The entry it was registered from; a later entry that says the same keeps it. */
  entry: ManifestEntry
  /** Aborting unregisters the tool and makes its `execute` refuse. */
  readonly controller: AbortController
  /** The sync pass that last found the tool wanted (the others are unregistered). */
  seen: number
}

const describeHost = (host: WebMCPHost) =>
  host.kind === 'native' ? 'Native WebMCP' : 'The WebMCP polyfill'

// Manifest schemas are frozen and shared by every tool made from the same schema object, so
// their JSON text is computed once per object; `null` when JSON cannot carry the schema.
const jsonTexts = new WeakMap<object, string | null>()

const jsonTextOf = (schema: JsonSchema): string | null => {
  let text = jsonTexts.get(schema)
  if (text === undefined) {
    try {
      text = JSON.stringify(schema) ?? null
    } catch {
      text = null
    }
    jsonTexts.set(schema, text)
  }
  return text
}

// What hosts receive: a plain copy of the frozen manifest schema, one per schema object. Hosts
// serialize the schema of every registration, and V8's fast JSON.stringify skips frozen objects
// (in Chromium 156 a frozen schema serializes about 6× slower).
const hostSchemas = new WeakMap<object, JsonSchema>()

const hostSchemaOf = (schema: JsonSchema): JsonSchema => {
  let copy = hostSchemas.get(schema)
  if (!copy) {
    // Only called for schemas that passed `isJson`, so the text is there.
    copy = JSON.parse(jsonTextOf(schema)!) as JsonSchema
    hostSchemas.set(schema, copy)
  }
  return copy
}

let unregisteredReason: Error | undefined

/**
 * The abort reason of every withdrawn registration. One shared object: `abort()` without a reason
 * makes a new DOMException each time, which costs more than the rest of an unregistration.
 */
const unregistered = (): Error =>
  (unregisteredReason ??=
    typeof DOMException === 'function'
      ? new DOMException('The tool was unregistered', 'AbortError')
      : Object.assign(new Error('The tool was unregistered'), { name: 'AbortError' }))

const sameHints = (a: ToolHints, b: ToolHints) =>
  a.readOnly === b.readOnly &&
  a.consequential === b.consequential &&
  a.destructive === b.destructive &&
  a.untrustedContent === b.untrustedContent

const sameSchemaText = (a: JsonSchema | undefined, b: JsonSchema | undefined) =>
  a === b || (a !== undefined && b !== undefined && jsonTextOf(a) === jsonTextOf(b))

/**
 * Whether two entries register as the same WebMCP tool. Entries are cached per registration and
 * schemas per schema object, so an unchanged tool is settled by identity, without reading its
 * schema; a tool registered again with the same text keeps its WebMCP registration.
 */
const sameTool = (a: ManifestEntry, b: ManifestEntry) =>
  a === b ||
  (a.title === b.title &&
    a.description === b.description &&
    sameHints(a.hints, b.hints) &&
    sameSchemaText(a.inputSchema, b.inputSchema) &&
    sameSchemaText(a.outputSchema, b.outputSchema))

const toolDictionary = (entry: ManifestEntry, execute: WebMCPTool['execute']): WebMCPTool => {
  const tool: WebMCPTool = {
    name: entry.name,
    description: entry.description,
    annotations: {
      readOnlyHint: entry.hints.readOnly === true,
      untrustedContentHint: entry.hints.untrustedContent === true,
      consequentialHint: entry.hints.consequential === true || entry.hints.destructive === true,
      ...(entry.hints.destructive === true ? { destructiveHint: true } : {}),
    },
    execute,
  }
  if (entry.title !== undefined) tool.title = entry.title
  if (entry.inputSchema !== undefined) tool.inputSchema = hostSchemaOf(entry.inputSchema)
  // Chrome 159+ reads it; older hosts ignore a member their dictionary does not define.
  if (entry.outputSchema !== undefined && jsonTextOf(entry.outputSchema) !== null) {
    tool.outputSchema = hostSchemaOf(entry.outputSchema)
  }
  return tool
}

/**
 * The result as WebMCP hosts take it. Crossing into the host has JSON semantics (`toJSON`,
 * `Date` → ISO string); a result JSON cannot carry becomes an `error`.
 */
function toWebMCPResponse(result: ToolResult, untrusted = false): WebMCPToolResponse {
  let text: string | undefined
  try {
    text = JSON.stringify(result)
  } catch {
    text = undefined
  }
  if (text === undefined) text = JSON.stringify(errorResult('Result not serializable'))
  let structuredContent = JSON.parse(text) as ToolResult
  if (untrusted) {
    // The same per-result marker as the chat and agent surfaces: `untrustedContent: true`, first.
    structuredContent = markUntrusted(structuredContent) as unknown as ToolResult
    text = JSON.stringify(structuredContent)
  }
  return {
    content: [{ type: 'text', text }],
    structuredContent,
    isError: structuredContent.status !== 'ok',
  }
}

/** Native hosts pass an object; string-based hosts pass JSON text, parsed here. */
const parseInput = (input: unknown): unknown => {
  if (typeof input !== 'string') return input
  try {
    return JSON.parse(input)
  } catch {
    // Left as the raw string: the registry's input validation answers `invalid`.
    return input
  }
}

const linkSignals = (a: AbortSignal, b: AbortSignal | undefined): AbortSignal => {
  if (!b) return a
  if (typeof AbortSignal.any === 'function') return AbortSignal.any([a, b])
  const controller = new AbortController()
  const abort = () => controller.abort()
  if (a.aborted || b.aborted) abort()
  a.addEventListener('abort', abort, { once: true })
  b.addEventListener('abort', abort, { once: true })
  return controller.signal
}

const isAbortSignal = (value: unknown): value is AbortSignal =>
  typeof AbortSignal !== 'undefined' && value instanceof AbortSignal

/**
 * Serves the registry to browser agents through WebMCP (`document.modelContext`): every tool
 * visible to caller `webmcp` is registered with its full name, description, title, input JSON
 * Schema and hints, and kept in sync on every revision. Calls run as caller `webmcp`, so
 * consequential tools wait inline for a person (they are listed only while a confirmation
 * presenter such as `<ConfirmDialog>` is mounted) and destructive tools stay hidden unless the
 * policy allows them.
 *
 * Never throws: without a model context it stays inactive and emits one `webmcp_unavailable`
 * error event; a registration the host rejects emits `webmcp_register_failed` and is retried on
 * the next revision. The returned teardown (from `tm.use`) unregisters everything.
 *
 * A grant lives with the session it was given to: the grants of caller `webmcp` end when this
 * consumer starts serving and when it is torn down.
 *
 * @example
 * ```ts
 * const stop = tm.use(webmcp())
 * // later
 * stop()
 * ```
 */
export function webmcp(options: WebMCPOptions = {}): Consumer {
  return (tm) => {
    const host = findModelContext(options.modelContext)
    if (!host) {
      // Once per registry: its body remembers (an object with no body has nowhere to report).
      const caches = bodyOf(tm)?.caches
      if (caches && caches.webmcpUnavailable !== true) {
        caches.webmcpUnavailable = true
        reportError(tm, {
          code: 'webmcp_unavailable',
          message:
            options.modelContext === undefined
              ? '[toolmark] WebMCP is not available: no document.modelContext. Enable it in ' +
                'Chrome (--enable-features=WebMCP) or install a polyfill such as ' +
                '@mcp-b/webmcp-polyfill.'
              : '[toolmark] WebMCP is not available: the modelContext passed to webmcp() has no ' +
                'registerTool method.',
        })
      }
      return () => {}
    }
    return serve(tm, host, options.filter)
  }
}

/**
 * Which entries go to the model context: not the forms the browser registers itself, and only
 * those the app's filter keeps. A throwing filter is reported once per tool, not on every
 * revision.
 */
function visibility(
  tm: Toolmark,
  filter: WebMCPOptions['filter'],
): (entry: ManifestEntry) => boolean {
  const filterFailures = new Set<string>()
  return (entry) => {
    // A form the browser registers from its `toolname` is not registered a second time.
    if (hasDeclarativeTwin(tm, entry.name)) return false
    if (!filter) return true
    try {
      return filter(entry) === true
    } catch (cause) {
      if (filterFailures.has(entry.name)) return false
      filterFailures.add(entry.name)
      reportError(tm, {
        code: 'webmcp_register_failed',
        message: `[toolmark] The webmcp filter threw for "${entry.name}"; the tool is not exposed.`,
        tool: entry.name,
        cause,
      })
      return false
    }
  }
}

/**
 * The `execute` handed to the host for one registration: it runs the tool as caller `webmcp`
 * while that registration is current, and is stopped with the consumer's `lifetime`.
 */
function executeFor(
  tm: Toolmark,
  registrations: ReadonlyMap<string, HostedTool>,
  lifetime: AbortSignal,
  name: string,
  registration: HostedTool,
): WebMCPTool['execute'] {
  return async (input, client) => {
    // A host may still hold an execute from before the tool was removed or replaced: it must
    // not reach whatever carries that name now.
    if (registrations.get(name) !== registration || registration.controller.signal.aborted) {
      return toWebMCPResponse(
        refuse('unknown_tool', `No tool named ${JSON.stringify(name)}`, { rev: tm.rev }),
      )
    }
    const signal = readSignal(client)
    try {
      const result = await tm.call(name, parseInput(input), {
        caller: 'webmcp',
        signal: linkSignals(lifetime, isAbortSignal(signal) ? signal : undefined),
      })
      return toWebMCPResponse(result, registration.entry.hints.untrustedContent === true)
    } catch {
      // `tm.call` never throws; this keeps the promise to the host even if that ever breaks.
      return toWebMCPResponse(errorResult('Tool failed'))
    }
  }
}

/** Registers the visible tools on the host and keeps them in sync; returns the teardown. */
function serve(tm: Toolmark, host: WebMCPHost, filter: WebMCPOptions['filter']): () => void {
  const registrations = new Map<string, HostedTool>()
  // Calls still running when the consumer goes away are stopped: no agent is left to answer.
  const lifetime = new AbortController()

  const visible = visibility(tm, filter)

  // A registration the host rejects is retried on every revision, but reported once per entry;
  // so is a schema JSON cannot carry.
  const reportedEntries = new WeakSet<ManifestEntry>()

  const register = (entry: ManifestEntry, pass: number) => {
    const registration: HostedTool = { entry, controller: new AbortController(), seen: pass }
    registrations.set(entry.name, registration)
    const fail = (cause: unknown) => {
      // Our own abort (removed or disposed while registering) is not a failure.
      if (registration.controller.signal.aborted) return
      if (registrations.get(entry.name) === registration) registrations.delete(entry.name)
      registration.controller.abort(unregistered())
      if (reportedEntries.has(entry)) return
      reportedEntries.add(entry)
      reportError(tm, {
        code: 'webmcp_register_failed',
        message: `[toolmark] ${describeHost(host)} rejected tool "${entry.name}": ${String(cause)}. It is retried on the next revision.`,
        tool: entry.name,
        cause,
      })
    }
    try {
      const pending = host.context.registerTool(
        toolDictionary(
          entry,
          executeFor(tm, registrations, lifetime.signal, entry.name, registration),
        ),
        { signal: registration.controller.signal },
      )
      if (pending && typeof (pending as Promise<unknown>).then === 'function') {
        ;(pending as Promise<unknown>).then(undefined, fail)
      }
    } catch (cause) {
      fail(cause)
    }
  }

  const unregister = (name: string, registration: HostedTool) => {
    if (registrations.get(name) === registration) registrations.delete(name)
    registration.controller.abort(unregistered())
  }

  /** Whether the host can take the entry's schema (reported once per entry when it cannot). */
  const isJson = (entry: ManifestEntry): boolean => {
    if (entry.inputSchema === undefined || jsonTextOf(entry.inputSchema) !== null) return true
    if (!reportedEntries.has(entry)) {
      reportedEntries.add(entry)
      reportError(tm, {
        code: 'webmcp_register_failed',
        message: `[toolmark] The input schema of "${entry.name}" is not JSON; the tool is not exposed.`,
        tool: entry.name,
      })
    }
    return false
  }

  let pass = 0

  /**
   * Brings the model context in line with the manifest. Unchanged tools cost an identity check
   * each (entries and schemas are cached), so a revision that adds or removes one tool registers
   * or unregisters only that one.
   */
  const sync = () => {
    if (lifetime.signal.aborted) return
    let tools: readonly ManifestEntry[]
    try {
      tools = tm.manifest({ caller: 'webmcp', detail: 'full' }).tools
    } catch (cause) {
      reportError(tm, {
        code: 'webmcp_register_failed',
        message: '[toolmark] Could not read the webmcp manifest; WebMCP tools were not updated.',
        cause,
      })
      return
    }
    const current = ++pass
    const added: ManifestEntry[] = []
    let wanted = 0
    for (const entry of tools) {
      if (!visible(entry)) continue
      const registration = registrations.get(entry.name)
      if (registration && sameTool(registration.entry, entry)) {
        registration.entry = entry
        registration.seen = current
        wanted++
      } else if (isJson(entry)) {
        added.push(entry)
        wanted++
      }
    }
    // Unregister first, so a changed tool can take its name back in the same pass.
    if (registrations.size + added.length > wanted) {
      for (const [name, registration] of registrations) {
        if (registration.seen !== current) unregister(name, registration)
      }
    }
    for (const entry of added) {
      // A filter, the host or an error listener may have disposed this consumer meanwhile.
      if (lifetime.signal.aborted) return
      register(entry, current)
    }
  }

  // A grant given to an earlier session (another consumer, or approved after it ended) covers
  // none of this one's calls.
  endGrantsOf(tm, 'webmcp')
  const unsubscribe = tm.subscribe(sync)
  sync()

  return () => {
    if (lifetime.signal.aborted) return
    lifetime.abort()
    unsubscribe()
    for (const registration of registrations.values()) {
      registration.controller.abort(unregistered())
    }
    registrations.clear()
    endGrantsOf(tm, 'webmcp')
  }
}

const readSignal = (client: unknown): unknown => {
  if (client === null || typeof client !== 'object') return undefined
  try {
    return (client as { signal?: unknown }).signal
  } catch {
    return undefined
  }
}
