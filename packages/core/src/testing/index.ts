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
export { recordSession } from './recordSession'
export type { RecordedLine, SessionRecording } from './recordSession'
export { replaySession } from './replaySession'
export type { ReplayOptions, ReplayReport } from './replaySession'
export { MissingSecretError, ReplayError } from './replayError'
export type { ReplayDiff } from './replayError'
export type { ReplaySecrets, WithheldField } from './replaySecrets'
export { toolmarkMatchers } from './matchers'
export type { MatcherOutcome, ToolmarkMatchers } from './matchers'
export { installTestHook } from './testHook'
export type { ToolmarkTestHook } from './testHook'
export { pageUnderTest, toolmarkFixtures } from './pageUnderTest'
export type { EvaluatingPage, PageUnderTest } from './pageUnderTest'
