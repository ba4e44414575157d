/**
 * `@toolmark/core/observers` — the framework-free halves of the React kit's hooks, for framework
 * bindings: the subscribe contract, a tool's call status, the activity log and the tool binding
 * that decides when a declaration is registered again. A building block, not an app API: it
 * follows the kit's releases and may change with them.
 */
export { createSubscribable, Subscribable } from '../events/subscribable'
export type { SubscribableOptions } from '../events/subscribable'
export { createToolCallStore, IDLE } from './toolCallStore'
export type { ToolCallSnapshot, ToolCallStatus, ToolCallStore } from './toolCallStore'
export { createActivityStore } from './activityStore'
export type { ActivityStore, AgentActivity } from './activityStore'
export { createRegistration, Registration } from './registration'
export type { RegistrationRules } from './registration'
export { createToolBinding } from './toolBinding'
export type { ScopeSource, ToolBinding, ToolBindingOptions, ToolBindingResult } from './toolBinding'
export { hintsKey, keyToHints, sensitiveKey } from './registrationKeys'
export { latestSchema, sameJsonSchema, sameSchema } from './stableSchema'
export { grantsEnabled, questionFormOf, questionsEnabled } from './grantsEnabled'
