import { useEffect } from 'react'
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { errorResult, invalid, ok, refuse, type ToolResult } from '@toolmark/core'
import { registerTourTool } from '@toolmark/core/tour'
import { useTool } from '@toolmark/react'
import { useMutationTool, useQueryTool } from '@toolmark/react/query'
import { z } from 'zod'
import { PRIORITIES, VIEWS, type Ticket, type TicketList } from '../shared/ticket.ts'
import { ApiError, api } from './api.ts'
import { useFindTicketTool } from './findTicket.ts'
import { useCloseTicket, useDeleteTicket, ticketKeys } from './queries.ts'
import { navigate, parseRoute, routeTicketId } from './route.ts'
import { tm, waitForNewTool } from './toolmark.ts'

// Schemas live at module scope: a tool registers again only when its schema object changes.
const ticketId = z.object({
  id: z.number().int().positive().describe('The ticket number, e.g. 3 for ticket #3'),
})
const searchInput = z.object({
  query: z
    .string()
    .max(200)
    .describe('Words to look for in titles, descriptions and requester emails, or "#12"'),
  view: z
    .enum(VIEWS)
    .optional()
    .describe('Which tickets: active (default: open and pending), open, pending, closed or all'),
})
const priorityInput = ticketId.extend({
  priority: z.enum(PRIORITIES).describe('The new priority: low, normal, high or urgent'),
})

/** What agents get for a ticket in lists: enough to choose, without the long description. */
function brief(ticket: Ticket) {
  const { id, title, status, priority, category, requester, assignee, createdAt } = ticket
  return { id, title, status, priority, category, requester, assignee, createdAt }
}

/** "#3 “Zoom screen sharing shows a black window”", from whatever the cache already holds. */
function label(client: QueryClient, id: number): string {
  const cached =
    client.getQueryData<Ticket>(ticketKeys.detail(id)) ??
    client
      .getQueriesData<TicketList>({ queryKey: ticketKeys.lists })
      .flatMap(([, list]) => list?.tickets ?? [])
      .find((ticket) => ticket.id === id)
  return cached ? `#${id} “${cached.title}”` : `#${id}`
}

/**
 * Reads the ticket fresh from the server for a tool's `check` (and leaves it in the cache, so the
 * dialog's summary can name it): the ticket, or the refusal that ends the call before anyone is
 * asked to approve something that cannot happen.
 */
async function current(
  client: QueryClient,
  id: number,
  signal: AbortSignal,
): Promise<Ticket | ToolResult<never>> {
  try {
    const ticket = await api.get(id, signal)
    client.setQueryData(ticketKeys.detail(id), ticket)
    return ticket
  } catch (error) {
    return failure(error, id)
  }
}

const isTicket = (value: Ticket | ToolResult<never>): value is Ticket => 'id' in value

/** Maps an API failure to the result an agent can act on. */
function failure(error: unknown, id?: number): ToolResult<never> {
  if (error instanceof ApiError) {
    if (error.status === 404) {
      return refuse('not_found', id ? `Ticket #${id} does not exist` : error.message)
    }
    if (error.status === 409) return refuse(error.code, error.message)
    if (error.status === 403) return refuse(error.code, error.message)
    if (error.status === 400) return invalid(error.issues)
  }
  return errorResult('The helpdesk server could not be reached')
}

/**
 * The helpdesk's ticket tools, declared once for every caller: the buttons of the detail pane
 * call the same `tickets.close` and `tickets.delete` (as caller `human`, so no dialog) that the
 * assistant, browser agents and desktop agents call (and that wait for a person there).
 */
export function useTicketTools() {
  const client = useQueryClient()
  const closeTicket = useCloseTicket()
  const deleteTicket = useDeleteTicket()

  const close = useTool({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Close a ticket once solved or no longer relevant.',
    input: ticketId,
    hints: { consequential: true },
    summary: ({ id }) => `Close ticket ${label(client, id)}`,
    check: async ({ id }, { signal }) => {
      const ticket = await current(client, id, signal)
      if (!isTicket(ticket)) return ticket
      if (ticket.status === 'closed') {
        return refuse('already_closed', `Ticket #${id} is already closed`)
      }
      return undefined
    },
    run: async ({ id }) => {
      try {
        const ticket = await closeTicket.mutateAsync(id)
        return ok({ id: ticket.id, status: ticket.status, closedAt: ticket.closedAt })
      } catch (error) {
        return failure(error, id)
      }
    },
  })

  const remove = useTool({
    name: 'tickets.delete',
    title: 'Delete ticket',
    description: 'Delete a ticket for good, only when asked to (most requests mean close).',
    input: ticketId,
    hints: { destructive: true },
    // Whoever asks (the assistant, a browser agent), approving a delete takes the person's passkey.
    verify: true,
    summary: ({ id }) => `Delete ticket ${label(client, id)} for good`,
    check: async ({ id }, { signal }) => {
      const ticket = await current(client, id, signal)
      return isTicket(ticket) ? undefined : ticket
    },
    run: async ({ id }, ctx) => {
      try {
        // An agent's delete carries the person's passkey approval: the API checks it again.
        await deleteTicket.mutateAsync({ id, approval: ctx.approval, caller: ctx.caller })
        if (routeTicketId(parseRoute(window.location.hash)) === id) navigate({ name: 'home' })
        return ok({ id, deleted: true })
      } catch (error) {
        return failure(error, id)
      }
    },
  })

  useTool({
    name: 'tickets.open',
    title: 'Open ticket',
    description: 'Show a ticket with its details.',
    input: ticketId,
    hints: { untrustedContent: true },
    run: async ({ id }, ctx) => {
      try {
        const ticket = await client.fetchQuery({
          queryKey: ticketKeys.detail(id),
          queryFn: () => api.get(id, ctx.signal),
        })
        navigate({ name: 'ticket', id })
        return ok(ticket)
      } catch (error) {
        return failure(error, id)
      }
    },
  })

  // "open the printer ticket": asks the person which one when several match.
  useFindTicketTool()

  useTool({
    name: 'tickets.compose',
    title: 'Start a new ticket',
    description: 'Open the empty new-ticket form.',
    run: async (_input, ctx) => {
      const from = parseRoute(window.location.hash).name
      if (from !== 'new') {
        navigate({ name: 'new' })
        // The queue with nothing selected already holds the empty form; elsewhere it mounts now.
        if (from !== 'home') await waitForNewTool(tm, 'ticket.fill', { signal: ctx.signal })
      }
      return ok({ form: 'ticket', tools: ['ticket.fill', 'ticket.submit', 'ticket.state'] })
    },
  })

  // "show me how…": the in-app assistant answers with a tour of these tools (src/tours.ts)
  // instead of doing the work. Browser and desktop agents are refused it.
  useEffect(() => {
    const handle = registerTourTool(tm)
    return () => handle.dispose()
  }, [])

  // Served from the same TanStack Query cache entry the list renders: an agent's search and the
  // person's search share one request.
  useQueryTool({
    name: 'tickets.search',
    title: 'Search tickets',
    description: 'Find tickets by words or requester email (or "#12"), newest first.',
    input: searchInput,
    queryKey: ({ query, view = 'active' }) => ticketKeys.list(query.trim(), view),
    queryFn: ({ query, view = 'active' }, { signal }) =>
      api.list({ q: query.trim(), view }, signal),
    select: (list) => ({ total: list.tickets.length, tickets: list.tickets.map(brief) }),
    staleTime: 5_000,
  })

  // A plain write (no approval needed) that runs through the mutation cache and can be undone
  // from the activity log: the undo puts the previous priority back.
  useMutationTool({
    name: 'tickets.prioritize',
    title: 'Change priority',
    description: "Set a ticket's priority. Undoable.",
    input: priorityInput,
    hints: {},
    summary: ({ id, priority }) => `Set ticket ${label(client, id)} to ${priority} priority`,
    // A closed ticket is out of every queue: a new priority would change nothing anyone sees.
    check: async ({ id }, { signal }) => {
      const ticket = await current(client, id, signal)
      if (!isTicket(ticket)) return ticket
      if (ticket.status === 'closed') {
        return refuse('ticket_closed', `Ticket #${id} is closed; reopen it to change its priority`)
      }
      return undefined
    },
    mutationKey: ['tickets', 'prioritize'],
    mutationFn: async ({ id, priority }, { signal }) => {
      const before = await api.get(id, signal)
      const after = await api.update(id, { priority }, signal)
      return { id, priority: after.priority, previous: before.priority }
    },
    invalidates: ({ id }) => [ticketKeys.lists, ticketKeys.detail(id)],
    undo: ({ id }, data) => api.update(id, { priority: data.previous }),
  })

  return { close, remove }
}
