/** Default pause between heartbeats while a call is outstanding (10 s). */
export const DEFAULT_PROGRESS_INTERVAL_MS = 10_000

/** The message of a heartbeat: the page has not answered yet, a person may be deciding. */
export const HEARTBEAT_MESSAGE = 'Waiting for the page: a person may be approving this call'

/** Pause between the last notification and the response, so the client reads them apart. */
const SETTLE_MS = 10

/** The fields of one `notifications/progress` besides its token. */
export interface ProgressParams {
  progress: number
  total?: number
  message?: string
}

/** Options of `startProgress`. */
export interface ProgressReporterOptions {
  /** Silence after which a heartbeat is sent, in ms; 0 sends none. */
  intervalMs: number
  /** Sends one notification (the caller adds the progress token). */
  send(params: ProgressParams): Promise<void>
}

/** Progress of one MCP request: the tool's own reports, and heartbeats in the silences. */
export interface ProgressReporter {
  /** Forwards one report of the tool (`ctx.progress`). */
  report(progress: { done: number; total?: number; message?: string }): void
  /** Stops the heartbeats; resolves once everything sent has gone out. */
  stop(): Promise<void>
}

/** The next heartbeat value: half way to the next whole number, so a tool's counts stay ahead. */
function after(value: number): number {
  const next = value + (Math.floor(value) + 1 - value) / 2
  return next > value ? next : Math.floor(value) + 1
}

/**
 * Reports progress for one request that carried a progress token. MCP wants every value to
 * be larger than the last; the tool's own counts are forwarded as they are when they are, and
 * heartbeats (sent after `intervalMs` without any notification, so clients that reset their
 * timeout on progress keep waiting while a person decides) only ever step half way to the next
 * whole number.
 */
export function startProgress(options: ProgressReporterOptions): ProgressReporter {
  const sent: Promise<void>[] = []
  let last: number | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  function send(params: ProgressParams): void {
    last = params.progress
    sent.push(options.send(params).catch(() => {}))
    arm()
  }

  function arm(): void {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (stopped || options.intervalMs <= 0) return
    timer = setTimeout(
      () => send({ progress: last === undefined ? 0 : after(last), message: HEARTBEAT_MESSAGE }),
      options.intervalMs,
    )
  }

  arm()
  return {
    report({ done, total, message }) {
      if (stopped) return
      const params: ProgressParams = {
        progress: last === undefined || done > last ? done : after(last),
      }
      if (total !== undefined) params.total = total
      if (message !== undefined) params.message = message
      send(params)
    },
    async stop() {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      if (sent.length === 0) return
      await Promise.all(sent)
      // The SDK client handles notifications a microtask late but responses at once: a
      // progress notification read in the same chunk as the response would be dropped.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
    },
  }
}
