import { bodyOf } from '../base/registryBody'
import type { ErrorEvent, Toolmark } from '../types'

/**
 * Emits an `error` event on a registry. For parts built on top of the registry (bridge, WebMCP,
 * form tools, pairing, the React kit) that must report a problem without throwing. An object
 * that was not made by `createToolmark` has no body, so no reporter: the event goes nowhere.
 */
export function reportError(tm: Toolmark, event: ErrorEvent): void {
  bodyOf(tm)?.report(event)
}
