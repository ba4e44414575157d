/**
 * `@toolmark/core/agent` — the agent's half of protocol v1 (a server or an in-page assistant):
 * a page client, the LLM tools that drive it (two stable ones, or one per page tool), the
 * summary renderer, and the JSON Schema checker behind the AI SDK `validate`. The transports
 * that carry the protocol are in `@toolmark/core/bridge`.
 */
export { createPageClient } from './createPageClient'
export type {
  PageClient,
  PageClientOptions,
  PageCallOptions,
  PageConfirmedEvent,
  PageOutcomeOptions,
  PageProgressEvent,
} from './pageClientTypes'
export { pageTools } from './pageTools'
export type {
  AiSdkPageTool,
  AiSdkPageToolsOptions,
  AiSdkValidationResult,
  AnthropicPageTool,
  AnthropicPageToolsOptions,
  ObjectJsonSchema,
  AwaitConfirmationOption,
  DirectPageTools,
  NeedsConfirmationResult,
  OpenAIChatPageTool,
  OpenAIPageToolsOptions,
  OpenAIResponsesPageTool,
  PageToolExecute,
  PageToolExecuteOptions,
  PageToolResult,
  PageToolsOptions,
} from './pageToolTypes'
export { renderSummary } from './renderSummary'
export { PAGE_TEXT_NOTE, fencePageText } from './pageText'
export { jsonSchemaCheck } from '../schema/jsonSchemaCheck'
export type { JsonSchemaCheck, JsonSchemaCheckOptions } from '../schema/jsonSchemaCheck'
export type { Transport } from '../protocol/messages'
