import { reportError } from '../../events/reportError'
import { compileSensitive, type SensitivePaths } from '../../redaction/redact'
import type { Toolmark } from '../../types'
import type { FormNode } from '../values/formSchema'
import type { FormField, FormMemory } from '../values/types'

const SECRET_AUTOCOMPLETE = new Set(['current-password', 'new-password', 'one-time-code'])

/** An attribute of an element (a property of a plain object); `undefined` when absent. */
const readAttribute = (element: object, name: string): string | undefined => {
  const getAttribute = (element as { getAttribute?: unknown }).getAttribute
  if (typeof getAttribute === 'function') {
    try {
      const value: unknown = getAttribute.call(element, name)
      return typeof value === 'string' ? value : undefined
    } catch {
      return undefined
    }
  }
  const property = (element as Record<string, unknown>)[name]
  return typeof property === 'string' ? property : undefined
}

/**
 * Whether a form element holds a secret: `type="password"`, or an `autocomplete` token of
 * `cc-*`, `current-password`, `new-password` or `one-time-code`. Duck-typed, so core needs no DOM.
 */
export function isSensitiveElement(element: unknown): boolean {
  if (element === null || typeof element !== 'object') return false
  const type = readAttribute(element, 'type')
  if (type?.toLowerCase() === 'password') return true
  const autocomplete = readAttribute(element, 'autocomplete')
  if (!autocomplete) return false
  return autocomplete
    .toLowerCase()
    .split(/\s+/)
    .some((token) => token.startsWith('cc-') || SECRET_AUTOCOMPLETE.has(token))
}

/** Whether a field is sensitive: marked so by its adapter, or its element holds a secret. */
export const isSensitiveField = (field: FormField): boolean =>
  field.sensitive === true || isSensitiveElement(field.element)

/**
 * The pattern a sensitive field stands for: array indexes become `[]`, so a password found in
 * one row of a list covers every row (`cards.0.cvc` → `cards[].cvc`).
 */
export const fieldPattern = (path: string): string =>
  path
    .split('.')
    .map((segment) => (/^\d+$/.test(segment) ? '[]' : segment))
    .join('.')
    .replace(/\.\[\]/g, '[]')

/** The last key a pattern names (`cards[].cvc` → `cvc`); `*` when it ends in a wildcard. */
function lastKey(pattern: string): string | undefined {
  const segments = pattern.split(/\.|\[\]/).filter((s) => s !== '')
  const key = segments[segments.length - 1]
  return key === '**' ? '*' : key
}

/**
 * `**.<key>` for the last key of each pattern: masks that key at any depth, under any `$`
 * operation or mistyped wrapper, in whatever shape a caller sends or a server returns.
 */
export function anywherePatterns(patterns: readonly string[]): string[] {
  const keys = new Set<string>()
  for (const pattern of patterns) {
    const key = lastKey(pattern)
    if (key) keys.add(key)
  }
  return [...keys].map((key) => `**.${key}`)
}

/** Every declared key of a form's tree with one of its paths (array items as index 0). */
function declaredKeys(root: FormNode, out: Array<[string, string]> = [], path = '', depth = 0) {
  if (depth > 64) return out
  if (root.kind === 'object') {
    for (const [key, child] of root.props) {
      const at = path === '' ? key : `${path}.${key}`
      out.push([key, at])
      declaredKeys(child, out, at, depth + 1)
    }
  } else if (root.kind === 'array') {
    declaredKeys(root.items, out, path === '' ? '0' : `${path}.0`, depth + 1)
  }
  return out
}

/** The secret fields of one form: declared paths, plus fields whose element holds a secret. */
export interface FormSecrets {
  /** Looks at the form's fields for secret inputs (at most once per microtask). */
  scan(): void
  /** The form's sensitive path patterns, declared and found (found ones stay). */
  patterns(): readonly string[]
  /**
   * For what a caller shapes (a tool's input) or a server returns: every sensitive key masked
   * at any depth, whatever wraps it.
   */
  anywhere(): readonly string[]
  /**
   * For form values a person reviews (a submit's confirmation): the form's paths, plus the
   * sensitive keys that no other field of the form shares, at any depth.
   */
  shown(): readonly string[]
  /** The form's paths, looking at the fields first: for values read from the form. */
  readonly paths: SensitivePaths
  /** The form's paths for a run that already scanned. */
  readonly scanned: SensitivePaths
  /** `anywhere()` compiled, for results a server sends back. */
  readonly anywhereIn: SensitivePaths
}

/** Tracks which fields of a form are secret; see {@link FormSecrets}. */
export function createFormSecrets(options: {
  tm: Toolmark
  declared: readonly string[]
  memory: FormMemory
  root: FormNode
  readFields(): FormField[]
}): FormSecrets {
  const { declared, memory, root } = options
  let patterns: readonly string[] = declared
  let anywhere: readonly string[] = anywherePatterns(declared)
  let shown: readonly string[] | undefined
  let knownSticky = -1
  let scanned = false

  function scan() {
    if (!scanned) {
      scanned = true
      queueMicrotask(() => {
        scanned = false
      })
      for (const field of options.readFields()) {
        if (isSensitiveField(field)) memory.sensitive.add(fieldPattern(field.path))
      }
    }
    if (memory.sensitive.size !== knownSticky) {
      knownSticky = memory.sensitive.size
      patterns = [...declared, ...memory.sensitive]
      anywhere = anywherePatterns(patterns)
      shown = undefined
    }
  }

  const exact = compileSensitive(() => patterns)

  /** A key joins the shown list only if every declared field of that name is sensitive. */
  function shownPatterns(): readonly string[] {
    if (shown) return shown
    const open = new Set<string>()
    for (const [key, path] of declaredKeys(root)) if (!exact.matches(path)) open.add(key)
    shown = [...patterns, ...anywhere.filter((p) => !open.has(p.slice(3)))]
    return shown
  }

  return {
    scan,
    patterns: () => patterns,
    anywhere: () => anywhere,
    shown: () => {
      scan()
      return shownPatterns()
    },
    paths: compileSensitive(() => {
      scan()
      return patterns
    }),
    scanned: exact,
    anywhereIn: compileSensitive(() => anywhere),
  }
}

/** Reads an adapter's fields, keeping only well-formed ones; a throw becomes an error event. */
export function readFormFields(
  tm: Toolmark,
  name: string,
  fields: () => readonly FormField[],
): FormField[] {
  try {
    const list = fields()
    return Array.isArray(list)
      ? list.filter((f): f is FormField => !!f && typeof f.path === 'string')
      : []
  } catch (cause) {
    reportError(tm, {
      code: 'form_fields_failed',
      message: `The fields of form "${name}" could not be read`,
      cause,
    })
    return []
  }
}
