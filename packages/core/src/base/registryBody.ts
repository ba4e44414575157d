import type { AnchorElement, Caller, ErrorEvent, InteractionEvent, ToolResult } from '../types'

// One body per registry (DESIGN §11): what a registry carries for the parts built on it lives in
// one record that `createToolmark` assembles, reached through `bodyOf(tm)` alone. It sits in
// `base/` because every layer reads it (`events/` reports through it); a field whose type lives
// above `base/` is an `unknown` slot, written and narrowed by the one module named beside it.

/** What a run wrapper is told of the run it wraps. */
export interface RunInfo {
  readonly callId: string
  readonly tool: string
  /** Who the run acts as: the caller, or `human` for a deferred call a person approved. */
  readonly caller: Caller
}

/** What a run gives back: its normalized result (a promise of one never rejects). */
export type RunOutcome = ToolResult | Promise<ToolResult>

/**
 * Wraps one run: calls `execute` once, synchronously, and returns what it gave, unchanged. It
 * never throws: the consumer guards what it calls of the app's (`otel()` its context API).
 */
export type RunWrapper = (run: RunInfo, execute: () => RunOutcome) => RunOutcome

/** What the registry itself reads of its anchors (`tm.anchor`); `anchors/anchors.ts` has the rest. */
export interface AnchorLookup {
  element(tool: string, param?: string): AnchorElement | undefined
}

/** What a registry tells its own linter about a tool, beyond the manifest entry. */
export interface DefinitionFacts {
  /** Whether the tool says what a confirmation shows (`summary`, or `confirmation().summary`). */
  readonly summary: boolean
  /** Whether a dot path of `input` is redacted (`sensitive`, form fields marked sensitive). */
  sensitive(path: string, input?: unknown): boolean
}

/** What the WebMCP export needs to know of a form: whether it carries `toolname`. */
export interface DeclarativeFormLike {
  hasAttribute(name: string): boolean
  getAttribute(name: string): string | null
}

/** A registered tool, as far as the parts reading the body need it (`tool/toolRecord.ts`). */
export interface RegisteredTool {
  readonly def: { readonly description?: unknown }
}

/** Per-registry memos and once-only flags: each set by its owner on first use, each optional. */
export interface RegistryCaches {
  /** `observers/toolCallStore.ts`: the one pair of listeners routing calls to watched tools. */
  toolCalls?: unknown
  /** `ag-ui/agUiTools.ts`: the AG-UI tool list of the last manifest. */
  agUiTools?: unknown
  /** `ai-sdk/chatToolList.ts`: the chat tool list of the last manifest. */
  chatTools?: unknown
  /** `webmcp/webmcp.ts`: whether this registry was told WebMCP is unavailable. */
  webmcpUnavailable?: boolean
}

/** The optional parts lent to a registry (`confirmations/feature.ts`). */
export interface InstalledFeatures {
  /** `confirmations/questionSupport.ts`: the code `questions()` lends (`ctx.ask`). */
  questions?: unknown
  /** `confirmations/questionSupport.ts`: the form `questions({ form })` gave its presenters. */
  questionForm?: unknown
}

/** Everything a registry carries beyond its public shape. Internal: no entry exports it. */
export interface RegistryBody {
  /** Emits an `error` event on the registry (`events/reportError.ts`). */
  readonly report: (event: ErrorEvent) => void
  /** A registered tool's facts beyond its manifest entry (`registry/definitions.ts`). */
  readonly definitions: (name: string) => DefinitionFacts | undefined
  /** The registered tools by full name, whatever a caller may see of them. */
  readonly tools: ReadonlyMap<string, RegisteredTool>
  /** What wraps every run, the first outermost (`call/runWrappers.ts`). */
  readonly runWrappers: RunWrapper[]
  /**
   * The registry's `Anchors` (`anchors/anchors.ts`), made when the first anchor is added: a
   * registry nothing anchors to carries none of that code.
   */
  anchors: AnchorLookup | undefined
  /** Emits an `interaction` event on the registry: what its anchors saw a person do. */
  readonly interaction: (event: InteractionEvent) => void
  /** The newest tour and its listeners (`tour/currentTour.ts`), from the first tour on. */
  currentTour: unknown
  /** The forms behind the registry's tools, by full tool name (`webmcp/declarativeForms.ts`). */
  readonly declarativeForms: Map<string, DeclarativeFormLike>
  readonly features: InstalledFeatures
  readonly caches: RegistryCaches
}

let read: (tm: object) => RegistryBody | undefined

/**
 * A base whose constructor returns the object it is given, so that a subclass's private field is
 * added to that object itself (a class constructor may return another object; the fields of the
 * classes below are then defined on it).
 */
class Given {
  constructor(target: object) {
    return target
  }
}

/**
 * Puts the body on the registry object `createToolmark` built, in a private field: no key, symbol
 * or enumeration of the registry reaches it, and only `bodyOf` reads it (the way `QueryClient`
 * keeps its caches in `#` fields). The registry stays the object literal it was built as, which
 * V8 keeps fast: copying its members onto an instance of a class instead made `tm.call` slower.
 */
class RegistryHandle extends Given {
  readonly #body: RegistryBody
  constructor(target: object, body: RegistryBody) {
    super(target)
    this.#body = body
  }
  static {
    read = (tm) => (#body in tm ? (tm as RegistryHandle).#body : undefined)
  }
}

/** Gives `registry` its body; once, before anyone else holds the registry. */
export function attachBody<T extends object>(registry: T, body: RegistryBody): T {
  new RegistryHandle(registry, body)
  return registry
}

/** The body of a registry made by `createToolmark`; `undefined` for any other value. */
export const bodyOf = (tm: unknown): RegistryBody | undefined =>
  (typeof tm === 'object' || typeof tm === 'function') && tm !== null ? read(tm) : undefined
