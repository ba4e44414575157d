/**
 * File values of forms: what a file field holds, how it is shown (name, size and type, never the
 * bytes), how `accept` is matched and how names are made safe. Duck-typed: core needs no DOM.
 */

/** How a file is shown in changes, confirmations, events, devtools and undo results. */
export interface FileDescription {
  file: { name: string; size: number; type: string }
}

/** Rules of one file field, in `createFormTools`' `files` option. */
export interface FileFieldRules {
  /**
   * Allowed types, as in `<input accept>`: MIME types (`application/pdf`), wildcards
   * (`image/*`) or extensions (`.pdf`). Default: any type.
   */
  accept?: string | readonly string[]
  /** Largest file in bytes; the registry's `files.maxBytes` caps it too. */
  maxBytes?: number
  /** The field holds a list of files. Default false: one file. */
  multiple?: boolean
  /** Most files in one fill of a `multiple` field (default 10). */
  maxFiles?: number
}

/** The default of `files.maxBytes` (10 MiB). */
export const DEFAULT_FILE_MAX_BYTES = 10 * 1024 * 1024
/** The default of `files.timeoutMs`. */
export const DEFAULT_FILE_TIMEOUT_MS = 30_000
/** The default of `maxFiles` for a multiple field. */
export const DEFAULT_MAX_FILES = 10

/** A `Blob` (a `File` included), in any realm. */
export const isBlob = (value: unknown): value is Blob =>
  typeof Blob !== 'undefined' && value instanceof Blob

/** A `FileList`: array-like with `item()`. */
export const isFileList = (value: unknown): value is ArrayLike<Blob> =>
  typeof FileList !== 'undefined' && value instanceof FileList

/** The name of a blob (`''` for a nameless one). */
const nameOf = (blob: Blob): string => {
  const name = (blob as { name?: unknown }).name
  return typeof name === 'string' ? name : ''
}

/** Whether two blobs are the same file: the same object, or the same name, size, type and time. */
export function sameFile(a: Blob, b: Blob): boolean {
  if (a === b) return true
  const time = (blob: Blob) => (blob as { lastModified?: unknown }).lastModified
  return a.size === b.size && a.type === b.type && nameOf(a) === nameOf(b) && time(a) === time(b)
}

/** Name, size and type of a file. */
export const describeFile = (blob: Blob): FileDescription => ({
  file: { name: nameOf(blob), size: blob.size, type: blob.type },
})

/**
 * A value with every file replaced by its description (a `FileList` by a list of them, an empty
 * one by `undefined`): what people and agents see of a form's files.
 */
export function describeFiles(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 64) return value
  if (isBlob(value)) return describeFile(value)
  if (isFileList(value)) {
    return value.length === 0 ? undefined : Array.from(value, describeFile)
  }
  if (Array.isArray(value)) return value.map((item) => describeFiles(item, depth + 1))
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  let out: Record<string, unknown> | undefined
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key]
    const shown = describeFiles(item, depth + 1)
    if (shown !== item) {
      out ??= { ...(value as Record<string, unknown>) }
      Object.defineProperty(out, key, {
        value: shown,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
  }
  return out ?? value
}

/** Whether a value holds a file anywhere (cheap when it does not). */
export function hasFiles(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object' || depth > 64) return false
  if (isBlob(value) || isFileList(value)) return true
  if (Array.isArray(value)) return value.some((item) => hasFiles(item, depth + 1))
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return false
  return Object.values(value).some((item) => hasFiles(item, depth + 1))
}

/** The `accept` list of a field, lower-cased and trimmed. */
export function acceptList(accept: FileFieldRules['accept']): string[] {
  const list = typeof accept === 'string' ? accept.split(',') : (accept ?? [])
  return list.map((item) => item.trim().toLowerCase()).filter((item) => item !== '')
}

/** The MIME type without its parameters (`text/plain; charset=utf-8` → `text/plain`). */
export const baseMime = (type: string): string => type.split(';')[0].trim().toLowerCase()

/** Whether a file of this name and MIME type is allowed by `accept` (an empty list allows all). */
export function accepts(accept: readonly string[], name: string, type: string): boolean {
  if (accept.length === 0) return true
  const mime = baseMime(type)
  const lower = name.toLowerCase()
  return accept.some((rule) => {
    if (rule.startsWith('.')) return lower.endsWith(rule)
    if (rule.endsWith('/*')) return mime.startsWith(rule.slice(0, -1))
    return mime === rule
  })
}

/**
 * A file name safe to show and save: no directories, no control or reserved characters, no
 * leading dots, at most 128 characters (the extension kept); `file` when nothing is left.
 */
export function sanitizeFileName(raw: string): string {
  const last = raw.split(/[\\/]/).pop() ?? ''
  let name = ''
  for (const char of last.normalize('NFC')) {
    const code = char.codePointAt(0)!
    // C0, DEL and C1 controls, bidi overrides and reserved characters of common file systems.
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0x202a && code <= 0x202e)) continue
    if (code >= 0x2066 && code <= 0x2069) continue
    name += '<>:"|?*'.includes(char) ? '_' : char
  }
  name = name.trim().replace(/^\.+/, '').trim()
  if (name.length > 128) {
    const dot = name.lastIndexOf('.')
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : ''
    name = name.slice(0, 128 - ext.length) + ext
  }
  return name === '' ? 'file' : name
}

/** A human size: `512 B`, `3.4 KB`, `5 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`
}
