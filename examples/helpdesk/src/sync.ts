import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { ticketKeys } from './queries.ts'

const CHANNEL = 'northwind-helpdesk'
const CHANGED = 'tickets-changed'

/**
 * Keeps every open tab of the helpdesk in step: each successful ticket mutation (the person's,
 * or an agent's through a tool, undo included) is announced over a `BroadcastChannel`, and the
 * other tabs invalidate their ticket queries, so their lists and the open ticket refetch (a
 * ticket deleted elsewhere then answers 404, and the pane lets it go).
 */
export function useTicketSync(): void {
  const client = useQueryClient()
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return
    const channel = new BroadcastChannel(CHANNEL)
    const stop = client.getMutationCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return
      if (event.mutation.options.mutationKey?.[0] !== ticketKeys.all[0]) return
      channel.postMessage({ type: CHANGED })
    })
    channel.onmessage = (event: MessageEvent<{ type?: string }>) => {
      if (event.data?.type === CHANGED) void client.invalidateQueries({ queryKey: ticketKeys.all })
    }
    return () => {
      stop()
      channel.close()
    }
  }, [client])
}
