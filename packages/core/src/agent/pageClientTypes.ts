import type { MessageLimits } from '../protocol/bounds'
import type { Transport } from '../protocol/messages'
import type { Manifest, ManifestEntry, ToolResult } from '../types'

/** The page client's public shapes (`createPageClient`, agent/createPageClient.ts). */

/** Options of `createPageClient`. */
export interface PageClientOptions {
  /** The wire to the page (or pages). The client never closes it: its owner does. */
  transport: Transport
  /** How long a call or describe may take before it is cancelled, in ms. Default 120 000. */
  deadlineMs?: number
  /** Talk to this page only. Default: every page; the first to send a manifest is the default. */
  clientId?: string
  /** Largest inbound message in UTF-8 bytes. Default 16 MiB. */
  maxMessageBytes?: number
  /** Deepest inbound message. Default 128. */
  maxDepth?: number
  /**
   * What the page accepts (its `limits.messageBytes` and `limits.messageDepth`). A call that
   * would exceed them resolves `invalid` here instead of being dropped there. Default 1 MiB, 64.
   */
  pageLimits?: Partial<MessageLimits>
}

/** Per-call options of `client.call` and `client.describe`. */
export interface PageCallOptions {
  /** Aborting sends `cancel` and resolves `cancelled signal` at once. */
  signal?: AbortSignal
  /** The page to call. Default: the client's default page. */
  clientId?: string
  /** The manifest revision acted on. Default: the latest one received from that page. */
  rev?: number
  /** Overrides the client's `deadlineMs` for this call. */
  deadlineMs?: number
  /** Progress of this call only (the client-wide `onProgress` hears every call). */
  onProgress?: (event: PageProgressEvent) => void
}

/** A deferred confirmation a call of this client created has ended. */
export interface PageConfirmedEvent {
  clientId: string
  confirmId: string
  /** The tool whose call asked for the confirmation. */
  tool: string
  /** The final outcome: the tool's result once approved, `cancelled operator` when denied… */
  result: ToolResult
}

/** Options of `client.outcome`. */
export interface PageOutcomeOptions {
  /**
   * Stops waiting: the returned promise rejects with `signal.reason`. The confirmation itself
   * stays open in the page, and its outcome is still remembered when it arrives.
   */
  signal?: AbortSignal
}

/** A running call reported progress. */
export interface PageProgressEvent {
  clientId: string
  /** The call's id on the wire. */
  id: string
  tool: string
  done: number
  total?: number
  message?: string
}

/** The agent's handle on one or more pages. Nothing here throws for protocol-level failures. */
export interface PageClient {
  /** Resolves with the default page's first manifest. Stays pending if no page ever answers. */
  readonly ready: Promise<Manifest>
  /** The default page's latest manifest. */
  readonly manifest: Manifest | undefined
  /** The latest manifest of every page heard from, by `clientId`. */
  readonly manifests: ReadonlyMap<string, Manifest>
  /** The default page: `options.clientId`, or the first page that sent a manifest. */
  readonly clientId: string | undefined
  /** Calls a tool on a page. Resolves with a frozen `ToolResult`; never rejects. */
  call(tool: string, input?: unknown, options?: PageCallOptions): Promise<ToolResult>
  /** One tool's full manifest entry (`ok(entry)`), or `refused unknown_tool`. */
  describe(tool: string, options?: PageCallOptions): Promise<ToolResult<ManifestEntry>>
  /** Cancels one pending `call` (pass its promise) or, with no argument, every pending call. */
  cancel(pending?: Promise<ToolResult>): void
  /**
   * The final `ToolResult` of a deferred confirmation one of this client's calls received
   * (`needs_confirmation { confirmId }`), once the person has decided — also when the outcome
   * arrived before this call (the last 256 outcomes are remembered). Resolves
   * `refused confirmation_expired` at once for an id this client is not waiting for and no
   * longer remembers. Rejects, leaving the confirmation open in the page, when `signal`
   * aborts (with its reason) or the client closes or its transport closes for good (with an
   * `AbortError`): the wait ended, not the confirmation.
   */
  outcome(confirmId: string, options?: PageOutcomeOptions): Promise<ToolResult>
  onConfirmed(listener: (event: PageConfirmedEvent) => void): () => void
  onProgress(listener: (event: PageProgressEvent) => void): () => void
  onManifest(listener: (manifest: Manifest, clientId: string) => void): () => void
  /**
   * Cancels pending calls (`cancelled signal`), ends every `outcome` wait and stops listening.
   * Idempotent. Runs by itself when the transport reports that it closed for good; pending
   * calls then end `{ status: 'error', message: 'The page disconnected before the call
   * finished' }`, since the page may have run them.
   */
  close(): void
}
