/** Options of `createThrottledLog`. */
export interface ThrottledLogOptions {
  /** Length of one window in ms (default 10 000). */
  windowMs?: number
  /** Lines written as they come in each window (default 5); the rest are counted. */
  burst?: number
  /** The summary line for `n` lines held back in one window. */
  summary: (n: number, windowMs: number) => string
}

/** A log that writes the first lines of each window and one summary for the rest. */
export interface ThrottledLog {
  note(line: string): void
  /** Writes the pending summary now and stops its timer. */
  flush(): void
}

/**
 * Keeps a flood (wrong codes, refused upgrades) from flooding stderr, which an MCP client
 * usually keeps as its server log: a few lines per window, then a count.
 */
export function createThrottledLog(
  log: (line: string) => void,
  options: ThrottledLogOptions,
): ThrottledLog {
  const windowMs = options.windowMs ?? 10_000
  const burst = options.burst ?? 5
  let windowStart = -Infinity
  let written = 0
  let held = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  function flush(): void {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (held > 0) log(options.summary(held, windowMs))
    held = 0
  }

  return {
    note(line) {
      const now = Date.now()
      if (now - windowStart >= windowMs) {
        flush()
        windowStart = now
        written = 0
      }
      if (written < burst) {
        written++
        log(line)
        return
      }
      held++
      if (timer === undefined) {
        timer = setTimeout(flush, Math.max(0, windowStart + windowMs - now))
        // A pending summary never keeps the process alive.
        timer.unref?.()
      }
    },
    flush,
  }
}
