import type { FetchQueryOptions, Query, QueryClient, QueryKey } from '@tanstack/react-query'

/** Tool calls waiting on each query right now, so an abort knows whether it was the only one. */
const waiting = new WeakMap<Query<any, any, any, any>, number>()

/**
 * `queryClient.fetchQuery` for one tool call: the same cache, staleness and in-flight request as
 * the UI, settled early when `signal` aborts. The fetch itself is cancelled only when nothing
 * else wants it (no other call waiting on it, no mounted observer such as a `useQuery`), so an
 * agent giving up never takes data away from the screen.
 */
export function fetchForCall<TData, TQueryKey extends QueryKey>(
  client: QueryClient,
  options: FetchQueryOptions<TData, Error, TData, TQueryKey>,
  signal: AbortSignal,
): Promise<TData> {
  if (signal.aborted) return Promise.reject(signal.reason)
  const fetching = client.fetchQuery(options)
  // fetchQuery builds the query synchronously, so it is in the cache by now.
  const query = client.getQueryCache().find<TData, Error, TData>({
    queryKey: options.queryKey,
    exact: true,
  })
  if (!query) return fetching

  waiting.set(query, (waiting.get(query) ?? 0) + 1)
  let released = false
  /** Stops counting this call; true when it was the last call waiting on the query. */
  const release = () => {
    if (released) return false
    released = true
    const left = (waiting.get(query) ?? 1) - 1
    if (left > 0) waiting.set(query, left)
    else waiting.delete(query)
    return left === 0
  }

  return new Promise<TData>((resolve, reject) => {
    const onAbort = () => {
      const last = release()
      if (last && query.getObserversCount() === 0 && query.state.fetchStatus !== 'idle') {
        void client.cancelQueries({ queryKey: options.queryKey, exact: true })
      }
      reject(signal.reason)
    }
    const settle = () => {
      signal.removeEventListener('abort', onAbort)
      release()
    }
    signal.addEventListener('abort', onAbort, { once: true })
    fetching.then(
      (data) => {
        settle()
        resolve(data)
      },
      (error: unknown) => {
        settle()
        reject(error)
      },
    )
  })
}
