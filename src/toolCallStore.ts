import type { ToolResult, Toolmark } from '@toolmark/core'
import type { UseToolStatus } from './useTool'

/** What `useTool` shows about its tool's calls. */
export interface ToolCallSnapshot {
  readonly status: UseToolStatus
  readonly lastResult: ToolResult | undefined
}

/** One tool's call status, as an external store for `useSyncExternalStore`. */
export interface ToolCallStore {
  subscribe(listener: () => void): () => void
  getSnapshot(): ToolCallSnapshot
}

/** The snapshot of a tool nobody has seen called. */
export const IDLE: ToolCallSnapshot = Object.freeze({ status: 'idle', lastResult: undefined })

interface Watched {
  listeners: Set<() => void>
  /** Calls in flight, made on the first call (most tools are watched and never called). */
  running: Set<string> | undefined
  snapshot: ToolCallSnapshot
}

interface Hub {
  tools: Map<string, Watched>
  stop: (() => void) | undefined
}

// One pair of event listeners per registry, however many tools are watched: a call is routed
// to its tool by name instead of waking every useTool in the app.
const hubs = new WeakMap<Toolmark, Hub>()

function hubFor(tm: Toolmark): Hub {
  let hub = hubs.get(tm)
  if (!hub) {
    hub = { tools: new Map(), stop: undefined }
    hubs.set(tm, hub)
  }
  return hub
}

function publish(watched: Watched, next: ToolCallSnapshot) {
  const current = watched.snapshot
  if (next.status === current.status && next.lastResult === current.lastResult) return
  watched.snapshot = Object.freeze(next)
  for (const listener of [...watched.listeners]) listener()
}

function start(tm: Toolmark, hub: Hub) {
  const offCall = tm.events.on('call', (event) => {
    const watched = hub.tools.get(event.tool)
    if (!watched) return
    ;(watched.running ??= new Set()).add(event.callId)
    publish(watched, { status: 'running', lastResult: watched.snapshot.lastResult })
  })
  const offResult = tm.events.on('result', (event) => {
    const watched = hub.tools.get(event.tool)
    if (!watched) return
    watched.running?.delete(event.callId)
    publish(watched, {
      status: watched.running?.size ? 'running' : event.result.status,
      lastResult: event.result,
    })
  })
  return () => {
    offCall()
    offResult()
  }
}

function forget(hub: Hub, tool: string, watched: Watched) {
  if (watched.listeners.size > 0 || hub.tools.get(tool) !== watched) return
  hub.tools.delete(tool)
  if (hub.tools.size === 0) {
    hub.stop?.()
    hub.stop = undefined
  }
}

/**
 * Watches the calls of `tool` from every caller. The registry is listened to only while some
 * tool is watched; a tool's status is kept while someone watches it and forgotten after.
 */
export function createToolCallStore(tm: Toolmark, tool: string): ToolCallStore {
  const hub = hubFor(tm)
  return {
    subscribe(listener) {
      let watched = hub.tools.get(tool)
      if (!watched) {
        watched = { listeners: new Set(), running: undefined, snapshot: IDLE }
        hub.tools.set(tool, watched)
        if (hub.stop === undefined) hub.stop = start(tm, hub)
      }
      const mine = watched
      mine.listeners.add(listener)
      return () => {
        mine.listeners.delete(listener)
        // Forgotten a microtask later, so a tool registered again at once (a new description,
        // StrictMode's second mount) keeps its status.
        if (mine.listeners.size === 0) queueMicrotask(() => forget(hub, tool, mine))
      }
    },
    getSnapshot: () => hub.tools.get(tool)?.snapshot ?? IDLE,
  }
}
