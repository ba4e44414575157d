/**
 * `@toolmark/core/ag-ui` — the page's tools for agents that speak AG-UI (CopilotKit, LangGraph,
 * Mastra, CrewAI…), without importing the AG-UI SDK: `agUiTools` lists them as frontend tools,
 * `createAgUiSession` runs an agent's tool calls through `tm.call` and maps approvals and questions
 * to inline waits or AG-UI interrupts.
 */
export { agUiTools } from './agUiTools'
export type { AgUiToolsOptions } from './agUiTools'
export { createAgUiSession } from './agUiSession'
export type { AgUiConfirmations } from './heldCalls'
export type {
  AgUiResumeOutcome,
  AgUiSession,
  AgUiSessionOptions,
  AgUiTurnOutcome,
} from './agUiSession'
export type { AgUiSessionSnapshot, AgUiSessionStatus } from './agUiSessionState'
export type {
  AgUiAgent,
  AgUiInterrupt,
  AgUiMessage,
  AgUiResumeEntry,
  AgUiSubscriber,
  AgUiTool,
  AgUiToolCall,
} from './agUiTypes'
