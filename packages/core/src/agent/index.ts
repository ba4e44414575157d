/**
 * `@toolmark/core/agent` — the agent's half of protocol v1 (a server or an in-page assistant):
 * a page client, the two LLM tools that drive it, and the summary renderer.
 */
export { createPageClient } from './createPageClient'
export type {
  PageClient,
  PageClientOptions,
  PageCallOptions,
  PageConfirmedEvent,
  PageProgressEvent,
} from './createPageClient'
export { pageTools } from './pageTools'
export type {
  PageToolsOptions,
  OpenAIPageToolsOptions,
  AnthropicPageToolsOptions,
  AiSdkPageToolsOptions,
  PageToolExecute,
  OpenAIChatPageTool,
  OpenAIResponsesPageTool,
  AnthropicPageTool,
  AiSdkPageTool,
} from './pageTools'
export { renderSummary } from './renderSummary'
export { jsonSchemaCheck } from '../jsonSchemaCheck'
export type { JsonSchemaCheck, JsonSchemaCheckOptions } from '../jsonSchemaCheck'
export { createInPageChannel } from '../bridge/createInPageChannel'
export type { InPageChannel } from '../bridge/createInPageChannel'
export { postMessageTransport } from '../bridge/postMessageTransport'
export type { PostMessageTransportOptions } from '../bridge/postMessageTransport'
export { websocketTransport } from '../bridge/websocketTransport'
export type { WebSocketLike, WebSocketTransportOptions } from '../bridge/websocketTransport'
export type { Transport } from '../protocol/messages'
