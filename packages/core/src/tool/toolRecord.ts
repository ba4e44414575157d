import type { Emitter } from '../events/emitter'
import type { Problem } from '../base/problem'
import type { CompiledCallerPolicy, RateLimiter } from './policy'
import type { SensitivePaths } from '../redaction/redact'
import type { ScopeQueue } from './scopeQueue'
import type { JsonSchemaConverter } from '../schema/jsonSchemaConverter'
import type { InstalledFeatures } from '../base/registryBody'
import type {
  Caller,
  ConfirmMode,
  ErrorEvent,
  JsonSchema,
  Limits,
  ManifestEntry,
  Scope,
  ToolClass,
  ToolDefinition,
  ToolHints,
  ToolResult,
  VerifyOptions,
} from '../types'

/**
 * One registered tool, the scope tree it lives in, and what the registry lends to the parts that
 * serve it (manifest, calls, confirmations, undo). Nothing here is public API.
 */

/** A scope in the registry's tree; the root has the path `''`. */
export interface ScopeNode {
  readonly path: string
  readonly parent: ScopeNode | undefined
  when: boolean
  disposed: boolean
  readonly children: Set<ScopeNode>
  readonly tools: Set<ToolRecord>
  /** Calls of this scope's tools take turns (DESIGN §3.4 step 5). */
  readonly queue: ScopeQueue
  readonly handle: Scope
}

/** One registered tool. */
export interface ToolRecord {
  readonly def: ToolDefinition<any, any>
  readonly name: string
  readonly llmName: string
  readonly scope: ScopeNode
  readonly hints: ToolHints
  readonly cls: ToolClass
  readonly sensitive: SensitivePaths
  disposed: boolean
  /** The resolved input JSON Schema; `null` when there is none, `undefined` until resolved. */
  schema?: JsonSchema | null
  summaryEntry?: ManifestEntry
  fullEntry?: ManifestEntry
  /** `access()`'s answers per caller, valid while `accessGeneration` is the registry's. */
  access?: Record<Caller, Access | undefined>
  accessGeneration?: number
}

/** Whether a caller may use a tool now, and if not, why. */
export type Access = 'ok' | 'hidden' | 'denied' | 'no_presenter' | 'no_verifier'

/** Whose result is being normalized: names the tool and the call in `error` events. */
export interface ResultSource {
  readonly record?: ToolRecord
  /** Read only when something is reported (a call mints its id on first read). */
  readonly callId: string
}

/** The tool (and call, when there is one) an `error` event is about. */
export interface ToolErrorSource {
  readonly record?: ToolRecord
  readonly callId?: string
}

/** What the registry lends to the parts that serve its tools. */
export interface RegistryInternals {
  readonly dev: boolean
  readonly limits: Readonly<Limits>
  readonly events: Emitter
  readonly tools: ReadonlyMap<string, ToolRecord>
  rev(): number
  /** What `caller` may do with the tool; `actingFor` names a tour step's starter (see `Call`). */
  access(record: ToolRecord, caller: Caller, actingFor?: Caller): Access
  /** A caller's rules; for `tour`, the tour's and its starter's both, the stricter winning. */
  policyOf(caller: Caller, actingFor?: Caller): CompiledCallerPolicy
  readonly rateLimiter: RateLimiter
  confirmMode(caller: Caller): ConfirmMode
  /** Step-up verification options (`confirm.verifier`, `origin`, `rpId`). */
  readonly verification: Readonly<VerifyOptions>
  /** Whether this caller's approvals of this tool need step-up verification. */
  verifies(record: ToolRecord, caller: Caller, actingFor?: Caller): boolean
  /** Development throws with the fix; production emits an `error` event. */
  misconfigured(code: string, problem: Problem, tool?: string): void
  errorEvent(event: ErrorEvent): void
  /**
   * An `error` event about one tool's own code (it threw, settled late, returned something
   * unusable). Its message is the problem `detail` (the code in words by default) naming the
   * tool: explained in development, short in production (misconfiguration.ts).
   */
  toolError(code: string, source: ToolErrorSource, cause: unknown, detail?: string): void
  /** The registry's `jsonSchema` option, for schemas that carry no Standard JSON Schema. */
  readonly converter: JsonSchemaConverter | undefined
  /** Copies, checks and freezes what a tool returned; reports and replaces anything else. */
  normalize(raw: unknown, source: ResultSource): ToolResult
  /** The optional parts lent to the registry (its body's), e.g. the question code. */
  readonly features: InstalledFeatures
}
