import type { CallOptions } from '../types'

/**
 * The key under which one of core's own adapters passes {@link CallHooks} with `tm.call`. Not
 * exported from any entry: apps cannot reach it, so nothing public changes.
 */
export const CALL_HOOKS: unique symbol = Symbol('toolmark.callHooks')

/** What an adapter in core (the AG-UI session) learns about, and lends to, a call it starts. */
export interface CallHooks {
  /**
   * Told the call's id synchronously inside `tm.call`, before any confirmation or question can
   * name it: how the adapter knows its own calls' entries from everyone else's, even when several
   * calls of one tool run at once.
   */
  started?(callId: string): void
  /**
   * The adapter shows this call's questions itself (as AG-UI interrupts), so `ctx.ask` does not
   * need a mounted dialog to ask them.
   */
  showsQuestions?: boolean
}

/** `CallOptions` as core's adapters pass them. */
export type HookedCallOptions = CallOptions & { [CALL_HOOKS]?: CallHooks }

/** The hooks an options object carries, if any; never throws on odd options. */
export function callHooksOf(options: CallOptions): CallHooks | undefined {
  const hooks = (options as HookedCallOptions)[CALL_HOOKS]
  return typeof hooks === 'object' && hooks !== null ? hooks : undefined
}
