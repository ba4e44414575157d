import type { Problem } from '../../base/problem'
import type { FormNode } from '../values/formSchema'
import { visibleFileName, type FileFieldRules } from '../values/fileValues'

// The rules of declared file fields: how they are checked, how `accept` is matched, how names are
// made safe. Only the code `fileFields()` brings reaches this module.

/** The default of `files.maxBytes` (10 MiB). */
export const DEFAULT_FILE_MAX_BYTES = 10 * 1024 * 1024
/** The default of `files.timeoutMs`. */
export const DEFAULT_FILE_TIMEOUT_MS = 30_000
/** The default of `maxFiles` for a multiple field. */
export const DEFAULT_MAX_FILES = 10

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
 * A file name safe to show and save: no directories, no control, format (`Cf`) or reserved
 * characters, no leading dots, at most 128 characters (the extension kept); `file` when nothing
 * is left.
 */
export function sanitizeFileName(raw: string): string {
  const last = raw.split(/[\\/]/).pop() ?? ''
  // The same cleaning as every name shown (`visibleFileName`), then what file systems reserve.
  const visible = visibleFileName(last.normalize('NFC'))
  let name = visible.replace(/[<>:"|?*]/g, '_')
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

/** The node at a dot path of the form's tree, through declared object properties. */
function nodeAt(root: FormNode, path: string): FormNode | undefined {
  let node: FormNode | undefined = root
  for (const segment of path.split('.')) {
    if (node?.kind !== 'object') return undefined
    node = node.props.get(segment)
  }
  return node
}

const isPositive = (v: unknown) =>
  v === undefined || (typeof v === 'number' && v > 0 && Number.isFinite(v))

/** Problems of the rules `fileFields()` was given: each a declared field with well-formed rules. */
export function fileRulesProblem(files: unknown, root: FormNode): Problem | undefined {
  if (files === null || typeof files !== 'object' || Array.isArray(files)) return ['files']
  for (const [path, rules] of Object.entries(files)) {
    if (!nodeAt(root, path)) return ['file field', path]
    if (rules === null || typeof rules !== 'object') return ['file rules', path]
    const r = rules as Record<string, unknown>
    const accept = r.accept
    const acceptOk =
      accept === undefined ||
      typeof accept === 'string' ||
      (Array.isArray(accept) && accept.every((a) => typeof a === 'string'))
    if (
      !acceptOk ||
      !isPositive(r.maxBytes) ||
      !isPositive(r.maxFiles) ||
      (r.multiple !== undefined && typeof r.multiple !== 'boolean')
    ) {
      return ['file rules', path]
    }
  }
  return undefined
}
