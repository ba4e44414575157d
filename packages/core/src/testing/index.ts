export { createTestToolmark } from './createTestToolmark'
export type {
  CallRecorder,
  ScriptedAnswer,
  ScriptedDecision,
  TestToolmark,
  TestToolmarkOptions,
} from './createTestToolmark'
export { createScriptedAgent } from './createScriptedAgent'
export type {
  AgentView,
  ScriptTurn,
  ScriptedAgent,
  ScriptedAgentOptions,
  ScriptedAgentReport,
  ScriptedAgentSurfaceOptions,
  ScriptedCall,
  ScriptedCallRecord,
} from './createScriptedAgent'
export { createRecordingModelContext } from './createRecordingModelContext'
export type { RecordingModelContext } from './createRecordingModelContext'
export type { AgentSurfaceKind, ShownTool, SurfaceListing } from './agentSurface'
export type { InAppSurfaceOptions } from './inAppSurface'
export type { McpListedTool, McpToolClient } from './mcpSurface'
export type { WebMCPToolSource } from './webmcpSurface'
