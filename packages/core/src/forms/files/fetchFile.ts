import { isFileProtocol } from '../../base/fileProtocol'
import { accepts, baseMime, formatBytes, sanitizeFileName } from './fileRules'

/** Why a file was rejected: the rule it broke, and what a person (or agent) can do about it. */
export interface FileRejection {
  rule: string
  detail: string
}

/** A file fetched, or why not. */
export type FetchedFile = { ok: true; file: File } | { ok: false; rejection: FileRejection }

const reject = (rule: string, detail: string): FetchedFile => ({
  ok: false,
  rejection: { rule, detail },
})

/** The file name a response gives (`Content-Disposition`), else the URL's last path segment. */
function nameFrom(response: Response, url: URL): string {
  const disposition = response.headers.get('content-disposition') ?? ''
  const star = /filename\*\s*=\s*(?:utf-8|UTF-8)''([^;]+)/.exec(disposition)
  if (star) {
    try {
      return decodeURIComponent(star[1].trim())
    } catch {
      // fall through to the plain filename
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition)
  if (plain) return plain[1].trim()
  const segments = url.pathname.split('/').filter((s) => s !== '')
  try {
    return decodeURIComponent(segments[segments.length - 1] ?? '')
  } catch {
    return segments[segments.length - 1] ?? ''
  }
}

/**
 * Fetches a `{ url }` file the hardened way: only from an exact allow-listed origin over `https:`
 * (or `http:` on loopback), no credentials in the URL and none sent, no redirects followed, the
 * size checked on `Content-Length` and counted while streaming, the MIME type checked against
 * `accept` before the body is read, and the name made safe. `signal` carries the deadline.
 */
export async function fetchFile(
  raw: string,
  rules: {
    allowOrigins: readonly string[]
    accept: readonly string[]
    maxBytes: number
    signal: AbortSignal
  },
): Promise<FetchedFile> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return reject('url', 'not an absolute URL')
  }
  if (url.username !== '' || url.password !== '') {
    return reject('credentials', 'URLs with a user name or password are not fetched')
  }
  if (!isFileProtocol(url)) {
    return reject('protocol', `${url.protocol} is not allowed: use https (http only on loopback)`)
  }
  if (!rules.allowOrigins.includes(url.origin)) {
    return reject('origin', `${url.origin} is not an allowed origin`)
  }
  const response = await fetch(url.href, {
    method: 'GET',
    redirect: 'manual',
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
    cache: 'no-store',
    signal: rules.signal,
  })
  const cancel = () => {
    void response.body?.cancel().catch(() => {})
  }
  // A manual redirect is an opaque response in browsers and a 3xx elsewhere: never followed.
  if (
    response.type === 'opaqueredirect' ||
    response.redirected ||
    (response.status >= 300 && response.status < 400)
  ) {
    cancel()
    return reject('redirect', 'the server answered with a redirect; redirects are not followed')
  }
  if (!response.ok) {
    cancel()
    return reject('status', `the server answered ${response.status}`)
  }
  const name = sanitizeFileName(nameFrom(response, url))
  const type = baseMime(response.headers.get('content-type') ?? '')
  if (!accepts(rules.accept, name, type)) {
    cancel()
    return reject('accept', `${type || 'an unknown type'} is not accepted`)
  }
  const length = Number(response.headers.get('content-length') ?? NaN)
  if (Number.isFinite(length) && length > rules.maxBytes) {
    cancel()
    return reject(
      'maxBytes',
      `the file is ${formatBytes(length)}; at most ${formatBytes(rules.maxBytes)}`,
    )
  }
  const chunks: Uint8Array[] = []
  let total = 0
  if (response.body) {
    const reader = response.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > rules.maxBytes) {
        void reader.cancel().catch(() => {})
        return reject('maxBytes', `the file is larger than ${formatBytes(rules.maxBytes)}`)
      }
      chunks.push(value)
    }
  }
  return { ok: true, file: new File(chunks as BlobPart[], name, { type }) }
}
