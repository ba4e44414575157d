/**
 * File values of forms: what a file field holds and how it is shown (name, size and type, never
 * the bytes). Every form needs this much, declared file fields or not: a plain file input's value
 * is shown the same way. How files are resolved and checked comes with `fileFields()`
 * (`fileRules.ts`). Duck-typed: core needs no DOM.
 */

/** How a file is shown in changes, confirmations, events, devtools and undo results. */
export interface FileDescription {
  file: { name: string; size: number; type: string }
}

/** Rules of one file field, given to `fileFields({ path: rules })`. */
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

/** One file a fill asks for: `{ ref }` (the app resolves it) or `{ url }` (fetched). */
export type FileSpec = { readonly ref: string } | { readonly url: string }

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

/**
 * Characters a file name must not carry to a person, because they do not show or they change how
 * the rest reads: controls (`Cc`) and every format character (`Cf`: bidi controls and isolates,
 * zero-width spaces and joiners, the word joiner, the BOM, the soft hyphen, tag characters…).
 */
const HIDDEN_IN_NAMES = /[\p{Cc}\p{Cf}]/gu

/**
 * A file name as a person reads it: without controls and format characters; `file` when nothing
 * is left (as `sanitizeFileName` names it). Every name shown (changes, confirmations, state,
 * events, undo, previews) and every name a fill writes goes through it.
 */
export function visibleFileName(raw: string): string {
  const name = raw.replace(HIDDEN_IN_NAMES, '')
  return name === '' ? 'file' : name
}

/** Whether two blobs are the same file: the same object, or the same name, size, type and time. */
export function sameFile(a: Blob, b: Blob): boolean {
  if (a === b) return true
  const time = (blob: Blob) => (blob as { lastModified?: unknown }).lastModified
  return a.size === b.size && a.type === b.type && nameOf(a) === nameOf(b) && time(a) === time(b)
}

/** Name (as a person may read it), size and type of a file. */
export const describeFile = (blob: Blob): FileDescription => ({
  file: { name: visibleFileName(nameOf(blob)), size: blob.size, type: blob.type },
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
