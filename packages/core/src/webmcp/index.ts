/**
 * `@toolmark/core/webmcp`: serves a registry to browser agents through WebMCP
 * (`document.modelContext`), natively in Chromium or through a polyfill.
 */
export { webmcp } from './webmcp'
export type { WebMCPOptions } from './webmcp'
export type {
  WebMCPAnnotations,
  WebMCPModelContext,
  WebMCPTool,
  WebMCPToolResponse,
} from './modelContext'
