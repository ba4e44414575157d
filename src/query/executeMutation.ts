import { MutationObserver } from '@tanstack/react-query'
import type { MutationOptions, QueryClient, QueryKey } from '@tanstack/react-query'

/**
 * Runs one mutation through the client's mutation cache, as `useMutation().mutateAsync` would:
 * `useIsMutating`, `useMutationState` and the cache's `onMutate`/`onSuccess`/`onError` callbacks
 * see it like any mutation the UI starts. The observer lets go once it settles, so the mutation
 * is garbage-collected after `gcTime` like the UI's.
 */
export async function executeMutation<TData, TVariables>(
  client: QueryClient,
  options: MutationOptions<TData, Error, TVariables>,
  variables: TVariables,
): Promise<TData> {
  const observer = new MutationObserver<TData, Error, TVariables>(client, options)
  try {
    return await observer.mutate(variables)
  } finally {
    observer.reset()
  }
}

/** Invalidates every key (each as a prefix, like `invalidateQueries`); active queries refetch. */
export async function invalidateAll(client: QueryClient, keys: readonly QueryKey[]): Promise<void> {
  await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })))
}
