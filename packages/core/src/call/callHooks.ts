import type { CallOptions } from '../types'
import type { CallHooks } from './call'

export type { CallHooks } from './call'

/**
 * The key under which one of core's own adapters passes {@link CallHooks} with `tm.call`. Not
 * exported from any entry: apps cannot reach it, so nothing public changes.
 */
export const CALL_HOOKS: unique symbol = Symbol('toolmark.callHooks')

/** `CallOptions` as core's adapters pass them. */
export type HookedCallOptions = CallOptions & { [CALL_HOOKS]?: CallHooks }

/** The hooks an options object carries, if any; `tm.call`'s own catch covers a throwing getter. */
export function callHooksOf(options: CallOptions): CallHooks | undefined {
  const hooks = (options as HookedCallOptions)[CALL_HOOKS]
  return typeof hooks === 'object' && hooks !== null ? hooks : undefined
}
