export { createToolmark } from './registry/createToolmark'
export { grants } from './confirmations/grants'
export { questions } from './confirmations/questions'
export type { QuestionsOptions } from './confirmations/questions'
export { enableQuestions } from './confirmations/enableQuestions'
export { enableGrants } from './confirmations/enableGrants'
export { DEFAULT_LIMITS } from './registry/options'
export { reportError } from './events/reportError'
export { addAnchor, addAnchorSource } from './anchors/anchors'
export type { AnchorCheck, AnchorSource } from './anchors/anchors'
export { ok, invalid, refuse, cancelled, errorResult, isToolResult } from './base/results'
export { toLlmName, isToolName } from './tool/names'
export { REDACTED } from './redaction/redact'
export { CALLERS } from './types'
export type {
  Approval,
  ApprovedBy,
  ApproveOptions,
  CallEvent,
  Caller,
  CallerPolicy,
  CallObserver,
  CallOptions,
  CallPhase,
  CancelledBy,
  ChangeEvent,
  CheckContext,
  ConfirmationAnswer,
  ConfirmationEntry,
  ConfirmationStore,
  ConfirmEvent,
  InteractionEvent,
  AnchorElement,
  ConfirmFeature,
  ConfirmFeatureKind,
  ConfirmStatus,
  ConfirmMode,
  Consumer,
  ErrorEvent,
  FieldChange,
  Grant,
  GrantOptions,
  InferOutput,
  JsonSchema,
  Limits,
  Manifest,
  ManifestEntry,
  Policy,
  ProgressEvent,
  QuestionAnswer,
  QuestionRequest,
  QuestionSpec,
  QuestionUnanswered,
  QuestionValue,
  RefusedCode,
  RegisterOptions,
  ResultEvent,
  ResultIssue,
  Scope,
  ScopeOptions,
  StandardJsonSchemaOptions,
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaV1,
  ToolClass,
  ToolContext,
  ToolDefinition,
  ToolHandle,
  ToolHints,
  Toolmark,
  ToolmarkEventMap,
  ToolmarkEvents,
  ToolmarkEventType,
  ToolmarkOptions,
  FilesOptions,
  ToolResult,
  ToolStatus,
  UndoEvent,
  Verification,
  VerificationRequest,
  Verifier,
  VerifyOptions,
} from './types'
