import type { ToolResult } from '../types'

/** Deferred confirmations tracked at once; the store itself holds at most 100 by default. */
const CONFIRM_MEMORY = 1024

interface OwnConfirmation {
  /** Whether the `result` carrying `needs_confirmation` has been sent. */
  resultSent: boolean
  /** The outcome, when it arrived before that result was sent. */
  pending?: ToolResult
}

/** The deferred confirmations a bridge's calls created, from the request to the `confirmed`. */
export interface ConfirmRelay {
  /**
   * The `result` asking for `confirmId` was sent: the proof the confirmation is ours. An outcome
   * that came first is sent now.
   */
  resultSent(confirmId: string): void
  /**
   * A deferred confirmation moved. `ours`: one of the bridge's calls asked for it (listeners may
   * answer it before the bridge hears `requested`); `outcome`: how it ended, if it did.
   */
  observed(confirmId: string, ours: boolean, outcome: ToolResult | undefined): void
  /** Forgets every confirmation (the bridge was disposed). */
  clear(): void
}

/**
 * Sends each `confirmed` of the bridge's own deferred confirmations once, and always after the
 * `result` that asked for it, through `sendConfirmed`.
 */
export function createConfirmRelay(
  sendConfirmed: (confirmId: string, result: ToolResult) => void,
): ConfirmRelay {
  const confirmations = new Map<string, OwnConfirmation>()

  const track = (confirmId: string, own: OwnConfirmation) => {
    confirmations.set(confirmId, own)
    if (confirmations.size > CONFIRM_MEMORY) {
      confirmations.delete(confirmations.keys().next().value!)
    }
    return own
  }

  return {
    resultSent(confirmId) {
      const own = confirmations.get(confirmId)
      if (own?.pending) {
        confirmations.delete(confirmId)
        sendConfirmed(confirmId, own.pending)
      } else track(confirmId, { resultSent: true })
    },
    observed(confirmId, ours, outcome) {
      let own = confirmations.get(confirmId)
      if (!own && ours) own = track(confirmId, { resultSent: false })
      if (!own || outcome === undefined) return
      if (own.resultSent) {
        confirmations.delete(confirmId)
        sendConfirmed(confirmId, outcome)
      } else own.pending = outcome
    },
    clear() {
      confirmations.clear()
    },
  }
}
