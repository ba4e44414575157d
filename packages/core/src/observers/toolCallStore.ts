import { bodyOf } from '../base/registryBody'
import { reportError } from '../events/reportError'
import { Subscribable } from '../events/subscribable'
import type { ErrorEvent, ToolResult, ToolStatus, Toolmark } from '../types'

/** Where a tool's calls stand: `'idle'` before any call, `'running'` while one runs, else the last result's status. */
export type ToolCallStatus = 'idle' | 'running' | ToolStatus

/** What a tool's call status shows. */
export interface ToolCallSnapshot {
  readonly status: ToolCallStatus
  readonly lastResult: ToolResult | undefined
}

/** One tool's call status, as an external store (`useSyncExternalStore` and the like). */
export interface ToolCallStore {
  subscribe(listener: () => void): () => void
  getSnapshot(): ToolCallSnapshot
}

/** The snapshot of a tool nobody has seen called. */
export const IDLE: ToolCallSnapshot = Object.freeze({ status: 'idle', lastResult: undefined })

interface Hub {
  readonly tools: Map<string, Watched>
  stop: (() => void) | undefined
}

/** One watched tool: who watches it, its calls in flight and its snapshot. */
interface Watched {
  readonly watchers: Set<Subscribable>
  /** Calls in flight. */
  readonly running: Set<string>
  snapshot: ToolCallSnapshot
}

// One pair of event listeners per registry, however many tools are watched: a call is routed
// to its tool by name instead of waking every watcher in the app. A cache in the registry's
// body, not a route: the registry works the same without it.
const hubOf = (tm: Toolmark): Hub | undefined => bodyOf(tm)?.caches.toolCalls as Hub | undefined

function publish(watched: Watched, next: ToolCallSnapshot) {
  const current = watched.snapshot
  if (next.status === current.status && next.lastResult === current.lastResult) return
  watched.snapshot = Object.freeze(next)
  // Each watcher isolates its own listeners (see Subscribable), so none can stop the others.
  for (const watcher of [...watched.watchers]) watcher.notify()
}

function listen(tm: Toolmark, hub: Hub) {
  const offCall = tm.events.on('call', (event) => {
    const watched = hub.tools.get(event.tool)
    if (!watched) return
    watched.running.add(event.callId)
    publish(watched, { status: 'running', lastResult: watched.snapshot.lastResult })
  })
  const offResult = tm.events.on('result', (event) => {
    const watched = hub.tools.get(event.tool)
    if (!watched) return
    watched.running.delete(event.callId)
    publish(watched, {
      status: watched.running.size > 0 ? 'running' : event.result.status,
      lastResult: event.result,
    })
  })
  return () => {
    offCall()
    offResult()
  }
}

function forget(hub: Hub, tool: string, watched: Watched) {
  if (watched.watchers.size > 0 || hub.tools.get(tool) !== watched) return
  hub.tools.delete(tool)
  if (hub.tools.size === 0) {
    hub.stop?.()
    hub.stop = undefined
  }
}

/**
 * Notifies `watcher` when the calls of `tool` (a full name) change, from every caller, until
 * {@link unwatchToolCalls}. The registry is listened to only while some tool is watched.
 */
export function watchToolCalls(tm: Toolmark, tool: string, watcher: Subscribable): void {
  const caches = bodyOf(tm)?.caches
  if (!caches) return
  const hub = (caches.toolCalls ??= { tools: new Map(), stop: undefined } satisfies Hub) as Hub
  const watched = hub.tools.get(tool)
  if (!watched) {
    hub.tools.set(tool, { watchers: new Set([watcher]), running: new Set(), snapshot: IDLE })
    hub.stop ??= listen(tm, hub)
  } else watched.watchers.add(watcher)
}

/**
 * Stops notifying `watcher`. A tool's status is kept while someone watches it, and forgotten a
 * microtask after the last watcher leaves, so a tool registered again at once (a new
 * description, StrictMode's second mount) keeps its status.
 */
export function unwatchToolCalls(tm: Toolmark, tool: string, watcher: Subscribable): void {
  const hub = hubOf(tm)
  const watched = hub?.tools.get(tool)
  if (!hub || !watched) return
  if (!watched.watchers.delete(watcher) || watched.watchers.size > 0) return
  queueMicrotask(() => forget(hub, tool, watched))
}

/** The call status of `tool` now: what its watchers see, or {@link IDLE} when nobody watches it. */
export function readToolCalls(tm: Toolmark, tool: string): ToolCallSnapshot {
  return hubOf(tm)?.tools.get(tool)?.snapshot ?? IDLE
}

class CallStore extends Subscribable implements ToolCallStore {
  protected readonly label = 'tool status'
  constructor(
    readonly tm: Toolmark,
    readonly tool: string,
  ) {
    super()
  }
  protected report(event: ErrorEvent): void {
    reportError(this.tm, event)
  }
  protected override onFirst(): void {
    watchToolCalls(this.tm, this.tool, this)
  }
  protected override onLast(): void {
    unwatchToolCalls(this.tm, this.tool, this)
  }
  readonly getSnapshot = () => readToolCalls(this.tm, this.tool)
}

/**
 * One tool's call status from every caller, as an external store: `'running'` while any call of
 * it runs, else the last result's status. Listens to the registry only while subscribed. Not
 * exported: a binding reads its tool's call status from `createToolBinding`, which watches the
 * same way; this store drives the watch on its own in tests.
 *
 * @example
 * const store = createToolCallStore(tm, 'tickets.close')
 * const off = store.subscribe(() => console.log(store.getSnapshot().status))
 */
export function createToolCallStore(tm: Toolmark, tool: string): ToolCallStore {
  return new CallStore(tm, tool)
}
