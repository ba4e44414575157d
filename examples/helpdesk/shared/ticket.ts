import { z } from 'zod'
import type { Attachment } from './attachment.ts'

/** How urgent a ticket is, lowest first. */
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
/** What a ticket is about. */
export const CATEGORIES = ['hardware', 'software', 'access', 'network', 'other'] as const
/** Where a ticket stands. `pending` waits on the requester or a third party. */
export const STATUSES = ['open', 'pending', 'closed'] as const

export type Priority = (typeof PRIORITIES)[number]
export type Category = (typeof CATEGORIES)[number]
export type Status = (typeof STATUSES)[number]

/** The list filters of the sidebar; `active` is everything that is not closed. */
export const VIEWS = ['active', 'open', 'pending', 'closed', 'all'] as const
export type View = (typeof VIEWS)[number]

/**
 * The fields a person (or an agent) writes when creating or editing a ticket. The same schema
 * validates the form in the browser and the request body on the server.
 */
export const ticketInput = z.object({
  title: z
    .string()
    .min(3, 'Give the ticket a title of at least 3 characters')
    .max(120, 'Keep the title under 120 characters')
    .describe('Short summary of the problem, e.g. "Printer on floor 3 jams"'),
  requester: z
    .email('Enter the email address of the person who reported it')
    .describe('Email address of the person who reported the problem'),
  category: z.enum(CATEGORIES).describe('What the ticket is about'),
  priority: z.enum(PRIORITIES).describe('How urgent it is: low, normal, high or urgent'),
  description: z
    .string()
    .max(4000, 'Keep the description under 4000 characters')
    .describe('What happened, what was tried, exact error messages'),
})
export type TicketInput = z.infer<typeof ticketInput>

/** A partial update; `status` may move between open and pending (closing has its own route). */
export const ticketPatch = ticketInput.partial().extend({
  status: z.enum(['open', 'pending']).optional(),
})
export type TicketPatch = z.infer<typeof ticketPatch>

/** A ticket as the API returns it. Dates are ISO strings. */
export interface Ticket {
  id: number
  title: string
  description: string
  requester: string
  category: Category
  priority: Priority
  status: Status
  assignee: string | null
  createdAt: string
  updatedAt: string
  closedAt: string | null
  /** Files attached to it, oldest first: name, size and type (the bytes have their own route). */
  attachments: Attachment[]
}

/** `GET /api/tickets`: the matching tickets and how many there are per status. */
export interface TicketList {
  tickets: Ticket[]
  counts: Record<Status | 'all', number>
}

/** The error body of every 4xx/5xx answer. */
export interface ApiErrorBody {
  error: string
  message: string
  issues?: { path: string; message: string }[]
}
