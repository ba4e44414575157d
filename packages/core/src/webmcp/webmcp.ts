import { reportError } from '../createToolmark'
import { errorResult, refuse } from '../results'
import type { Consumer, ManifestEntry, Toolmark, ToolResult } from '../types'
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
interface Registration {
  fingerprint: string
  /** Aborting unregisters the tool and makes its `execute` refuse. */
  controller: AbortController
}

const reportedUnavailable = new WeakSet<Toolmark>()

const describeHost = (host: WebMCPHost) =>
  host.kind === 'native' ? 'Native WebMCP' : 'The WebMCP polyfill'

/**
 * The fields that, when they change, require registering the tool again; `undefined` when the
 * schema cannot be written as JSON (the host could not take it either).
 */
const fingerprintOf = (entry: ManifestEntry): string | undefined => {
  try {
    return JSON.stringify([
      entry.title ?? null,
      entry.description,
      entry.hints,
      entry.inputSchema ?? null,
    ])
  } catch {
    return undefined
  }
}

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
  if (entry.inputSchema !== undefined) tool.inputSchema = entry.inputSchema
  return tool
}

/**
 * The result as WebMCP hosts take it. Crossing into the host has JSON semantics (`toJSON`,
 * `Date` → ISO string); a result JSON cannot carry becomes an `error`.
 */
function toWebMCPResponse(result: ToolResult): WebMCPToolResponse {
  let text: string | undefined
  try {
    text = JSON.stringify(result)
  } catch {
    text = undefined
  }
  if (text === undefined) text = JSON.stringify(errorResult('Result not serializable'))
  const structuredContent = JSON.parse(text) as ToolResult
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
      if (!reportedUnavailable.has(tm)) {
        reportedUnavailable.add(tm)
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

function serve(tm: Toolmark, host: WebMCPHost, filter: WebMCPOptions['filter']): () => void {
  const registrations = new Map<string, Registration>()
  // Calls still running when the consumer goes away are stopped: no agent is left to answer.
  const lifetime = new AbortController()

  // A throwing filter is reported once per tool, not on every revision.
  const filterFailures = new Set<string>()

  const visible = (entry: ManifestEntry): boolean => {
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

  const executeFor = (name: string, registration: Registration): WebMCPTool['execute'] => {
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
          signal: linkSignals(lifetime.signal, isAbortSignal(signal) ? signal : undefined),
        })
        return toWebMCPResponse(result)
      } catch {
        // `tm.call` never throws; this keeps the promise to the host even if that ever breaks.
        return toWebMCPResponse(errorResult('Tool failed'))
      }
    }
  }

  const register = (entry: ManifestEntry, fingerprint: string) => {
    const registration: Registration = { fingerprint, controller: new AbortController() }
    registrations.set(entry.name, registration)
    const fail = (cause: unknown) => {
      // Our own abort (removed or disposed while registering) is not a failure.
      if (registration.controller.signal.aborted) return
      if (registrations.get(entry.name) === registration) registrations.delete(entry.name)
      registration.controller.abort()
      reportError(tm, {
        code: 'webmcp_register_failed',
        message: `[toolmark] ${describeHost(host)} rejected tool "${entry.name}": ${String(cause)}. It is retried on the next revision.`,
        tool: entry.name,
        cause,
      })
    }
    try {
      const pending = host.context.registerTool(
        toolDictionary(entry, executeFor(entry.name, registration)),
        { signal: registration.controller.signal },
      )
      if (pending && typeof (pending as Promise<unknown>).then === 'function') {
        ;(pending as Promise<unknown>).then(undefined, fail)
      }
    } catch (cause) {
      fail(cause)
    }
  }

  const sync = () => {
    if (lifetime.signal.aborted) return
    let tools: ManifestEntry[]
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
    const wanted = new Map<string, { entry: ManifestEntry; fingerprint: string }>()
    for (const entry of tools) {
      if (!visible(entry)) continue
      const fingerprint = fingerprintOf(entry)
      if (fingerprint !== undefined) wanted.set(entry.name, { entry, fingerprint })
      else {
        reportError(tm, {
          code: 'webmcp_register_failed',
          message: `[toolmark] The input schema of "${entry.name}" is not JSON; the tool is not exposed.`,
          tool: entry.name,
        })
      }
    }
    // Unregister first, so a changed tool can take its name back in the same pass.
    for (const [name, registration] of [...registrations]) {
      if (wanted.get(name)?.fingerprint !== registration.fingerprint) {
        registrations.delete(name)
        registration.controller.abort()
      }
    }
    for (const [name, { entry, fingerprint }] of wanted) {
      if (!registrations.has(name)) register(entry, fingerprint)
    }
  }

  const unsubscribe = tm.subscribe(sync)
  sync()

  return () => {
    if (lifetime.signal.aborted) return
    lifetime.abort()
    unsubscribe()
    for (const registration of registrations.values()) registration.controller.abort()
    registrations.clear()
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
