/**
 * `@toolmark/core/ai-sdk` — the page's tools in a Vercel AI SDK chat, without importing the SDK.
 * The browser half (`chatToolList`, `callForChat`) is what `@toolmark/react/ai-sdk` and
 * `@toolmark/react/assistant-ui` build on; the server half (`readToolmarkTools`,
 * `toolsFromManifest`) turns the tools a request carries into client-side AI SDK tools.
 */
export { TOOLMARK_BODY_FIELD, chatToolList, describeChatTool } from './chatToolList'
export type { ChatTool, ChatToolList } from './chatToolList'
export { callForChat } from './callForChat'
export type { CallForChatOptions, ChatToolResult } from './callForChat'
export { readToolmarkTools } from './readToolmarkTools'
export type {
  ReadToolmarkToolsError,
  ReadToolmarkToolsErrorCode,
  ReadToolmarkToolsOptions,
  ReadToolmarkToolsResult,
} from './readToolmarkTools'
export { toolsFromManifest } from './toolsFromManifest'
export type {
  AiSdkClientToolSpec,
  AiSdkJsonValue,
  ToolsFromManifestOptions,
} from './toolsFromManifest'
export type { ChatToolListLimits } from './validateChatToolList'
