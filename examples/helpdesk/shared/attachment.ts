/**
 * Ticket attachments: the rules the form, the agent's fill and the API all apply. A file outside
 * them never reaches the database, whoever sends it.
 */

/**
 * Types an attachment may have: images a browser shows, PDFs and plain text. An explicit list
 * rather than `image/*`: an SVG or HTML file served back from the API could run script.
 */
export const ATTACHMENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
] as const
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number]

/** Largest attachment, in bytes (2 MiB). */
export const MAX_ATTACHMENT_BYTES = 2 * 1024 * 1024

/** Attachments one new ticket may carry. */
export const MAX_ATTACHMENTS = 1

/** An attachment as the API lists it on a ticket: never its bytes. */
export interface Attachment {
  id: number
  name: string
  size: number
  type: AttachmentType
}

export const isAttachmentType = (type: string): type is AttachmentType =>
  (ATTACHMENT_TYPES as readonly string[]).includes(type)

/** The first bytes each binary type starts with; text has none, but holds no NUL byte. */
const SIGNATURES: Partial<Record<AttachmentType, (bytes: Uint8Array) => boolean>> = {
  'image/png': (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => starts(b, [0xff, 0xd8, 0xff]),
  'image/gif': (b) => starts(b, [0x47, 0x49, 0x46, 0x38]),
  'image/webp': (b) =>
    starts(b, [0x52, 0x49, 0x46, 0x46]) && starts(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  'application/pdf': (b) => starts(b, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  'text/plain': (b) => !b.includes(0),
}

const starts = (bytes: Uint8Array, prefix: number[]) =>
  bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte)

/** Whether the bytes are what their declared type says (a renamed program is not a PNG). */
export function contentMatches(type: AttachmentType, bytes: Uint8Array): boolean {
  return SIGNATURES[type]?.(bytes) ?? false
}

/**
 * A file name safe to store and show: the last path segment, without control, bidi or reserved
 * characters and leading dots, at most 128 characters with the extension kept; `attachment` when
 * nothing is left.
 */
export function safeAttachmentName(raw: string): string {
  const last = raw.split(/[\\/]/).pop() ?? ''
  let name = ''
  for (const char of last.normalize('NFC')) {
    const code = char.codePointAt(0)!
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue
    if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) continue
    name += '<>:"|?*'.includes(char) ? '_' : char
  }
  name = name.trim().replace(/^\.+/, '').trim()
  if (name.length > 128) {
    const dot = name.lastIndexOf('.')
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : ''
    name = name.slice(0, 128 - ext.length) + ext
  }
  return name || 'attachment'
}

/** `512 B`, `3.4 KB`, `1.2 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Number((bytes / 1024).toFixed(1))} KB`
  return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`
}
