import { useCallback, useEffect, useRef, useState } from 'react'
import type { FieldChange, ToolResult } from '@toolmark/core'
import {
  createPageClient,
  pageTools,
  type NeedsConfirmationResult,
  type OpenAIChatPageTool,
  type PageClient,
} from '@toolmark/core/agent'
import { bridge, createInPageChannel } from '@toolmark/core/bridge'
import { useToolmark } from '@toolmark/react'
import { createGrantedCalls, type GrantedCalls } from './grantedCalls.ts'
import { createLastChange, type LastChange } from './lastChange.ts'
import { fetchModel, runModelTurn, type ChatMessage } from './model.ts'
import { restoreConversation, saveConversation } from './conversation.ts'
import { plan, type PlanStep } from './planner.ts'
import { formatSize } from '../../shared/attachment.ts'
import { pastes } from '../pastes.ts'
import { runPlan } from './runPlan.ts'

export type StepState = 'running' | 'waiting' | 'done' | 'failed'

/** A ticket as `tickets.search` returns it. */
export interface TicketBrief {
  id: number
  title: string
  status: string
  priority: string
}

export type Entry =
  | { kind: 'user'; id: number; text: string }
  /** A file the person pasted: agents name it by `ref`. */
  | { kind: 'paste'; id: number; ref: string; name: string; size: number; type: string }
  | { kind: 'assistant'; id: number; text: string; tickets?: TicketBrief[]; error?: boolean }
  | {
      kind: 'step'
      id: number
      tool: string
      intent: string
      state: StepState
      /** What the step came to, in words ("Filled title and priority"). */
      detail?: string
      /** What a pending approval would change. */
      changes?: FieldChange[]
      result?: ToolResult
      /** The grant that let this call run without asking (the person's earlier approval). */
      grant?: string
    }

/** An entry before it has its id. */
type NewEntry = Entry extends infer E ? (E extends Entry ? Omit<E, 'id'> : never) : never

export type AssistantMode = 'scripted' | 'model'

/** A request the person sent while a turn was going: it goes out once the turn ends. */
export interface QueuedRequest {
  id: number
  text: string
}

interface Connection {
  client: PageClient
  /** `page_call` waits for the person, so a tool result is the final outcome. */
  tools: OpenAIChatPageTool[]
  /** The assistant's changes, for "undo that". */
  lastChange: LastChange
  /** Which calls ran on the person's earlier approval. */
  granted: GrantedCalls
}

const list = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`

/** What a finished step came to, for the transcript. */
export function describeResult(tool: string, result: ToolResult): string {
  switch (result.status) {
    case 'ok':
      return describeOk(tool, result.data)
    case 'invalid':
      return `Not valid: ${result.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`
    case 'refused':
      return `Refused (${result.code}): ${result.message}`
    case 'cancelled':
      return result.by === 'operator'
        ? 'You denied it; nothing changed.'
        : result.by === 'signal'
          ? 'Stopped.'
          : 'Stopped by the app (it took too long or is no longer available).'
    case 'error':
      return `Failed: ${result.message}`
    case 'needs_confirmation':
      return `Waiting for your approval: ${result.summary}`
  }
}

function describeOk(tool: string, data: unknown): string {
  const value = (data ?? {}) as Record<string, unknown>
  if (tool.endsWith('.fill')) {
    const changes = (value.changes as FieldChange[] | undefined) ?? []
    const skipped = (value.skipped as { path: string; reason: string }[] | undefined) ?? []
    const parts = [
      changes.length ? `Filled ${list(changes.map((c) => c.path))}` : 'Nothing to fill',
    ]
    if (skipped.length) {
      parts.push(
        `skipped ${list(skipped.map((s) => s.path))} (${skipped.every((s) => s.reason === 'user_edited') ? 'you edited it' : 'changed since'})`,
      )
    }
    return parts.join('; ')
  }
  if (tool.endsWith('.submit')) {
    const attached = Array.isArray(value.attachments)
      ? (value.attachments as { name?: unknown }[]).map((a) => String(a.name))
      : []
    return typeof value.id === 'number'
      ? `Saved ticket #${value.id} “${String(value.title ?? '')}”` +
          (attached.length ? ` with ${list(attached)} attached` : '')
      : 'Submitted'
  }
  switch (tool) {
    case 'tickets.compose':
      return 'The new-ticket form is open'
    case 'tickets.close':
      return `Closed ticket #${value.id}`
    case 'tickets.delete':
      return `Deleted ticket #${value.id}`
    case 'tickets.prioritize':
      return `Set ticket #${value.id} to ${value.priority} (was ${value.previous})`
    case 'tickets.open':
    case 'tickets.find':
      return `Opened ticket #${value.id} “${String(value.title ?? '')}”`
    case 'tickets.search':
      return `Found ${value.total} ticket${value.total === 1 ? '' : 's'}`
    case 'tour.start':
      return `Started a tour of ${value.steps} step${value.steps === 1 ? '' : 's'}`
    default:
      return 'Done'
  }
}

/**
 * The assistant panel's agent: an in-page bridge to the registry, a page client on the agent's
 * side (`@toolmark/core/agent`), and either the scripted planner or the configured model turning
 * requests into `page_call`s. Every call goes over protocol v1 as caller `inapp`, so consequential
 * ones come back `needs_confirmation` and their outcome arrives once the person decides.
 */
export function useAssistant() {
  const tm = useToolmark()
  // The conversation survives a reload of the tab; what was in flight is reported as dropped.
  const [restored] = useState(restoreConversation)
  const [entries, setEntries] = useState<Entry[]>(restored.entries)
  const [busy, setBusy] = useState(false)
  const [model, setModel] = useState<string | null>(null)
  const [mode, setMode] = useState<AssistantMode>('scripted')
  const connection = useRef<Connection | null>(null)
  const running = useRef<AbortController | null>(null)
  const history = useRef<ChatMessage[]>(restored.history)
  const nextId = useRef(restored.nextId)
  // What the person sent while a turn went on (an approval waiting, a step running, the model
  // thinking): sent in order once the turn ends, never into the middle of it.
  const [queued, setQueued] = useState<QueuedRequest[]>([])
  const queue = useRef<QueuedRequest[]>([])
  const nextQueuedId = useRef(1)
  const setQueue = useCallback((next: QueuedRequest[]) => {
    queue.current = next
    setQueued(next)
  }, [])

  useEffect(() => {
    saveConversation({ entries, history: history.current, nextId: nextId.current })
  }, [entries])

  useEffect(() => {
    const channel = createInPageChannel()
    const detach = tm.use(bridge({ transport: channel.page }))
    const client = createPageClient({ transport: channel.agent })
    const lastChange = createLastChange(tm)
    const granted = createGrantedCalls(tm)
    connection.current = {
      client,
      tools: pageTools(client, { format: 'openai', awaitConfirmation: true }),
      lastChange,
      granted,
    }
    return () => {
      connection.current = null
      granted.dispose()
      lastChange.dispose()
      client.close()
      detach()
      channel.close()
    }
  }, [tm])

  useEffect(() => {
    const controller = new AbortController()
    fetchModel(controller.signal).then(
      (configured) => {
        setModel(configured)
        if (configured) setMode('model')
      },
      () => {},
    )
    return () => controller.abort()
  }, [])

  const add = useCallback((entry: NewEntry): number => {
    const id = nextId.current++
    setEntries((all) => [...all, { ...entry, id } as Entry])
    return id
  }, [])
  const update = useCallback((id: number, patch: Partial<Entry>) => {
    setEntries((all) => all.map((e) => (e.id === id ? ({ ...e, ...patch } as Entry) : e)))
  }, [])

  /**
   * Runs one page call as a transcript step. `execute` reports a pending approval through
   * `waiting` and resolves with the final outcome.
   */
  const runStep = useCallback(
    async (
      step: PlanStep,
      execute: (waiting: (asked: NeedsConfirmationResult) => void) => Promise<ToolResult>,
    ): Promise<ToolResult> => {
      const id = add({ kind: 'step', tool: step.tool, intent: step.intent, state: 'running' })
      const granted = connection.current?.granted
      const since = granted?.mark() ?? 0
      let result: ToolResult
      let confirmId: string | undefined
      try {
        result = await execute((needs) => {
          confirmId = needs.confirmId
          update(id, {
            state: 'waiting',
            detail: `Waiting for your approval: ${needs.summary}`,
            changes: needs.changes,
          })
        })
      } catch (error) {
        // Stop ended the wait, and withdrew the request from the dialog: nothing ran.
        update(id, {
          state: 'failed',
          detail: confirmId
            ? 'Stopped; the request was withdrawn and nothing changed.'
            : 'Stopped.',
          changes: undefined,
        })
        throw error
      }
      // Nobody was asked: the conversation says whose approval let it run, and offers Revoke.
      const grant = confirmId ? undefined : granted?.take(step.tool, step.input, since)
      update(id, {
        state: result.status === 'ok' ? 'done' : 'failed',
        detail: describeResult(step.tool, result),
        result,
        changes: undefined,
        ...(grant ? { grant } : {}),
      })
      return result
    },
    [add, update],
  )

  const runScripted = useCallback(
    async (conn: Connection, text: string, signal: AbortSignal) => {
      // Like a model, the planner plans from the tools the page shows right now.
      const planned = plan(text, {
        tools: conn.client.manifest?.tools ?? [],
        pastes: pastes.list().map(({ ref, file }) => ({
          ref,
          name: file.name,
          type: file.type,
          size: file.size,
        })),
      })
      await runPlan(planned, {
        client: conn.client,
        lastChange: conn.lastChange,
        signal,
        runStep,
        say: (answer, tickets) => void add({ kind: 'assistant', text: answer, tickets }),
        describe: describeResult,
      })
    },
    [add, runStep],
  )

  const runModel = useCallback(
    async (conn: Connection, text: string, signal: AbortSignal) => {
      history.current = [...history.current, { role: 'user', content: text }]
      const turn = await runModelTurn({
        history: history.current,
        tools: conn.tools,
        signal,
        runTool: async (tool, args) => {
          let parsed: { tool?: unknown; input?: unknown } = {}
          try {
            parsed = JSON.parse(args)
          } catch {}
          const name = typeof parsed.tool === 'string' ? parsed.tool : tool.function.name
          const step: PlanStep = {
            tool: name,
            input: (parsed.input ?? {}) as Record<string, unknown>,
            intent: tool.function.name === 'page_describe' ? `Read about ${name}` : `Call ${name}`,
          }
          // The final outcome, with `approvalAsked` when a person was asked.
          return runStep(step, (waiting) =>
            tool.execute(args, { signal, onNeedsConfirmation: waiting }),
          )
        },
      })
      history.current = turn.history
      add({ kind: 'assistant', text: turn.text || 'Done.' })
    },
    [add, runStep],
  )

  /** Runs one turn for `request`; the caller made sure no other turn runs. */
  const start = useCallback(
    async (request: string) => {
      const conn = connection.current
      if (!conn) return
      const controller = new AbortController()
      running.current = controller
      setBusy(true)
      add({ kind: 'user', text: request })
      try {
        await conn.client.ready
        if (mode === 'model' && model) await runModel(conn, request, controller.signal)
        else await runScripted(conn, request, controller.signal)
      } catch (error) {
        add({
          kind: 'assistant',
          text: controller.signal.aborted
            ? 'Stopped.'
            : `Something went wrong: ${error instanceof Error ? error.message : String(error)}`,
          error: !controller.signal.aborted,
        })
      } finally {
        running.current = null
        setBusy(false)
      }
    },
    [add, mode, model, runModel, runScripted],
  )

  /**
   * Sends a request. While a turn goes on it waits in `queued` (the panel shows it, and the person
   * can take it back) and goes out once the turn ends, after what was queued before it.
   */
  const send = useCallback(
    async (text: string) => {
      const request = text.trim()
      if (!connection.current || !request) return
      if (running.current || queue.current.length > 0) {
        setQueue([...queue.current, { id: nextQueuedId.current++, text: request }])
        return
      }
      await start(request)
    },
    [setQueue, start],
  )

  /** Takes a queued request back: it is not sent. */
  const unqueue = useCallback(
    (id: number) => setQueue(queue.current.filter((item) => item.id !== id)),
    [setQueue],
  )

  // The turn ended (however it ended: answered, stopped, failed): the next queued request goes.
  useEffect(() => {
    if (busy || running.current) return
    const [next, ...rest] = queue.current
    if (!next) return
    setQueue(rest)
    void start(next.text)
  }, [busy, queued, setQueue, start])

  /**
   * Stop: ends the turn (its waits and the model request), cancels every agent call still running
   * in the page, and withdraws the confirmations the turn asked for, so the dialog lets go of
   * them and none can run later (`cancelled operator`: the person said stop).
   */
  const stop = useCallback(() => {
    running.current?.abort()
    tm.cancelAll()
    // The assistant is this page's only `inapp` caller, and one turn runs at a time: its pending
    // confirmations are this turn's. Read from the store rather than from the answers the turn
    // received, so a request filed just before Stop, whose answer the turn no longer waits for,
    // is withdrawn too.
    for (const entry of tm.confirmations.list()) {
      if (entry.caller === 'inapp') void tm.confirmations.reject(entry.id, 'Stopped')
    }
  }, [tm])

  /**
   * Keeps files the person pasted (an image from the clipboard) as refs agents can name: the
   * transcript shows each one, and the model reads the same note in its history.
   */
  const paste = useCallback(
    (files: readonly File[]) => {
      for (const file of files) {
        const { ref } = pastes.add(file)
        const { name, size, type } = file
        add({ kind: 'paste', ref, name, size, type })
        history.current = [
          ...history.current,
          {
            role: 'user',
            content:
              `I pasted a file: “${name}” (${type || 'unknown type'}, ${formatSize(size)}). ` +
              `To put it in a form's file field, fill that field with { "ref": "${ref}" }.`,
          },
        ]
      }
    },
    [add],
  )

  const clear = useCallback(() => {
    history.current = []
    setEntries([])
  }, [])

  return { entries, busy, send, queued, unqueue, stop, clear, paste, model, mode, setMode }
}

/** What {@link useAssistant} gives the panel and the dialog's Stop. */
export type Assistant = ReturnType<typeof useAssistant>
