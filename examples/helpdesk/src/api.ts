import type { Approval, Caller } from '@toolmark/core'
import type {
  ApiErrorBody,
  Ticket,
  TicketInput,
  TicketList,
  TicketPatch,
  View,
} from '../shared/ticket.ts'

/** A failed API call: the HTTP status, the API's error code and, for 400, the field issues. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly issues: { path: string; message: string }[]

  constructor(status: number, body: Partial<ApiErrorBody>) {
    super(body.message ?? `Request failed (${status})`)
    this.status = status
    this.code = body.error ?? 'http_error'
    this.issues = body.issues ?? []
  }
}

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(`/api${path}`, {
    method,
    signal,
    headers:
      body === undefined ? extraHeaders : { ...extraHeaders, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (response.status === 204) return undefined as T
  const payload: unknown = await response.json().catch(() => ({}))
  if (!response.ok) throw new ApiError(response.status, payload as Partial<ApiErrorBody>)
  return payload as T
}

/** The helpdesk's HTTP API, one function per route. */
export const api = {
  list(params: { q: string; view: View }, signal?: AbortSignal): Promise<TicketList> {
    const search = new URLSearchParams({ view: params.view })
    if (params.q) search.set('q', params.q)
    return request('GET', `/tickets?${search}`, undefined, signal)
  },
  get(id: number, signal?: AbortSignal): Promise<Ticket> {
    return request('GET', `/tickets/${id}`, undefined, signal)
  },
  /**
   * Creates a ticket; with `files`, the fields and the files go in one multipart request, so the
   * ticket is stored with its attachment or not at all.
   */
  async create(input: TicketInput, files: readonly File[] = []): Promise<Ticket> {
    if (files.length === 0) return request('POST', '/tickets', input)
    const body = new FormData()
    body.set('ticket', JSON.stringify(input))
    for (const file of files) body.append('attachment', file, file.name)
    const response = await fetch('/api/tickets', { method: 'POST', body })
    const payload: unknown = await response.json().catch(() => ({}))
    if (!response.ok) throw new ApiError(response.status, payload as Partial<ApiErrorBody>)
    return payload as Ticket
  },
  /** Where an attachment's bytes are served. */
  attachmentUrl(ticketId: number, attachmentId: number): string {
    return `/api/tickets/${ticketId}/attachments/${attachmentId}`
  },
  update(id: number, patch: TicketPatch, signal?: AbortSignal): Promise<Ticket> {
    return request('PATCH', `/tickets/${id}`, patch, signal)
  },
  close(id: number): Promise<Ticket> {
    return request('POST', `/tickets/${id}/close`)
  },
  /**
   * Deletes a ticket. `approval` is the person's passkey approval of an agent's delete: the server
   * verifies it again before it deletes anything; `caller` says who asked.
   */
  remove(id: number, options: { approval?: Approval; caller?: Caller } = {}): Promise<void> {
    const { approval, caller } = options
    const headers: Record<string, string> = caller ? { 'X-Toolmark-Caller': caller } : {}
    const body =
      approval?.by === 'verified'
        ? {
            approval: {
              assertion: approval.assertion,
              confirmId: approval.confirmId,
              expiresAt: approval.expiresAt,
            },
          }
        : undefined
    return request('DELETE', `/tickets/${id}`, body, undefined, headers)
  },
}
