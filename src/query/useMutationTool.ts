'use client'
import { useRef } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import type { MutationKey, QueryClient, QueryKey } from '@tanstack/react-query'
import { ok, refuse } from '@toolmark/core'
import type {
  JsonSchema,
  StandardSchemaV1,
  ToolDefinition,
  ToolHints,
  Toolmark,
} from '@toolmark/core'
import { useResolvedToolmark } from '../ToolmarkContext'
import { useTool, type UseToolResult } from '../useTool'
import { executeMutation, invalidateAll } from './executeMutation'
import { failure } from './failure'
import { useIsomorphicLayoutEffect } from '../useIsomorphicLayoutEffect'

const MUTATION_FAILED = { code: 'mutation_failed', what: 'mutation', message: 'Mutation failed' }
const UNDO_FAILED = { code: 'undo_failed', what: 'undo', message: 'Undo failed' }

/** Options of {@link useMutationTool}. */
export interface UseMutationToolOptions<TInput = unknown, TData = unknown> {
  /** Local tool name; the full name adds the enclosing `<ToolScope>` path. */
  name: string
  /** For the model: what the tool changes and when to use it. */
  description: string
  /** For people (dialogs, devtools). */
  title?: string
  /** Input schema; a zod 4 schema works as is. Without one, the tool takes no input. */
  input?: StandardSchemaV1<unknown, TInput>
  /** Explicit JSON Schema for the manifest, overriding the schema's own. */
  inputSchema?: JsonSchema
  /**
   * What the change is, for safety: `consequential` asks a person before an agent's call runs,
   * `destructive` also hides the tool from browser and desktop agents. Required, so every
   * write states its class; `{}` is a plain write that needs no confirmation.
   */
  hints: ToolHints
  /**
   * Performs the change on the server. `signal` aborts when the agent cancels or the deadline
   * passes: pass it to `fetch`.
   */
  mutationFn: (input: TInput, context: { signal: AbortSignal }) => Promise<TData>
  /** Tags the mutation in the cache, for `useIsMutating({ mutationKey })` and friends. */
  mutationKey?: MutationKey
  /**
   * Query keys (prefixes) made stale by a successful call, and again by its undo: active queries
   * refetch, so the screen shows what the agent did. The call's result waits for those refetches.
   */
  invalidates?: readonly QueryKey[] | ((input: TInput, data: TData) => readonly QueryKey[])
  /**
   * The inverse mutation. When given, each successful call registers it as the call's undo
   * (`tm.undo(callId)`, the activity log's Undo): it runs through the mutation cache too, then
   * invalidates `invalidates` again.
   */
  undo?: (input: TInput, data: TData) => Promise<unknown>
  /** A one-liner for people, shown in confirmations. */
  summary?: (input: TInput) => string
  /**
   * A precondition, run before a person is asked and again before an approved run: return
   * `undefined` to go on, or the result that ends the call (a refusal with an app code such as `not_found`).
   */
  check?: ToolDefinition<TInput, TData>['check']
  /** Input paths redacted in confirmations, events and devtools. */
  sensitive?: ToolDefinition['sensitive']
  /** Deadline for one call in ms. Default: the registry's `limits.callTimeoutMs`. */
  timeoutMs?: number
  /** The client to use instead of the nearest `<QueryClientProvider>`'s. */
  queryClient?: QueryClient
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

/**
 * Declares a tool that writes through the TanStack Query mutation cache, so an agent's call is a
 * mutation like the user's own: `useIsMutating` and `useMutationState` show it while it runs
 * (its `meta.toolmark` holds `{ tool, callId, caller }`), `invalidates` refetches what it made
 * stale, and `undo` registers the inverse mutation as the call's undo.
 *
 * The result's `data` is what `mutationFn` resolved with. A failed mutation returns
 * `{ status: 'error', message: 'Mutation failed' }`; the server's error goes only to an `error`
 * event with code `mutation_failed` (`undo_failed` for a failed inverse).
 *
 * @example
 * ```tsx
 * function Todos() {
 *   const todos = useQuery({ queryKey: ['todos'], queryFn: api.listTodos })
 *   useMutationTool({
 *     name: 'todos.add',
 *     description: 'Adds a todo with this title.',
 *     input: z.object({ title: z.string().min(1) }),
 *     hints: {},
 *     mutationFn: ({ title }, { signal }) => api.addTodo(title, signal),
 *     invalidates: [['todos']],
 *     undo: (_input, todo) => api.deleteTodo(todo.id),
 *   })
 *   return <TodoList todos={todos.data ?? []} />
 * }
 * ```
 */
export function useMutationTool<TInput = unknown, TData = unknown>(
  options: UseMutationToolOptions<TInput, TData>,
): UseToolResult<TInput, TData> {
  const tm = useResolvedToolmark(options.toolmark, 'useMutationTool')
  const client = useQueryClient(options.queryClient)
  const { mutationFn, mutationKey } = options
  // An undo runs after later renders: it takes the options of its own time, not of the call's.
  const latest = useRef(options)
  useIsomorphicLayoutEffect(() => {
    latest.current = options
  })

  const keysFor = (input: TInput, data: TData): readonly QueryKey[] => {
    const { invalidates } = latest.current
    return typeof invalidates === 'function' ? invalidates(input, data) : (invalidates ?? [])
  }

  const tool: UseToolResult<TInput, TData> = useTool<TInput, TData>(
    {
      name: options.name,
      description: options.description,
      title: options.title,
      input: options.input,
      inputSchema: options.inputSchema,
      hints: options.hints,
      summary: options.summary,
      check: options.check,
      sensitive: options.sensitive,
      timeoutMs: options.timeoutMs,
      // useTool always runs the latest render's `run`, so these are the current options.
      run: async (input, ctx) => {
        const meta = { toolmark: { tool: tool.name, callId: ctx.callId, caller: ctx.caller } }
        let data: TData
        try {
          data = await executeMutation(
            client,
            {
              mutationKey,
              meta,
              mutationFn: (variables: TInput) => mutationFn(variables, { signal: ctx.signal }),
              // Returned, so the mutation stays pending until the screen has caught up.
              onSuccess: (result, variables) => invalidateAll(client, keysFor(variables, result)),
            },
            input,
          )
        } catch (error) {
          // Thrown on: the registry reports the call as cancelled, not as failed.
          if (ctx.signal.aborted) throw error
          return failure(tm, ctx, tool.name, MUTATION_FAILED, error)
        }

        if (options.undo) {
          ctx.registerUndo(async () => {
            const { undo, mutationKey: undoKey } = latest.current
            if (!undo) return refuse('undo_unavailable', 'This tool no longer has an undo')
            try {
              await executeMutation(
                client,
                {
                  mutationKey: undoKey,
                  meta: { toolmark: { ...meta.toolmark, undo: true } },
                  mutationFn: (variables: TInput) => undo(variables, data),
                  onSuccess: () => invalidateAll(client, keysFor(input, data)),
                },
                input,
              )
            } catch (error) {
              return failure(tm, ctx, tool.name, UNDO_FAILED, error)
            }
            return ok(null)
          })
        }
        return ok(data)
      },
    },
    { toolmark: tm },
  )
  return tool
}
