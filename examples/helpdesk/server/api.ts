import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'
import {
  VIEWS,
  ticketInput,
  ticketPatch,
  type ApiErrorBody,
  type Ticket,
  type TicketInput,
  type TicketList,
} from '../shared/ticket.ts'
import {
  MAX_ATTACHMENTS,
  MAX_ATTACHMENT_BYTES,
  contentMatches,
  formatSize,
  isAttachmentType,
  safeAttachmentName,
  type AttachmentType,
} from '../shared/attachment.ts'
import { UpstreamError, chatRequest, complete, type AssistantConfig } from './assistant.ts'
import type { Database, Queryable } from './database.ts'
import { createPasskeys, type VerifiedApproval } from './passkeys.ts'

/** Largest request body the ticket routes read. */
const MAX_BODY_BYTES = 64 * 1024
/** Largest conversation the assistant route forwards. */
const MAX_CHAT_BYTES = 1024 * 1024
/** Largest new-ticket upload: its fields and every attachment it may carry. */
const MAX_UPLOAD_BYTES = MAX_BODY_BYTES + MAX_ATTACHMENTS * (MAX_ATTACHMENT_BYTES + 4096)

const COLUMNS = `id, title, description, requester, category, priority, status, assignee,
  created_at as "createdAt", updated_at as "updatedAt", closed_at as "closedAt",
  coalesce((select json_agg(json_build_object('id', a.id, 'name', a.name, 'size', a.size,
    'type', a.type) order by a.id) from attachments a where a.ticket_id = tickets.id), '[]'::json)
    as attachments`

const listQuery = z.object({
  q: z.string().trim().max(200).default(''),
  view: z.enum(VIEWS).default('active'),
  limit: z.coerce.number().int().min(1).max(200).default(100),
})

/** A failure the API answers with a status code and a JSON error body. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: ApiErrorBody['issues'],
  ) {
    super(message)
  }
}

type Handler = (ctx: { db: Database; req: IncomingMessage; url: URL; id: number }) => Promise<Reply>
interface Reply {
  status: number
  body?: unknown
  /** A stored file, sent as its own bytes instead of a JSON body. */
  file?: { name: string; type: AttachmentType; data: Uint8Array }
}

/**
 * The helpdesk's JSON API, mounted under `/api` by the Vite plugin. `req.url` is relative to
 * the mount point. Routes:
 *
 * - `GET    /tickets?q=&view=&limit=` → `{ tickets, counts }`
 * - `POST   /tickets` → 201 and the ticket; JSON, or multipart/form-data with the fields as a JSON
 *   part `ticket` and the file as part `attachment` (one ticket and its attachment, or neither)
 * - `GET    /tickets/:id/attachments/:attachmentId` → the file's bytes
 * - `GET    /tickets/:id` → the ticket
 * - `PATCH  /tickets/:id` → the updated ticket
 * - `POST   /tickets/:id/close` → the closed ticket (409 when it already is)
 * - `DELETE /tickets/:id` → 204; a body `{ approval }` (a passkey-approved delete) is verified first
 *   (403 `verification_failed`), and an agent's delete (`X-Toolmark-Caller` other than `human`:
 *   the in-app assistant, a browser agent) needs one
 * - `GET    /passkeys/challenge` → `{ challenge, enrolled }`: a one-time registration challenge
 * - `POST   /passkeys` → 201: keeps a passkey whose registration verifies (400 otherwise)
 * - `GET    /health` → `{ ok: true }`
 * - `GET    /assistant` → `{ model }`: the configured model, or `null` (scripted planner only)
 * - `POST   /assistant/chat` → `{ message, usage? }`: one chat-completions round, forwarded to
 *   the configured endpoint with the server's key (502 when it fails, 503 when none is set)
 *
 * Errors answer `{ error, message, issues? }` with 400, 404, 405, 409, 413, 415, 5xx.
 */
export function createApi(
  getDb: () => Promise<Database>,
  options: { assistant?: AssistantConfig | null } = {},
) {
  const assistant = options.assistant ?? null
  const chat: Handler = async ({ req }) => {
    if (!assistant) {
      throw new HttpError(503, 'not_configured', 'No model is configured (set OPENAI_API_KEY)')
    }
    const request = parse(chatRequest, await readJson(req, MAX_CHAT_BYTES))
    // Stop waiting on the model when the browser goes away (Stop button, closed tab).
    const gone = new AbortController()
    const onGone = () => gone.abort()
    req.socket.once('close', onGone)
    try {
      return { status: 200, body: await complete(assistant, request, gone.signal) }
    } catch (error) {
      if (error instanceof UpstreamError) throw new HttpError(502, 'upstream', error.message)
      throw error
    } finally {
      req.socket.off('close', onGone)
    }
  }
  const passkeys = createPasskeys()
  /** The page's own origin and relying party, as this server is reached. */
  const site = (req: IncomingMessage) => {
    const host = req.headers.host ?? 'localhost'
    return { origin: `http://${host}`, rpId: host.replace(/:\d+$/, '') }
  }
  const passkeyChallenge: Handler = async () => ({
    status: 200,
    body: { challenge: passkeys.registrationChallenge(), enrolled: passkeys.enrolled },
  })
  const addPasskey: Handler = async ({ req }) => {
    const body = (await readJson(req)) as { registration?: unknown }
    const problem = await passkeys.register(body.registration as never, site(req))
    if (problem) throw new HttpError(400, 'verification_failed', problem)
    return { status: 201, body: { ok: true } }
  }
  /** Whether a request names an agent as its caller (a person's own click says `human`). */
  const isAgent = (caller: string | string[] | undefined) =>
    caller !== undefined && caller !== 'human'
  /** A delete a person approved with their passkey is verified here, before anything changes. */
  const deleteApproved: Handler = async (ctx) => {
    const { req, id } = ctx
    const hasBody = /^application\/json\b/i.test(req.headers['content-type'] ?? '')
    const approval = hasBody
      ? ((await readJson(req)) as { approval?: VerifiedApproval }).approval
      : undefined
    if (approval !== undefined) {
      const problem = await passkeys.authorize(
        approval,
        { tool: 'tickets.delete', input: { id } },
        site(req),
      )
      if (problem) throw new HttpError(403, 'verification_failed', problem)
    } else if (isAgent(req.headers['x-toolmark-caller'])) {
      throw new HttpError(
        403,
        'verification_failed',
        'An agent’s delete needs the person’s passkey',
      )
    }
    return deleteTicket(ctx)
  }
  const routes: { pattern: RegExp; methods: Record<string, Handler> }[] = [
    { pattern: /^\/passkeys\/challenge$/, methods: { GET: passkeyChallenge } },
    { pattern: /^\/passkeys$/, methods: { POST: addPasskey } },
    {
      pattern: /^\/assistant$/,
      methods: { GET: async () => ({ status: 200, body: { model: assistant?.model ?? null } }) },
    },
    { pattern: /^\/assistant\/chat$/, methods: { POST: chat } },
    { pattern: /^\/health$/, methods: { GET: async () => ({ status: 200, body: { ok: true } }) } },
    { pattern: /^\/tickets$/, methods: { GET: listTickets, POST: createTicket } },
    {
      pattern: /^\/tickets\/(\d{1,9})$/,
      methods: { GET: getTicket, PATCH: updateTicket, DELETE: deleteApproved },
    },
    { pattern: /^\/tickets\/(\d{1,9})\/close$/, methods: { POST: closeTicket } },
    {
      pattern: /^\/tickets\/(\d{1,9})\/attachments\/(\d{1,9})$/,
      methods: { GET: getAttachment },
    },
  ]

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let reply: Reply
    try {
      const url = new URL(req.url ?? '/', 'http://localhost')
      const route = routes.find((r) => r.pattern.test(url.pathname))
      if (!route) throw new HttpError(404, 'not_found', `No route for ${url.pathname}`)
      const method = req.method ?? 'GET'
      const handler = route.methods[method]
      if (!handler) {
        res.setHeader('Allow', Object.keys(route.methods).join(', '))
        throw new HttpError(405, 'method_not_allowed', `${method} is not allowed here`)
      }
      const id = Number(route.pattern.exec(url.pathname)?.[1] ?? 0)
      reply = await handler({ db: await getDb(), req, url, id })
    } catch (error) {
      reply = toErrorReply(error)
    }
    send(res, reply)
  }
}

async function listTickets({ db, url }: { db: Database; url: URL }): Promise<Reply> {
  const query = parse(listQuery, Object.fromEntries(url.searchParams))
  const where: string[] = []
  const params: unknown[] = []
  if (query.view === 'active') where.push(`status <> 'closed'`)
  else if (query.view !== 'all') {
    params.push(query.view)
    where.push(`status = $${params.length}`)
  }
  if (query.q) {
    params.push(`%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    const like = `$${params.length}`
    const byId = /^#?(\d{1,9})$/.exec(query.q)
    if (byId) params.push(Number(byId[1]))
    where.push(
      `(title ilike ${like} or description ilike ${like} or requester ilike ${like}${
        byId ? ` or id = $${params.length}` : ''
      })`,
    )
  }
  params.push(query.limit)
  const { rows } = await db.query<Ticket>(
    `select ${COLUMNS} from tickets
     ${where.length ? `where ${where.join(' and ')}` : ''}
     order by created_at desc, id desc
     limit $${params.length}`,
    params,
  )
  const counts = await db.query<{ status: string; n: number }>(
    'select status, count(*)::int as n from tickets group by status',
  )
  const body: TicketList = {
    tickets: rows,
    counts: { open: 0, pending: 0, closed: 0, all: 0 },
  }
  for (const { status, n } of counts.rows) {
    body.counts[status as keyof TicketList['counts']] = n
    body.counts.all += n
  }
  return { status: 200, body }
}

async function getTicket({ db, id }: { db: Database; id: number }): Promise<Reply> {
  return { status: 200, body: await findTicket(db, id) }
}

async function createTicket({ db, req }: { db: Database; req: IncomingMessage }): Promise<Reply> {
  const { input, files } = await readNewTicket(req)
  // The ticket and its attachment are stored together, or not at all.
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      `insert into tickets (title, description, requester, category, priority)
       values ($1, $2, $3, $4, $5) returning id`,
      [input.title, input.description, input.requester, input.category, input.priority],
    )
    for (const file of files) {
      await tx.query(
        'insert into attachments (ticket_id, name, type, size, data) values ($1, $2, $3, $4, $5)',
        [rows[0].id, file.name, file.type, file.data.length, file.data],
      )
    }
    return { status: 201, body: await findTicket(tx, rows[0].id) }
  })
}

/** An attachment as it will be stored: a safe name, an allowed type its bytes agree with. */
interface Upload {
  name: string
  type: AttachmentType
  data: Uint8Array
}

/**
 * A new ticket's fields and attachment. JSON carries the fields only; multipart/form-data carries
 * them as a JSON part `ticket` beside at most `MAX_ATTACHMENTS` file parts `attachment`, each
 * checked for size, declared type and that its bytes are of that type.
 */
async function readNewTicket(
  req: IncomingMessage,
): Promise<{ input: TicketInput; files: Upload[] }> {
  const contentType = req.headers['content-type'] ?? ''
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    return { input: parse(ticketInput, trimStrings(await readJson(req))), files: [] }
  }
  const body = await readBody(req, MAX_UPLOAD_BYTES)
  let form: FormData
  try {
    form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': contentType },
    }).formData()
  } catch {
    throw new HttpError(400, 'invalid_body', 'The body is not valid multipart/form-data')
  }
  const unknown = [...form.keys()].find((key) => key !== 'ticket' && key !== 'attachment')
  if (unknown !== undefined) {
    throw new HttpError(400, 'invalid', 'The request is not valid', [
      { path: unknown, message: 'Not a field of a ticket' },
    ])
  }
  const fields = form.getAll('ticket')
  if (fields.length !== 1 || typeof fields[0] !== 'string') {
    throw new HttpError(400, 'invalid', 'Send the ticket’s fields as one JSON part named "ticket"')
  }
  let values: unknown
  try {
    values = JSON.parse(fields[0])
  } catch {
    throw new HttpError(400, 'invalid_json', 'The "ticket" part is not valid JSON')
  }
  const input = parse(ticketInput, trimStrings(values))
  const parts = form.getAll('attachment')
  const rejected = (status: number, code: string, message: string) =>
    new HttpError(status, code, message, [{ path: 'attachment', message }])
  if (parts.length > MAX_ATTACHMENTS) {
    throw rejected(400, 'invalid', `A ticket takes at most ${MAX_ATTACHMENTS} attachment`)
  }
  const files: Upload[] = []
  for (const part of parts) {
    if (typeof part === 'string') throw rejected(400, 'invalid', 'The attachment is not a file')
    const data = new Uint8Array(await part.arrayBuffer())
    if (data.length > MAX_ATTACHMENT_BYTES) {
      throw rejected(
        413,
        'too_large',
        `The attachment is ${formatSize(data.length)}; at most ${formatSize(MAX_ATTACHMENT_BYTES)}`,
      )
    }
    const type = part.type.split(';')[0].trim().toLowerCase()
    if (!isAttachmentType(type)) {
      throw rejected(415, 'unsupported_type', `${type || 'A file without a type'} is not accepted`)
    }
    if (!contentMatches(type, data)) {
      throw rejected(415, 'unsupported_type', `The attachment’s content is not ${type}`)
    }
    files.push({ name: safeAttachmentName(part.name), type, data })
  }
  return { input, files }
}

async function getAttachment({
  db,
  url,
  id,
}: {
  db: Database
  url: URL
  id: number
}): Promise<Reply> {
  const attachmentId = Number(/(\d{1,9})$/.exec(url.pathname)?.[1])
  const { rows } = await db.query<{ name: string; type: AttachmentType; data: Uint8Array }>(
    'select name, type, data from attachments where id = $1 and ticket_id = $2',
    [attachmentId, id],
  )
  if (!rows[0]) {
    throw new HttpError(404, 'not_found', `Ticket #${id} has no attachment ${attachmentId}`)
  }
  return { status: 200, file: rows[0] }
}

async function updateTicket({
  db,
  req,
  id,
}: {
  db: Database
  req: IncomingMessage
  id: number
}): Promise<Reply> {
  const patch = parse(ticketPatch.strict(), trimStrings(await readJson(req)))
  const entries = Object.entries(patch).filter(([, value]) => value !== undefined)
  if (entries.length === 0) return { status: 200, body: await findTicket(db, id) }
  // Column names come from the schema's keys, never from the request.
  const sets = entries.map(([key], index) => `${key} = $${index + 2}`)
  if (patch.status) sets.push('closed_at = null')
  const { rows } = await db.query<Ticket>(
    `update tickets set ${sets.join(', ')}, updated_at = now() where id = $1 returning ${COLUMNS}`,
    [id, ...entries.map(([, value]) => value)],
  )
  if (!rows[0]) throw notFound(id)
  return { status: 200, body: rows[0] }
}

async function closeTicket({ db, id }: { db: Database; id: number }): Promise<Reply> {
  return db.transaction(async (tx) => {
    const current = await findTicket(tx, id)
    if (current.status === 'closed') {
      throw new HttpError(409, 'already_closed', `Ticket #${id} is already closed`)
    }
    const { rows } = await tx.query<Ticket>(
      `update tickets set status = 'closed', closed_at = now(), updated_at = now()
       where id = $1 returning ${COLUMNS}`,
      [id],
    )
    return { status: 200, body: rows[0] }
  })
}

async function deleteTicket({ db, id }: { db: Database; id: number }): Promise<Reply> {
  const { rows } = await db.query('delete from tickets where id = $1 returning id', [id])
  if (!rows[0]) throw notFound(id)
  return { status: 204 }
}

async function findTicket(db: Queryable, id: number): Promise<Ticket> {
  const { rows } = await db.query<Ticket>(`select ${COLUMNS} from tickets where id = $1`, [id])
  if (!rows[0]) throw notFound(id)
  return rows[0]
}

const notFound = (id: number) => new HttpError(404, 'not_found', `Ticket #${id} does not exist`)

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  throw new HttpError(
    400,
    'invalid',
    'The request is not valid',
    parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  )
}

/** Trims every top-level string, so "  Printer  " and "Printer" are the same title. */
function trimStrings(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, typeof v === 'string' ? v.trim() : v]),
  )
}

async function readJson(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const type = req.headers['content-type'] ?? ''
  if (!/^application\/json\b/i.test(type)) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as application/json')
  }
  const body = await readBody(req, maxBytes)
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    throw new HttpError(400, 'invalid_json', 'The body is not valid JSON')
  }
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  // Read to the end even past the limit, so the client gets the 413 rather than a reset.
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size <= maxBytes) chunks.push(chunk as Buffer)
  }
  if (size > maxBytes) {
    throw new HttpError(413, 'too_large', `The body is larger than ${maxBytes} bytes`)
  }
  return Buffer.concat(chunks)
}

function toErrorReply(error: unknown): Reply {
  if (error instanceof HttpError) {
    const body: ApiErrorBody = { error: error.code, message: error.message }
    if (error.issues) body.issues = error.issues
    return { status: error.status, body }
  }
  console.error('[helpdesk api]', error)
  return { status: 500, body: { error: 'internal', message: 'Something went wrong' } }
}

function send(res: ServerResponse, reply: Reply): void {
  res.statusCode = reply.status
  res.setHeader('Cache-Control', 'no-store')
  if (reply.file) {
    const { name, type, data } = reply.file
    // Served as what it is and nothing more: no sniffing, no script, PDFs downloaded.
    res.setHeader('Content-Type', type === 'text/plain' ? 'text/plain; charset=utf-8' : type)
    res.setHeader('Content-Length', data.length)
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox")
    const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_')
    res.setHeader(
      'Content-Disposition',
      `${type === 'application/pdf' ? 'attachment' : 'inline'}; filename="${ascii}"; ` +
        `filename*=UTF-8''${encodeURIComponent(name)}`,
    )
    res.end(Buffer.from(data.buffer, data.byteOffset, data.length))
    return
  }
  if (reply.body === undefined) {
    res.end()
    return
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8')
  res.end(JSON.stringify(reply.body))
}
