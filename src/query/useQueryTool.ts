'use client'
import { useQueryClient } from '@tanstack/react-query'
import type {
  FetchQueryOptions,
  QueryClient,
  QueryFunctionContext,
  QueryKey,
} from '@tanstack/react-query'
import { ok } from '@toolmark/core'
import type { JsonSchema, StandardSchemaV1, Toolmark } from '@toolmark/core'
import { useResolvedToolmark } from '../ToolmarkContext'
import { useTool, type UseToolResult } from '../useTool'
import { failure } from './failure'
import { fetchForCall } from './fetchForCall'

const QUERY_FAILED = { code: 'query_failed', what: 'query', message: 'Query failed' }

/** Options of {@link useQueryTool}. */
export interface UseQueryToolOptions<
  TInput = unknown,
  TQueryFnData = unknown,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
> {
  /** Local tool name; the full name adds the enclosing `<ToolScope>` path. */
  name: string
  /** For the model: what the tool returns and when to use it. */
  description: string
  /** For people (dialogs, devtools). */
  title?: string
  /** Input schema; a zod 4 schema works as is. Without one, the tool takes no input. */
  input?: StandardSchemaV1<unknown, TInput>
  /** Explicit JSON Schema for the manifest, overriding the schema's own. */
  inputSchema?: JsonSchema
  /** The cache key for an input: use the key your `useQuery` uses, so both share one entry. */
  queryKey: (input: TInput) => TQueryKey
  /**
   * Fetches the data for an input. It receives TanStack Query's own function context: pass its
   * `signal` to `fetch` so an agent that gives up cancels the request.
   */
  queryFn: (
    input: TInput,
    context: QueryFunctionContext<TQueryKey>,
  ) => TQueryFnData | Promise<TQueryFnData>
  /** Shapes what the agent receives (a smaller object costs fewer tokens). Default: the data. */
  select?: (data: TQueryFnData, input: TInput) => TData
  /**
   * How long cached data counts as fresh for agent reads. Default: the client's default
   * `staleTime` (TanStack's default is `0`: every agent read refetches unless a fetch is
   * already in flight, which it joins).
   */
  staleTime?: FetchQueryOptions<TQueryFnData, Error, TQueryFnData, TQueryKey>['staleTime']
  /** Deadline for one call in ms. Default: the registry's `limits.callTimeoutMs`. */
  timeoutMs?: number
  /** The client to use instead of the nearest `<QueryClientProvider>`'s. */
  queryClient?: QueryClient
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

const HINTS = { readOnly: true, untrustedContent: true } as const

/**
 * Declares a read-only tool answered from the TanStack Query cache. A call goes through
 * `queryClient.fetchQuery` with `queryKey(input)`: fresh cached data is returned without a
 * request, a fetch the UI already started is joined rather than repeated, and what the agent
 * fetched lands in the cache the UI renders. Aborting the call settles it at once and cancels the
 * fetch unless a mounted query or another call still waits for it.
 *
 * The tool is marked `readOnly` and `untrustedContent`: server data is data, not instructions.
 * A failed fetch returns `{ status: 'error', message: 'Query failed' }`; the error itself goes to
 * an `error` event with code `query_failed`.
 *
 * @example
 * ```tsx
 * function TicketList() {
 *   const tickets = useQuery({ queryKey: ['tickets'], queryFn: ({ signal }) => api.tickets(signal) })
 *   useQueryTool({
 *     name: 'tickets.search',
 *     description: 'Lists tickets whose title contains `query`.',
 *     input: z.object({ query: z.string().default('') }),
 *     queryKey: () => ['tickets'],
 *     queryFn: (_input, { signal }) => api.tickets(signal),
 *     select: (all, { query }) => all.filter((t) => t.title.includes(query)),
 *     staleTime: 30_000,
 *   })
 *   return <List items={tickets.data ?? []} />
 * }
 * ```
 */
export function useQueryTool<
  TInput = unknown,
  TQueryFnData = unknown,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
>(
  options: UseQueryToolOptions<TInput, TQueryFnData, TData, TQueryKey>,
): UseToolResult<TInput, TData> {
  const tm = useResolvedToolmark(options.toolmark, 'useQueryTool')
  const client = useQueryClient(options.queryClient)
  const { queryKey, queryFn, select, staleTime } = options

  const tool: UseToolResult<TInput, TData> = useTool<TInput, TData>(
    {
      name: options.name,
      description: options.description,
      title: options.title,
      input: options.input,
      inputSchema: options.inputSchema,
      timeoutMs: options.timeoutMs,
      hints: HINTS,
      // useTool always runs the latest render's `run`, so these are the current options.
      run: async (input, ctx) => {
        const key = queryKey(input)
        let data: TQueryFnData
        try {
          data = await fetchForCall(
            client,
            {
              queryKey: key,
              queryFn: (context) => queryFn(input, context),
              // An explicit `undefined` would hide the client's default staleTime.
              ...(staleTime === undefined ? {} : { staleTime }),
            },
            ctx.signal,
          )
        } catch (error) {
          // Thrown on: the registry reports the call as cancelled, not as failed.
          if (ctx.signal.aborted) throw error
          return failure(tm, ctx, tool.name, QUERY_FAILED, error)
        }
        return ok(select ? select(data, input) : (data as unknown as TData))
      },
    },
    { toolmark: tm },
  )
  return tool
}
