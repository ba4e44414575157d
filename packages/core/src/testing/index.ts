export { createTestToolmark } from './createTestToolmark'
export type {
  CallRecorder,
  ScriptedAnswer,
  ScriptedDecision,
  TestToolmark,
  TestToolmarkOptions,
} from './createTestToolmark'
