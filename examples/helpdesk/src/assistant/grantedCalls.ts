import type { Toolmark } from '@toolmark/core'

/** A call of the assistant that a grant let through, as the registry announced it. */
interface Granted {
  /** Its place in the order of announcements. */
  seq: number
  tool: string
  input: string
  grant: string
}

/** Announcements kept for steps that have not finished yet; older ones are dropped first. */
const KEPT = 64

/** The same JSON for the same value whatever the order of its keys. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : item,
  )
}

/**
 * Which of the assistant's calls ran on a grant the person gave earlier, so the conversation can
 * say so. The registry announces each one (a `confirm` event `approved` with `by: 'grant'`)
 * before the call's result leaves the page, so the step that made the call finds it when its
 * result arrives. The assistant is the page's only `inapp` caller; a step is matched among the
 * announcements made since it started, by tool and input, else by tool (the registry may have
 * parsed the input), so a call the person approved in the dialog is never said to be granted.
 */
export function createGrantedCalls(tm: Toolmark) {
  let granted: Granted[] = []
  let seq = 0
  const stop = tm.events.on('confirm', (event) => {
    if (event.status !== 'approved' || event.by !== 'grant' || event.grant === undefined) return
    if (event.entry.caller !== 'inapp') return
    granted = [
      ...granted.slice(-(KEPT - 1)),
      {
        seq: ++seq,
        tool: event.entry.tool,
        input: canonical(event.entry.input),
        grant: event.grant,
      },
    ]
  })
  return {
    /** Where the announcements are now: a step notes it before it makes its call. */
    mark: () => seq,
    /**
     * The grant that let a call made after `since` through, taken from the list; `undefined` when
     * none did.
     */
    take(tool: string, input: unknown, since: number): string | undefined {
      const key = canonical(input)
      const fits = (g: Granted) => g.seq > since && g.tool === tool
      let index = granted.findIndex((g) => fits(g) && g.input === key)
      if (index < 0) index = granted.findIndex(fits)
      if (index < 0) return undefined
      const { grant } = granted[index]
      granted = granted.filter((_, i) => i !== index)
      return grant
    },
    dispose: stop,
  }
}

export type GrantedCalls = ReturnType<typeof createGrantedCalls>
