import { Readable } from 'node:stream'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Plugin } from 'vite'
import type { LanguageModel } from 'ai'

/** A Web `Request` for a Node request; aborted when the browser goes away. */
function toRequest(req: IncomingMessage, res: ServerResponse): Request {
  const controller = new AbortController()
  res.once('close', () => controller.abort())
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value)
    else if (Array.isArray(value)) for (const one of value) headers.append(name, one)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  return new Request(`http://localhost${req.url ?? '/'}`, {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit)
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status
  response.headers.forEach((value, name) => res.setHeader(name, value))
  if (!response.body) return void res.end()
  const body = Readable.fromWeb(response.body as never)
  body.on('error', () => res.destroy())
  body.pipe(res)
}

type ChatRoute = typeof import('./chatRoute.ts')

/**
 * Serves `POST /api/chat` (and `GET /api/health`, `GET /api/model`) from the Vite dev server: one process. The
 * route module is loaded through Vite, so `@toolmark/*` imports resolve to the sources.
 */
export function chatApi({
  model,
  label,
  scripted,
}: {
  model: LanguageModel
  label: string
  scripted: boolean
}): Plugin {
  return {
    name: 'ai-sdk-chat-api',
    configureServer(server) {
      console.log(`  ai-sdk-chat: answering with ${label}`)
      server.middlewares.use('/api/health', (_req, res) => res.end('ok'))
      // Which model answers, for the page's introduction (never the key or the endpoint).
      server.middlewares.use('/api/model', (_req, res) => {
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ scripted, name: scripted ? 'a scripted model' : 'your model' }))
      })
      server.middlewares.use('/api/chat', (req, res) => {
        if (req.method !== 'POST') {
          res.statusCode = 405
          return void res.end()
        }
        ;(server.ssrLoadModule('/server/chatRoute.ts') as Promise<ChatRoute>)
          .then(({ handleChat }) => handleChat(toRequest(req, res), model))
          .then((response) => send(response, res))
          .catch((error: unknown) => {
            console.error('  ai-sdk-chat: the chat route failed', error)
            if (!res.headersSent) res.statusCode = 500
            res.end()
          })
      })
    },
  }
}
