/**
 * `@toolmark/core/observers` — for Toolmark's own framework bindings, not for apps (as TanStack
 * Query's and React's internals are marked): the framework-free halves of the React kit's hooks —
 * the subscribe contract, the activity log, the tool binding and the registration that decide
 * when a declaration is registered again, and the comparisons the form hooks make. It follows the
 * kit's releases and may change with any of them; an app uses the hooks and the registry instead.
 */
export { createSubscribable } from '../events/subscribable'
export type { Subscribable, SubscribableOptions } from '../events/subscribable'
export type { ToolCallSnapshot, ToolCallStatus } from './toolCallStore'
export { createActivityStore } from './activityStore'
export type { ActivityStore, AgentActivity } from './activityStore'
export { createRegistration } from './registration'
export type { Registration, RegistrationRules } from './registration'
export { createToolBinding } from './toolBinding'
export type { ScopeSource, ToolBinding, ToolBindingOptions, ToolBindingResult } from './toolBinding'
export { hintsKey, keyToHints, sensitiveKey } from './registrationKeys'
export { latestSchema, sameSchema } from './stableSchema'
export { questionFormOf } from './questionsEnabled'
