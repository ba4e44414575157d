import type { JsonSchema, ToolResult } from '../types'

/** A JSON Schema of an object: what the Anthropic Messages API takes as a tool's input. */
export type ObjectJsonSchema = JsonSchema & { type: 'object' }

/**
 * Whether `page_call` (or a direct tool) waits for a person's decision when the page answers
 * `needs_confirmation`. `true` waits up to 600 000 ms (the page's default confirmation
 * expiry, after which the page itself ends it `confirmation_expired`).
 */
export type AwaitConfirmationOption =
  | boolean
  | {
      /** How long to wait for the person, in ms. Default 600 000. */
      timeoutMs?: number
      /**
       * The `note` put on a `needs_confirmation` result when the wait ends first. Default: says
       * the person has not decided, not to repeat the call, and that the outcome is reported
       * later (forward it: `client.onConfirmed` or `client.outcome(confirmId)`).
       */
      note?: string
    }

/** Options shared by every format. */
interface CommonOptions {
  /** The page to call. Default: the client's default page. */
  clientId?: string
  /**
   * `'stable'` (default): two LLM tools, `page_call` and `page_describe`, whose description
   * lists the page's tools (prompt caching holds across pages). `'direct'`: one LLM tool per
   * page tool, named by its `llmName`, with its own input schema (OpenAI `strict` where the
   * schema allows); `pageTools` then returns `{ current() }`, which follows manifest revisions.
   */
  mode?: 'stable' | 'direct'
  /** Return the final outcome of a call that needs a person in the same tool result. */
  awaitConfirmation?: AwaitConfirmationOption
}

/** OpenAI function tools: Chat Completions (`chat`, default) or Responses (`responses`) shape. */
export interface OpenAIPageToolsOptions extends CommonOptions {
  format: 'openai'
  /** Which OpenAI API the tools are for. Default `'chat'` (Chat Completions). */
  api?: 'chat' | 'responses'
}

/** Anthropic Messages API tools (`{ name, description, input_schema }`). */
export interface AnthropicPageToolsOptions extends CommonOptions {
  format: 'anthropic'
}

/** What an AI SDK `validate` function returns (`jsonSchema(schema, { validate })`). */
export type AiSdkValidationResult =
  { success: true; value: unknown } | { success: false; error: Error }

/** Vercel AI SDK tools; pass the SDK's own `jsonSchema` helper (`import { jsonSchema } from 'ai'`). */
export interface AiSdkPageToolsOptions<TSchema = unknown> extends CommonOptions {
  format: 'ai-sdk'
  /**
   * The SDK's `jsonSchema`. It receives each tool's JSON Schema and a `validate` built from
   * it, so the SDK rejects arguments that do not match before `execute` runs.
   */
  jsonSchema(
    schema: JsonSchema,
    options: { validate: (value: unknown) => AiSdkValidationResult },
  ): TSchema
}

/** Options of `pageTools`. */
export type PageToolsOptions =
  OpenAIPageToolsOptions | AnthropicPageToolsOptions | AiSdkPageToolsOptions

/** A `needs_confirmation` result. */
export type NeedsConfirmationResult = Extract<ToolResult, { status: 'needs_confirmation' }>

/**
 * What a page tool's `execute` resolves with: the page's `ToolResult`, frozen, with these
 * keys added for the model when they apply.
 */
export type PageToolResult = ToolResult & {
  /**
   * `true` on every result of a tool whose results carry page or user content
   * (`hints.untrustedContent`); the first key, so a model reads it before the data.
   */
  untrustedContent?: true
  /** With `awaitConfirmation`: the summary the person was asked to approve. */
  approvalAsked?: string
  /** With `awaitConfirmation`, on a `needs_confirmation` the person has not answered yet. */
  note?: string
}

/** Per-call options of `execute`. */
export interface PageToolExecuteOptions {
  signal?: AbortSignal
  /** The AI SDK's name for `signal`. */
  abortSignal?: AbortSignal
  /**
   * With `awaitConfirmation`: called when the page asked a person, before the wait for their
   * decision (an assistant panel shows "waiting for approval").
   */
  onNeedsConfirmation?: (result: NeedsConfirmationResult) => void
}

/** Runs a tool call the model made. `args` may be the JSON string OpenAI sends. Never throws. */
export type PageToolExecute = (
  args: unknown,
  options?: PageToolExecuteOptions,
) => Promise<PageToolResult>

/** A Chat Completions function tool, plus `execute`. */
export interface OpenAIChatPageTool {
  type: 'function'
  function: { name: string; description: string; parameters: JsonSchema; strict?: boolean }
  execute: PageToolExecute
}

/** A Responses API function tool, plus `execute`. */
export interface OpenAIResponsesPageTool {
  type: 'function'
  name: string
  description: string
  parameters: JsonSchema
  strict: boolean
  execute: PageToolExecute
}

/** An Anthropic tool, plus `execute`. */
export interface AnthropicPageTool {
  name: string
  description: string
  /** An object schema, as the Messages API requires (`type: 'object'`). */
  input_schema: ObjectJsonSchema
  execute: PageToolExecute
}

/** An AI SDK tool (`tools: { page_call, page_describe }`, or one per page tool). */
export interface AiSdkPageTool<TSchema = unknown> {
  description: string
  inputSchema: TSchema
  execute: (input: unknown, options?: PageToolExecuteOptions) => Promise<PageToolResult>
}

/** `mode: 'direct'`: the LLM tools for the page's current tools. */
export interface DirectPageTools<TTools> {
  /**
   * The tools for the page's latest manifest, each described once per revision (its input
   * schema comes from the page). Call it before each model request: the same revision gives
   * the same object. Rejects only when `signal` aborts.
   */
  current(options?: { signal?: AbortSignal }): Promise<TTools>
}
