import type { InternalConfirmationStore } from './confirmationStore'
import type { Emitter } from './emitter'
import type { FlightList } from './flight'
import type { CompiledCallerPolicy, RateLimiter } from './policy'
import type { SensitivePaths } from './redact'
import type { ScopeQueue } from './scopeQueue'
import {
  CALLERS,
  type Caller,
  type CancelledBy,
  type ConfirmMode,
  type ErrorEvent,
  type JsonSchema,
  type Limits,
  type ManifestEntry,
  type Scope,
  type ToolClass,
  type ToolDefinition,
  type ToolHints,
  type ToolResult,
} from './types'

/**
 * The shapes the registry's parts share (registration, manifest, call pipeline, confirmations,
 * undo). Nothing here is public API.
 */

/** A scope in the registry's tree; the root has the path `''`. */
export interface ScopeNode {
  readonly path: string
  readonly parent: ScopeNode | undefined
  when: boolean
  disposed: boolean
  readonly children: Set<ScopeNode>
  readonly tools: Set<ToolRecord>
  /** Calls of this scope's tools run one at a time (DESIGN §3.4 step 6). */
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
}

/** Where a call is: withdrawal only touches calls that have not started running. */
export type Phase = 'checking' | 'confirming' | 'queued' | 'running' | 'done'

/** One call on its way through the pipeline. */
export interface Flight {
  readonly callId: string
  readonly record: ToolRecord
  /** Who asked (events, policy, Stop). */
  readonly caller: Caller
  /** Who the run sees: `human` for an approved deferred confirmation. */
  readonly runAs: Caller
  /** The run's `ctx.signal`; aborted with the call. */
  readonly signal: AbortSignal
  phase: Phase
  abortedBy?: CancelledBy
  /** Resolves with the reason once the call is aborted. */
  readonly aborted: Promise<CancelledBy>
  abort(by: CancelledBy): void
  /** Told of an abort, once, by a run that is under way (cheaper than `aborted` for every run). */
  onAbort?: (by: CancelledBy) => void
  /** The run's deadline, made when first needed (a run that returns at once never needs one). */
  deadline?: RunDeadline
}

/** A run's deadline: started when the call waits or its run goes async, paused for a person. */
export interface RunDeadline {
  start(): void
  stop(): void
  pause(): void
  resume(): void
}

/** Whose result is being normalized: names the tool and the call in `error` events. */
export interface ResultSource {
  readonly record?: ToolRecord
  /** Read only when something is reported (a flight mints its id on first read). */
  readonly callId: string
}

/** Whether a caller may use a tool now, and if not, why. */
export type Access = 'ok' | 'hidden' | 'denied' | 'no_presenter'

/** What the registry lends to the parts of its call pipeline. */
export interface RegistryInternals {
  readonly dev: boolean
  readonly limits: Readonly<Limits>
  readonly events: Emitter
  readonly confirmations: InternalConfirmationStore
  readonly tools: ReadonlyMap<string, ToolRecord>
  /** Calls between lookup and their end, for Stop and withdrawal. */
  readonly flights: FlightList
  rev(): number
  access(record: ToolRecord, caller: Caller): Access
  policyOf(caller: Caller): CompiledCallerPolicy
  readonly rateLimiter: RateLimiter
  confirmMode(caller: Caller): ConfirmMode
  /** Development throws with the fix; production emits an `error` event. */
  misconfigured(code: string, message: string, tool?: string): void
  errorEvent(event: ErrorEvent): void
  /** Clones and freezes what a tool returned; reports and replaces anything else. */
  normalize(raw: unknown, source: ResultSource): ToolResult
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

export const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object') return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

export const isAbortSignal = (v: unknown): v is AbortSignal =>
  isObject(v) &&
  typeof v.aborted === 'boolean' &&
  typeof (v as { addEventListener?: unknown }).addEventListener === 'function'

export const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  v !== null &&
  (typeof v === 'object' || typeof v === 'function') &&
  typeof (v as { then?: unknown }).then === 'function'

export const isCaller = (v: unknown): v is Caller => (CALLERS as readonly unknown[]).includes(v)

/** Lets Node exit while a deadline or expiry timer is pending. */
export function unref<T>(timer: T): T {
  ;(timer as { unref?: () => void }).unref?.()
  return timer
}
