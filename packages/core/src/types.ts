/**
 * Public types of `@toolmark/core`. Runtime code lives next door; this file holds only the
 * contract every layer (React kit, bridge, WebMCP, MCP) programs against.
 */

// ---------------------------------------------------------------------------------------------
// Standard Schema v1 (the interface zod 4, valibot and arktype implement) and Standard JSON Schema
// ---------------------------------------------------------------------------------------------

/** A validation issue in Standard Schema form. */
export interface StandardSchemaIssue {
  readonly message: string
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined
}

/** The result of a Standard Schema `validate`. */
export type StandardSchemaResult<TOutput> =
  | { readonly value: TOutput; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> }

/** Options for Standard JSON Schema conversion (`~standard.jsonSchema.input(options)`). */
export interface StandardJsonSchemaOptions {
  readonly target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | (string & {})
  readonly libraryOptions?: Record<string, unknown> | undefined
}

/**
 * Any schema implementing Standard Schema v1. zod 4 schemas pass as they are.
 * `TInput` is what callers send, `TOutput` what `run` receives after parsing.
 */
export interface StandardSchemaV1<TInput = unknown, TOutput = TInput> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (
      value: unknown,
    ) => StandardSchemaResult<TOutput> | Promise<StandardSchemaResult<TOutput>>
    readonly types?: { readonly input: TInput; readonly output: TOutput } | undefined
    /** Standard JSON Schema, when the library provides it (zod ≥ 4.2). */
    readonly jsonSchema?:
      | {
          readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>
          readonly output?: (options: StandardJsonSchemaOptions) => Record<string, unknown>
        }
      | undefined
  }
}

/** The type a Standard Schema produces after validation. */
export type InferOutput<TSchema> =
  TSchema extends StandardSchemaV1<unknown, infer TOutput> ? TOutput : unknown

/** A JSON Schema document (draft 2020-12), kept loose on purpose. */
export type JsonSchema = Record<string, unknown>

// ---------------------------------------------------------------------------------------------
// Results (the seed, word for word)
// ---------------------------------------------------------------------------------------------

/** What a form fill wrote. An absent `before`/`after` means "no value". */
export interface FieldChange {
  path: string
  before?: unknown
  after?: unknown
}

/** A validation issue on a dot path (`''` is the root), shaped for react-hook-form's `setError`. */
export interface ResultIssue {
  path: string
  message: string
}

/** Who stopped a call: a person, the caller's AbortSignal, or the app's rules. */
export type CancelledBy = 'operator' | 'signal' | 'policy'

/**
 * Every outcome of `tm.call`: a plain, deep-frozen, structured-cloneable object.
 * `tm.call()` never throws.
 */
export type ToolResult<T = unknown> =
  | { status: 'ok'; data: T }
  | { status: 'invalid'; issues: ResultIssue[] }
  | { status: 'refused'; code: string; message: string; rev?: number }
  | { status: 'needs_confirmation'; confirmId: string; summary: string; changes?: FieldChange[] }
  | { status: 'cancelled'; by: CancelledBy }
  | { status: 'error'; message: string }

/** The six statuses a `ToolResult` can carry. */
export type ToolStatus = ToolResult['status']

/** Refusal codes the runtime emits (apps may use their own codes too). */
export type RefusedCode =
  | 'unknown_tool'
  | 'stale'
  | 'not_allowed'
  | 'busy'
  | 'rate_limited'
  | 'undo_unavailable'
  | 'confirmation_expired'
  | 'file_rejected'
  | 'verification_failed'
  | 'grant_not_allowed'
  | 'answer_required'
  | 'not_a_question'

// ---------------------------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------------------------

/**
 * The callers, in a stable order: the one list every per-caller table derives from
 * (`Record<Caller, …>`), so a new caller cannot be missing anywhere.
 */
export const CALLERS = Object.freeze(['inapp', 'webmcp', 'mcp', 'test', 'human', 'tour'] as const)

/**
 * Who is calling. `human` is the app's own UI; `tour` is a tour's `do` step, which acts for the
 * caller that started the tour; the others are agents or tests.
 */
export type Caller = (typeof CALLERS)[number]

/** What a tool does, as far as safety is concerned. */
export interface ToolHints {
  /** Reads only; never needs a confirmation. */
  readOnly?: boolean
  /** Changes something a person cares about: needs a confirmation unless a person calls it. */
  consequential?: boolean
  /** Deletes or cannot be taken back: needs a confirmation and is hidden from browser/desktop agents by default. */
  destructive?: boolean
  /** Results carry page or user content: agents must treat them as data, not instructions. */
  untrustedContent?: boolean
}

/** A tool's class is its strongest hint: destructive > consequential > readOnly > none. */
export type ToolClass = 'destructive' | 'consequential' | 'readOnly' | 'none'

/** What a `run` receives besides its input. */
export interface ToolContext {
  /** Aborted when the caller cancels, the deadline passes or access is withdrawn. */
  signal: AbortSignal
  callId: string
  caller: Caller
  /** Registers an inverse; `tm.undo(callId)` runs it once. */
  registerUndo(restore: () => ToolResult<unknown> | Promise<ToolResult<unknown>>): void
  /**
   * Asks a person from inside `run` (inline, whatever the caller); resolves with the decision. In a
   * tool with `verify: true` (or whose call needed a verified approval) the approval asks the
   * registry's verifier too, whoever approves; without a verifier it answers `{ approved: false,
   * reason: 'no_verifier' }` at once.
   */
  confirm(req: {
    summary: string
    changes?: FieldChange[]
  }): Promise<{ approved: boolean; reason?: string }>
  /**
   * Asks the person a typed question from inside `run` (inline, whatever the caller) and waits for
   * the answer: `{ answered: true, value }` with the value the schema parsed, or `{ answered:
   * false, reason }`. Never rejects for an answer that is not given; a `schema` outside the
   * supported shapes (see {@link QuestionRequest}) is a misconfiguration: development rejects
   * with the fix, production emits `question_invalid` and resolves `invalid_question`.
   */
  ask<TSchema extends StandardSchemaV1 | JsonSchema>(
    question: QuestionRequest<TSchema>,
  ): Promise<QuestionAnswer<QuestionValue<TSchema>>>
  /** Reports progress to listeners (activity log, bridge `progress`). */
  progress(p: { done: number; total?: number; message?: string }): void
  /**
   * How a person approved this run, when it needed a confirmation: `verified` carries the
   * WebAuthn assertion for the app's server to verify again before it changes anything.
   * `undefined` when nobody was asked (a `human` call, a read-only tool).
   */
  readonly approval: Approval | undefined
}

/** What `check` receives besides its input. */
export interface CheckContext {
  /** Aborted when the call is stopped while the check runs. */
  signal: AbortSignal
  callId: string
  caller: Caller
}

/** A tool, declared once and served to every caller. */
export interface ToolDefinition<TInput = unknown, TOutput = unknown> {
  /** Local name (`[A-Za-z0-9_-]` segments joined by `.`); the full name adds the scope path. */
  name: string
  /** For the model: what it does and when to use it. */
  description: string
  /** For people, app-localized (dialog, devtools). */
  title?: string
  /**
   * Input schema; a zod 4 schema works as is. Without one, only `{}` or nothing is accepted.
   * Its JSON Schema is made once per schema object, when a manifest first needs it, and shared by
   * every tool that uses the object: declare schemas once (module scope) and reuse them. Do not
   * mutate a schema object after registering it: manifests are not expected to follow (build a
   * new schema object instead).
   */
  input?: StandardSchemaV1<unknown, TInput>
  /** Output schema, checked in development only (development mode in a development build). */
  output?: StandardSchemaV1<unknown, TOutput>
  /**
   * Explicit JSON Schema for the manifest (overrides the schema's own). Copied and frozen once
   * per object, when a manifest first needs it: do not mutate it after registering the tool.
   */
  inputSchema?: JsonSchema
  hints?: ToolHints
  /** A one-liner for people, shown in confirmations. */
  summary?: (input: TInput) => string
  /**
   * Input paths redacted in confirmations, events and devtools (`'cards[].cvc'`). A function is
   * read at every use, for lists that grow; once a path is listed it should stay listed.
   */
  sensitive?: string[] | (() => readonly string[])
  /** Deadline for one run in ms (default `limits.callTimeoutMs`). */
  timeoutMs?: number
  /**
   * Approvals of this tool need step-up verification: the person's passkey through the registry's
   * `confirm.verifier`, not just a click any script could make. Without a verifier the tool is
   * hidden from callers that would need a confirmation (`not_allowed`).
   */
  verify?: boolean
  /**
   * `false`: approving this tool's calls never grants later ones (`approve(id, { grant })` is
   * refused `grant_not_allowed`); each call asks. Default: grants are allowed within the ceilings
   * (never for destructive tools or tools whose approvals need verification).
   */
  grant?: boolean
  /**
   * What a confirmation shows for this input, beyond `summary`: the `changes` it will make, and
   * `isStale()`, checked at approval time (true → `refused stale`, the tool does not run).
   * Form submits use it; most tools need only `summary`.
   */
  confirmation?: (input: TInput) => {
    summary?: string
    changes?: FieldChange[]
    /** People-facing names of paths, shown by the dialog instead of the path. */
    labels?: Record<string, string>
    /** Paths whose value an agent wrote (a form submit marks the fields an agent filled). */
    agentFilled?: string[]
    /**
     * What the person is shown as the input instead of the call's own input (a form submit shows
     * the whole submission). Redacted with the tool's sensitive paths like the input would be.
     */
    input?: unknown
    isStale?: () => boolean
  }
  /**
   * A precondition, checked in the scope's slot before a person is asked, and again right before
   * an approved run: return `undefined` to go on, or the result that ends the call (say, a
   * refusal with the app's code `not_found`), so nobody is asked to approve the impossible.
   */
  check?: (
    input: TInput,
    ctx: CheckContext,
  ) => ToolResult<unknown> | undefined | Promise<ToolResult<unknown> | undefined>
  run(input: TInput, ctx: ToolContext): ToolResult<TOutput> | Promise<ToolResult<TOutput>>
}

/** Returned by `tm.register`. */
export interface ToolHandle {
  /** The full name (scope path + local name). */
  readonly name: string
  /** Unregisters the tool; idempotent. */
  dispose(): void
}

// ---------------------------------------------------------------------------------------------
// Manifest
// ---------------------------------------------------------------------------------------------

/** One tool as agents see it. Hints list only the flags that are true. */
export interface ManifestEntry {
  name: string
  /** `name` with `.` → `__`, cut to 64 characters with a short hash when longer. */
  llmName: string
  title?: string
  description: string
  hints: ToolHints
  /** Compact one-line rendering of the input, when it fits the budget. */
  signature?: string
  /** The input JSON Schema (only with `detail: 'full'`). */
  inputSchema?: JsonSchema
  /**
   * The output JSON Schema (only with `detail: 'full'`): what `data` of an `ok` result looks
   * like, from the `output` schema's Standard JSON Schema when it has one.
   */
  outputSchema?: JsonSchema
}

/** A snapshot of the tools one caller can see, sorted by name. */
export interface Manifest {
  rev: number
  tools: ManifestEntry[]
}

// ---------------------------------------------------------------------------------------------
// Policy and limits
// ---------------------------------------------------------------------------------------------

/** Per-caller rules. `allow` replaces the caller's default classes; deny wins over allow. */
export interface CallerPolicy {
  allow?: ToolClass[]
  /** Classes whose approvals for this caller need step-up verification (`confirm.verifier`). */
  verify?: Array<'destructive' | 'consequential'>
  tools?: { allow?: string[]; deny?: string[] }
  rateLimit?: { calls: number; perMs: number }
  /**
   * Which of this caller's tools a person may grant (`approve(id, { grant })`): `false` none,
   * a list of full names or `prefix.*` patterns only those, `true` or absent every tool the
   * ceilings allow (never destructive tools or tools whose approvals need verification).
   */
  grants?: boolean | string[]
}

/** Rules for each agent caller (`human` is fixed). */
export type Policy = Partial<Record<Exclude<Caller, 'human'>, CallerPolicy>>

/** Every limit, with its default in the comment. */
export interface Limits {
  /** Calls waiting per scope before `busy` (32). */
  queuePerScope: number
  /**
   * Pending confirmations (100). Each caller may always hold its share (this divided among the
   * callers, rounded up); past it, only while fewer than this wait; then it is refused `busy`.
   */
  pendingConfirmations: number
  /** Undo entries kept (100). */
  undoJournal: number
  /** Confirmation lifetime in ms (600 000). */
  confirmationExpiryMs: number
  /** How long an aborted run may keep its queue slot (5 000). */
  abortGraceMs: number
  /** Default deadline of one run in ms (120 000); time waiting on a person does not count. */
  callTimeoutMs: number
  /** Largest inbound bridge message in bytes (1 MiB). */
  messageBytes: number
  /** Deepest inbound bridge message (64). */
  messageDepth: number
  /** Nodes in one form fill input (10 000). */
  fillNodes: number
  /** Deadline of an options lookup in ms (10 000). */
  optionsTimeoutMs: number
  /** Items an options lookup returns at most (50). */
  optionsItems: number
  /** Longest `signature` in a summary manifest (240). */
  signatureBudget: number
}

/** Confirmation modes a caller may use; `webmcp` and `mcp` are always inline. */
export type ConfirmMode = 'deferred' | 'inline'

/** Options of `createToolmark`. */
export interface ToolmarkOptions {
  /**
   * Development mode: misconfigurations throw (else they are `error` events and fail closed), and
   * outputs are validated. Default: `NODE_ENV !== 'production'`. A production build (bundlers
   * write `'production'` for `process.env.NODE_ENV`) leaves out output validation and the texts
   * that name the fix whatever this says: its misconfiguration messages are short phrases.
   */
  dev?: boolean
  policy?: Policy
  /**
   * Confirmation mode for `inapp` (default deferred) and `test` (default deferred); step-up
   * verification: `verifier` asks the person (say, `passkeyVerifier()` from
   * `@toolmark/core/passkey`) when a tool's `verify` or `policy[caller].verify` says so; and the
   * optional parts, each its own import so a registry without it bundles none of its code:
   * `grants: grants()` lets approvals carry a grant, `questions: questions({ form })` lets runs
   * `ctx.ask` the person.
   */
  confirm?: {
    inapp?: ConfirmMode
    test?: ConfirmMode
    grants?: ConfirmFeature<'grants'>
    questions?: ConfirmFeature<'questions'>
  } & VerifyOptions
  limits?: Partial<Limits>
  /** Converts a schema without Standard JSON Schema into JSON Schema. */
  jsonSchema?: (schema: StandardSchemaV1) => JsonSchema | undefined
  /** How form fills get files; without it, file fields cannot be filled. */
  files?: FilesOptions
}

/**
 * How form fills get files (DESIGN §4): `{ ref }` values are resolved by the app, `{ url }`
 * values are fetched only from `allowOrigins`. Every file is checked against its field's rules.
 */
export interface FilesOptions {
  /**
   * Turns a `{ ref }` (a file the person gave the chat, an upload id) into a `Blob` or `File`;
   * `undefined`, `null` or a throw rejects it. Without it, fills take no `{ ref }`.
   */
  resolve?(
    ref: string,
    options: { signal: AbortSignal },
  ): Blob | null | undefined | Promise<Blob | null | undefined>
  /**
   * Exact origins (`https://files.example.com`) a `{ url }` may be fetched from: `https:`, or
   * `http:` on a loopback host. Default none: fills take no `{ url }`.
   */
  allowOrigins?: readonly string[]
  /** Largest file in bytes, whatever a field allows (default 10 MiB). */
  maxBytes?: number
  /** Deadline of resolving or fetching one fill's files, in ms (default 30 000). */
  timeoutMs?: number
}

// ---------------------------------------------------------------------------------------------
// Confirmations
// ---------------------------------------------------------------------------------------------

/**
 * Who approved: `dialog` (a presenter's Approve button), `api` (`approve()` called from anywhere
 * else), `verified` (the person's passkey, checked) or `grant` (nobody was asked: a grant the
 * person gave earlier covered the call). `dialog` and `api` are labels for the log: any script on
 * the page can press a button; only `verified` is proof of a person.
 */
export type ApprovedBy = 'dialog' | 'api' | 'verified' | 'grant'

/** How a confirmation was approved, as the run (`ctx.approval`) and the `confirm` event see it. */
export interface Approval {
  by: ApprovedBy
  /** The checked WebAuthn assertion, when `by` is `verified`. */
  assertion?: Verification
  /**
   * With `assertion`: the confirmation and its expiry, which the signed challenge covers with the
   * tool and the input (`approvalChallenge` from `@toolmark/core/passkey` recomputes it).
   */
  confirmId?: string
  expiresAt?: number
  /**
   * The grant's id: with `by: 'grant'`, the grant that let the call through; otherwise the grant
   * this approval created (`approve(id, { grant })`).
   */
  grant?: string
}

/**
 * A WebAuthn assertion in its standard JSON form (what `PublicKeyCredential.toJSON()` gives),
 * binary members base64url: a server hands it to any WebAuthn library as it is.
 */
export interface Verification {
  id: string
  rawId: string
  type: 'public-key'
  response: {
    clientDataJSON: string
    authenticatorData: string
    signature: string
    userHandle?: string | null
  }
  clientExtensionResults: Record<string, unknown>
  authenticatorAttachment?: string | null
}

/** What the registry's verifier is asked for one approval. */
export interface VerificationRequest {
  confirmId: string
  tool: string
  title?: string
  caller: Caller
  summary: string
  /**
   * base64url SHA-256 over a canonical encoding of the confirmation id, the tool, the exact input
   * that will run (after any edit) and the expiry: the WebAuthn challenge to sign.
   */
  challenge: string
  expiresAt: number
  /** Aborted when the confirmation ends meanwhile (expired, withdrawn): close the prompt. */
  signal: AbortSignal
}

/** What an assertion must match: the request's challenge, the origin and the relying party. */
export interface ExpectedAssertion {
  /** The approval's challenge (base64url). */
  challenge: string
  /** The origin it must come from; without one, nothing can be checked: it fails. */
  origin: string | undefined
  /** The relying party id whose SHA-256 the authenticator data must start with. */
  rpId: string | undefined
  /** The credential's public key (SPKI, base64url) and COSE algorithm, when known. */
  publicKey?: { spki: string; algorithm: number }
}

/** What an approval's challenge is computed over. */
export interface ChallengeParts {
  confirmId: string
  tool: string
  /** The exact input that will run (after any edit). */
  input: unknown
  expiresAt: number
}

/**
 * Asks the person to verify an approval and checks what comes back. Made by `passkeyVerifier()`
 * or `webauthnVerifier(ask)` from `@toolmark/core/passkey`, which bring the WebAuthn checks: an
 * app that never verifies never bundles them.
 */
export interface Verifier {
  /**
   * The approval's WebAuthn challenge (`approvalChallenge`): core computes it with this for the
   * exact input that will run, asks with it and checks against it.
   */
  challenge(parts: ChallengeParts): Promise<string>
  /** Asks the person (say, for a passkey); resolves with the assertion, or `undefined` when declined. */
  ask(request: VerificationRequest): Promise<Verification | undefined>
  /**
   * Checks what `ask` gave against the approval: the assertion, copied member by member, or why it
   * does not hold. Core calls it for every approval, whoever approved.
   */
  check(given: unknown, expected: ExpectedAssertion): Promise<Verification | string>
}

/** The optional parts of the confirmations, each given at creation by its own import. */
export type ConfirmFeatureKind = 'grants' | 'questions'

/**
 * An optional part of a registry's confirmations, made by `grants()` or `questions()` and given to
 * `createToolmark({ confirm: { grants, questions } })`. Opaque: only those two make one, and a
 * registry given anything else reports `invalid_options` (development throws).
 */
export interface ConfirmFeature<K extends ConfirmFeatureKind = ConfirmFeatureKind> {
  readonly kind: K
}

/** Step-up verification of approvals. */
export interface VerifyOptions {
  /** Asks the person; without one, tools whose approvals need it are hidden (`not_allowed`). */
  verifier?: Verifier
  /**
   * The origin assertions must come from (their `clientDataJSON.origin`). Default: the page's
   * `location.origin`; where there is none (Node), verification fails closed without it.
   */
  origin?: string
  /** The WebAuthn relying party id whose hash the authenticator data must carry (default: the origin's host). */
  rpId?: string
}

/**
 * What `ctx.ask` takes. `schema` is a Standard Schema (zod…) with a Standard JSON Schema (or the
 * registry's `jsonSchema` converter), or a JSON Schema; either way its JSON Schema must be a
 * string, number, integer or boolean, an `enum` (or `const`) of those, or a flat object whose
 * properties are all of those (no nested objects, no arrays, no `anyOf`/`oneOf`/`$ref`).
 */
export interface QuestionRequest<TSchema extends StandardSchemaV1 | JsonSchema = JsonSchema> {
  /** What the person is asked, in their words ("Which printer is it?"). */
  prompt: string
  schema: TSchema
}

/** The value a question's schema gives: its Standard Schema output, else `unknown`. */
export type QuestionValue<TSchema> = TSchema extends StandardSchemaV1
  ? InferOutput<TSchema>
  : unknown

/**
 * Why a question got no answer: `declined` (the person said no), `expired` (nobody answered in
 * time), `cancelled` (the call was stopped: Stop, its signal, the deadline, the
 * tool gone), `no_presenter` (no dialog is mounted to ask with, and the call is not one an AG-UI
 * session in `interrupt` mode runs), `invalid_question` (production only: the schema is not one a
 * dialog can ask), `busy` (nothing was filed: the caller already has its share of
 * `limits.pendingConfirmations` waiting and the list is full).
 */
export type QuestionUnanswered =
  'declined' | 'expired' | 'cancelled' | 'no_presenter' | 'invalid_question' | 'busy'

/** What `ctx.ask` resolves with. */
export type QuestionAnswer<T = unknown> =
  { answered: true; value: T } | { answered: false; reason: QuestionUnanswered }

/** What a question entry asks: the prompt and the JSON Schema its form is drawn from. */
export interface QuestionSpec {
  prompt: string
  /** Deep-frozen; one of the shapes {@link QuestionRequest} allows. */
  schema: JsonSchema
}

/** One pending confirmation. `input` and `changes` are redacted. */
export interface ConfirmationEntry {
  id: string
  /** The call that asked. */
  callId: string
  tool: string
  title?: string
  caller: Caller
  mode: ConfirmMode
  summary: string
  changes?: FieldChange[]
  /** People-facing names of changed paths (`{ 'requester.email': 'Requester email' }`). */
  labels?: Record<string, string>
  /** Paths whose value an agent wrote: a form submit marks the fields an agent filled. */
  agentFilled?: string[]
  input: unknown
  hints: ToolHints
  createdAt: number
  expiresAt: number
  /**
   * The confirmation's status, as its owner reports it: `pending` while the store lists the entry;
   * the entry of a final `confirm` event carries how it ended.
   */
  status: ConfirmStatus
  /** True when approving asks for the person's verification (a passkey), not just a click. */
  verify?: boolean
  /**
   * True when the ceilings allow approving with a grant (`approve(id, { grant })`), as they stood
   * when the entry was filed: the approval checks them again.
   */
  grantable?: boolean
  /**
   * True when a running tool asked it (`ctx.confirm`, `ctx.ask`): the run, and the scope it runs
   * in, wait for the answer, so a presenter should show it even while it waits on another answer.
   */
  inRun?: boolean
  /**
   * True when the code that started the call shows this entry to the person itself and hands on
   * their answer (an AG-UI session in `interrupt` mode, as an interrupt; see
   * `CallObserver.presentsConfirmations`). `<ConfirmDialog>` leaves it out, so the person is
   * asked in one place; the store still lists it and takes its answer.
   */
  presentedByCaller?: boolean
  /**
   * Present when the entry is a question (`ctx.ask`): it is answered with `answer(id, value)` or
   * declined with `reject(id)`, never approved. `summary` repeats the prompt.
   */
  question?: QuestionSpec
}

/**
 * A grant to give with an approval: later calls of the same tool by the same caller run without
 * asking while it lives, when their input holds the same values at every pinned path.
 */
export interface GrantOptions {
  /** `'session'`: until the page reloads or the grant is revoked; `{ ms }`: that long. */
  for: 'session' | { ms: number }
  /**
   * Input dot paths the tool's input schema declares (`['id']`: this ticket only). Later calls
   * are covered only when they hold the same values there (compared as canonical JSON).
   */
  pins?: string[]
}

/** A grant as `tm.confirmations.grants()` lists it. */
export interface Grant {
  id: string
  /** The tool's full name. */
  tool: string
  title?: string
  /** The caller whose later calls it covers. */
  caller: Caller
  /**
   * A grant given on a tour's `do` step (caller `tour`): the caller that started that tour. It
   * covers only that caller's later tour steps.
   */
  actingFor?: Caller
  /** The pinned paths and their values (`'[redacted]'` for the tool's sensitive paths). */
  pins: ReadonlyArray<{ path: string; value: unknown }>
  createdAt: number
  /** When it ends; absent for a grant for the session. */
  expiresAt?: number
  /** How many calls it let through so far. */
  uses: number
}

/** Options of `tm.confirmations.approve`. */
export interface ApproveOptions {
  /** The input to run instead of the one asked (validated first). */
  input?: unknown
  /** `'dialog'` when a presenter's Approve button answers; default `'api'`. */
  by?: 'dialog'
  /**
   * Also grant later calls of this tool by this caller (see {@link GrantOptions}). Refused
   * `grant_not_allowed` when the ceilings forbid it (destructive tools, verification, the tool's
   * `grant: false`, `policy[caller].grants`), `invalid` when the options are malformed; either way
   * the entry stays pending and can still be approved once.
   */
  grant?: GrantOptions
}

/** One entry's answer in a batch (`approveMany`, `rejectMany`). */
export interface ConfirmationAnswer {
  id: string
  result: ToolResult
}

/** The shared confirmation store, `tm.confirmations`. */
export interface ConfirmationStore {
  /** Pending entries, oldest first; the same array until something changes. */
  list(): readonly ConfirmationEntry[]
  get(id: string): ConfirmationEntry | undefined
  /** Notified after every change; returns an unsubscribe. */
  subscribe(listener: () => void): () => void
  /**
   * Approves and runs the tool as `human`; resolves with the tool's result. `input` replaces the
   * input (validated; invalid → the entry stays pending). `by` set to `'dialog'` labels an answer from a
   * presenter (default `api`). An entry that needs verification asks the registry's verifier
   * first, whoever calls: declined or not matching → `refused verification_failed`, still pending.
   * A question entry is answered, not approved: `refused answer_required`, still pending.
   */
  approve(id: string, options?: ApproveOptions): Promise<ToolResult>
  /**
   * Answers a question entry. The value is validated against the question's schema: invalid →
   * `invalid` with issues, and the entry stays pending; accepted → `ok(null)` and the asking run
   * goes on with the parsed value. An entry that is not a question → `refused not_a_question`;
   * unknown, used or expired → `refused confirmation_expired`.
   */
  answer(id: string, value: unknown, options?: { by?: 'dialog' }): Promise<ToolResult>
  /**
   * Rejects; the call ends `cancelled operator` (a question is declined: the run hears
   * `{ answered: false, reason: 'declined' }`).
   */
  reject(id: string, reason?: string): Promise<ToolResult>
  /**
   * Approves the given entries (or `'all'`: every entry pending when the batch starts), each
   * through `approve`. With `order: 'queue'` (the default) they go one after another, in queue
   * order (oldest first): the next is approved once the previous one's approval is given (its passkey
   * included) and its run started, so runs start in queue order (one scope runs them one at a
   * time) and a run that asks the person something can be answered meanwhile; a failure does not
   * stop the rest. Resolves, once every run has ended, with one answer per distinct id in the order
   * they were answered: the pending ones in queue order, then those not pending when the batch
   * starts, in the order given. An id that is unknown, used, expired or withdrawn by the time its
   * turn comes answers `refused confirmation_expired`, and so does anything but a string (under
   * its text, `'[unreadable id]'` when converting it throws): only a string names an entry.
   * Entries not named stay pending. `order: 'together'` asks every approval at once instead: the
   * runs start as their approvals are given, in no promised order (the answers still come in
   * queue order).
   */
  approveMany(
    which: readonly string[] | 'all',
    options?: { by?: 'dialog'; order?: 'queue' | 'together' },
  ): Promise<ConfirmationAnswer[]>
  /**
   * Rejects the given entries (or `'all'`), in queue order, like `approveMany`; each call ends
   * `cancelled operator`.
   */
  rejectMany(which: readonly string[] | 'all', reason?: string): Promise<ConfirmationAnswer[]>
  /** The grants alive now, oldest first; the same array until one is made, used, revoked or ends. */
  grants(): readonly Grant[]
  /** Ends a grant at once (a call it already let through goes on); false when there is none. */
  revokeGrant(id: string): boolean
  /** Marks a visible presenter (dialog) as mounted; returns a detach. */
  attachPresenter(): () => void
  /** Whether any presenter is attached. */
  hasPresenter(): boolean
}

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export interface CallEvent {
  callId: string
  tool: string
  caller: Caller
  input: unknown
}
export interface ResultEvent {
  callId: string
  tool: string
  caller: Caller
  result: ToolResult
  durationMs: number
}
export interface ProgressEvent {
  callId: string
  tool: string
  caller: Caller
  done: number
  total?: number
  message?: string
}
/**
 * Where a confirmation stands in its `confirm` event: `pending` when it is requested, then the
 * one final status it ended with. `rejected`: a person said no (Deny, or Stop while it waited);
 * `withdrawn`: access went away or the waiting call's signal fired (the result's `by` says which);
 * `expired`: its time ran out; `evicted`: newer entries pushed it out of the list.
 */
export type ConfirmStatus =
  'pending' | 'approved' | 'rejected' | 'withdrawn' | 'expired' | 'evicted'

/**
 * A confirmation's life, told by the confirmation itself: requested (`pending`), then one final
 * status (terminal ones carry the result). A question's answer is `approved` (its result
 * `ok(null)`, the parsed value in `answer`, not redacted), a declined or stopped one `rejected`.
 */
export interface ConfirmEvent {
  /** The confirmation's own status: `pending` when requested, then how it ended. */
  status: ConfirmStatus
  entry: ConfirmationEntry
  result?: ToolResult
  /** Who approved (`approved` only). */
  by?: ApprovedBy
  /** With `by: 'grant'`, the grant that let the call through; else the grant this approval made. */
  grant?: string
  /** The person's answer to a question (`approved` of an entry with `question`), as parsed. */
  answer?: unknown
}
export interface UndoEvent {
  callId: string
  tool: string
  result: ToolResult
}
export interface ChangeEvent {
  rev: number
}
export interface ErrorEvent {
  code: string
  message: string
  tool?: string
  callId?: string
  cause?: unknown
}

/**
 * A DOM `Element` where the app's types include the DOM library; elsewhere (core is typed
 * without it) the little of one that anchors use.
 */
export type AnchorElement = typeof globalThis extends { Element: { prototype: infer E } }
  ? E
  : { readonly isConnected?: boolean; contains(other: unknown): boolean }

/**
 * What a person did on an element anchored to a tool (`useToolAnchor`, or a form's own fields):
 * only events the browser marks trusted, never a script's or a fill's. `param` names the field.
 */
export interface InteractionEvent {
  tool: string
  param?: string
  type: 'input' | 'change' | 'click' | 'submit'
}

export interface ToolmarkEventMap {
  call: CallEvent
  interaction: InteractionEvent
  result: ResultEvent
  progress: ProgressEvent
  confirm: ConfirmEvent
  undo: UndoEvent
  change: ChangeEvent
  error: ErrorEvent
}
export type ToolmarkEventType = keyof ToolmarkEventMap

export interface ToolmarkEvents {
  /** Listens to one event type; returns an unsubscribe. A throwing listener is isolated. */
  on<K extends ToolmarkEventType>(
    type: K,
    listener: (event: ToolmarkEventMap[K]) => void,
  ): () => void
}

// ---------------------------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------------------------

export interface ScopeOptions {
  /** `false` hides the scope's tools from manifests and calls. Default true. */
  when?: boolean
  /** Groups without adding a name segment. */
  transparent?: boolean
}

/** A named group of tools; scopes nest. */
export interface Scope {
  /** The scope's full path (`''` for the root). */
  readonly path: string
  scope(name: string, options?: ScopeOptions): Scope
  setWhen(when: boolean): void
  /** Removes the scope, its sub-scopes, their tools, pending confirmations and undo entries. */
  dispose(): void
}

export interface CallOptions {
  /** Who calls. Default `'inapp'`. */
  caller?: Caller
  /** The manifest revision the caller acted on; an old rev and a missing tool → `stale`. */
  rev?: number
  signal?: AbortSignal
  /**
   * A tour step's (`caller: 'tour'`): the caller that started the tour, whose policy the step
   * must pass as well as `policy.tour` (DESIGN §11). Read only for `tour`; never widens what the
   * tour may do. Default `'inapp'`.
   */
  actingFor?: Caller
  /** Follows this one call: its id, its phases and its confirmations (`CallObserver`). */
  observe?: CallObserver
}

/**
 * Where a call is. `checking`: its input is being validated; `queued`: it waits for its scope's
 * slot, or holds it while `check` runs and its confirmation is built; `confirming`: a person
 * decides (the slot is free meanwhile); `running`: `run` holds the slot; `settled`: its one result
 * is out.
 */
export type CallPhase = 'checking' | 'queued' | 'confirming' | 'running' | 'settled'

/**
 * What the code that starts a call hears of that call alone, as it happens, without listening
 * to every call of the registry (`tm.call(name, input, { observe })`, as a `MutationObserver`
 * watches one node). Each method is told synchronously and should only note what it hears; one
 * that throws is reported (`listener_threw`) and changes nothing of the call.
 */
export interface CallObserver {
  /** The call's id, inside `tm.call`, before any confirmation or question can name it. */
  started?(callId: string): void
  /** Each phase the call moves to, in order. */
  moved?(phase: CallPhase): void
  /**
   * Each `confirm` event of the call's own confirmations and questions (`requested`, then how
   * it ended), after the registry's listeners heard it; a person's earlier grant that let the
   * call through is told as its `approved` event.
   */
  confirm?(event: ConfirmEvent): void
  /**
   * The caller shows this call's questions itself: `ctx.ask` then needs no mounted dialog.
   * `presentsConfirmations` implies it.
   */
  readonly presentsQuestions?: boolean
  /**
   * The caller shows every confirmation of this call itself — its approval and what its run asks
   * with `ctx.confirm` and `ctx.ask` — and hands on the person's answer (the AG-UI session in
   * `interrupt` mode, as interrupts). Their entries carry `presentedByCaller`, so
   * `<ConfirmDialog>` leaves them out, and the run's asks need no mounted dialog. Nothing else
   * shows them: the caller answers or declines each one.
   */
  readonly presentsConfirmations?: boolean
}

export interface RegisterOptions {
  scope?: Scope
  /** Unregisters when aborted. */
  signal?: AbortSignal
}

/** A bridge, WebMCP server or pairing attached with `tm.use`; returns its own teardown. */
export type Consumer = (tm: Toolmark) => (() => void) | void

/** The registry: tools, calls, confirmations, undo and events. */
export interface Toolmark {
  /** Random per registry; names this page to agents. */
  readonly clientId: string
  readonly dev: boolean
  readonly limits: Readonly<Limits>
  /** How form fills get files (`createToolmark({ files })`); undefined when not configured. */
  readonly files?: Readonly<FilesOptions>
  /** The current manifest revision. */
  readonly rev: number
  /**
   * Registers a tool; returns its handle. With an `output` schema, `run` must return that type;
   * without one, `run` may return any result (so `new Promise((resolve) => …)` infers).
   */
  register<TInput>(
    def: ToolDefinition<TInput, unknown> & { output?: undefined },
    options?: RegisterOptions,
  ): ToolHandle
  register<TInput, TOutput>(
    def: ToolDefinition<TInput, TOutput> & { output: StandardSchemaV1<unknown, TOutput> },
    options?: RegisterOptions,
  ): ToolHandle
  register<TInput, TOutput>(
    def: ToolDefinition<TInput, TOutput>,
    options?: RegisterOptions,
  ): ToolHandle
  scope(name: string, options?: ScopeOptions): Scope
  manifest(options?: { caller?: Caller; detail?: 'summary' | 'full' }): Manifest
  describe(name: string, options?: { caller?: Caller }): ManifestEntry | undefined
  call(name: string, input?: unknown, options?: CallOptions): Promise<ToolResult>
  readonly confirmations: ConfirmationStore
  undo(callId: string): Promise<ToolResult>
  /** Whether `tm.undo(callId)` would run something. */
  canUndo(callId: string): boolean
  /**
   * Whether approving this tool's calls from `caller` (default `inapp`) asks for the person's
   * verification (a passkey): its `verify`, or `policy[caller].verify`. False for unknown tools
   * and for calls that need no confirmation.
   */
  verifies(name: string, options?: { caller?: Caller }): boolean
  /** Stop: cancels every in-flight agent call (`cancelled operator` by default). */
  cancelAll(options?: { by?: CancelledBy }): void
  /** Replaces the policy; bumps `rev`. */
  setPolicy(policy: Policy): void
  /** Manifest revisions, coalesced per microtask. Returns an unsubscribe. */
  subscribe(listener: (rev: number) => void): () => void
  readonly events: ToolmarkEvents
  use(consumer: Consumer): () => void
  /**
   * The element a tool (or one of its input fields, `param`) lives in on the page, as anchored
   * by `useToolAnchor` or by the form it belongs to; undefined when none is on the page.
   */
  anchor(tool: string, param?: string): AnchorElement | undefined
}
