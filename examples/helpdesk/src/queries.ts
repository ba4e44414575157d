import type { Approval, Caller } from '@toolmark/core'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Ticket, TicketInput, TicketPatch, View } from '../shared/ticket.ts'
import { api } from './api.ts'

/** Query keys: every list under `['tickets', 'list', …]`, every ticket under `['tickets', 'detail', id]`. */
export const ticketKeys = {
  all: ['tickets'] as const,
  lists: ['tickets', 'list'] as const,
  list: (q: string, view: View) => ['tickets', 'list', { q, view }] as const,
  detail: (id: number) => ['tickets', 'detail', id] as const,
}

export function useTicketList(q: string, view: View) {
  return useQuery({
    queryKey: ticketKeys.list(q, view),
    queryFn: ({ signal }) => api.list({ q, view }, signal),
    placeholderData: keepPreviousData,
  })
}

export function useTicket(id: number | undefined) {
  return useQuery({
    queryKey: ticketKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get(id ?? 0, signal),
    enabled: id !== undefined,
  })
}

/** After any write: store the ticket we got back and refetch the lists (counts change too). */
function useSettle() {
  const client = useQueryClient()
  return (ticket: Ticket) => {
    client.setQueryData(ticketKeys.detail(ticket.id), ticket)
    return client.invalidateQueries({ queryKey: ticketKeys.lists })
  }
}

export function useCreateTicket() {
  const settle = useSettle()
  return useMutation({
    mutationKey: ['tickets', 'create'],
    // `files`: the new ticket's attachment, uploaded with it in one request.
    mutationFn: ({ files, ...input }: TicketInput & { files?: readonly File[] }) =>
      api.create(input, files),
    onSuccess: settle,
  })
}

export function useUpdateTicket() {
  const settle = useSettle()
  return useMutation({
    mutationKey: ['tickets', 'update'],
    mutationFn: ({ id, patch }: { id: number; patch: TicketPatch }) => api.update(id, patch),
    onSuccess: settle,
  })
}

export function useCloseTicket() {
  const settle = useSettle()
  return useMutation({
    mutationKey: ['tickets', 'close'],
    mutationFn: (id: number) => api.close(id),
    onSuccess: settle,
  })
}

export function useDeleteTicket() {
  const client = useQueryClient()
  return useMutation({
    mutationKey: ['tickets', 'delete'],
    mutationFn: ({ id, ...options }: { id: number; approval?: Approval; caller?: Caller }) =>
      api.remove(id, options),
    onSuccess: (_data, { id }) => {
      client.removeQueries({ queryKey: ticketKeys.detail(id) })
      return client.invalidateQueries({ queryKey: ticketKeys.lists })
    },
  })
}
