/** One difference between a recorded result (or confirmation) and the live one. */
export interface ReplayDiff {
  /** The line of the recording (1-based). */
  line: number
  tool: string
  /** The recording's call id (`c3`). */
  callId: string
  /** Where in the result (`status`, `code`, `data.changes.0.after`). */
  path: string
  expected: unknown
  actual: unknown
}

/** A recording that cannot be replayed, or a replay that drifted, with the line and the fix. */
export class ReplayError extends Error {
  override name = 'ReplayError'
  constructor(
    message: string,
    /** The line of the recording (1-based), when one is to blame. */
    readonly line?: number,
    /** For a drift: every difference found. */
    readonly diffs: readonly ReplayDiff[] = [],
  ) {
    super(message)
  }
}

/**
 * A recorded call whose input held a redacted value (a `sensitive` path), with no value for it
 * in `replaySession`'s `secrets`: the call is not sent, since the mask is not the value.
 */
export class MissingSecretError extends ReplayError {
  override name = 'MissingSecretError'
  constructor(
    line: number,
    /** The tool of the recorded call. */
    readonly tool: string,
    /** The recording's call id (`c3`). */
    readonly callId: string,
    /** The input path whose value was withheld (`password`, `card.cvc`). */
    readonly path: string,
  ) {
    super(
      `Recording line ${line}: the input of ${tool} (${callId}) had "${path}" redacted when it was recorded, and replaySession got no value for it. Pass it as { secrets: { ${JSON.stringify(path)}: value } } (or a function of { tool, path, callId, line }); the replay never sends the "[redacted]" mask as the value.`,
      line,
    )
  }
}
