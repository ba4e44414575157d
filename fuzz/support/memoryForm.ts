import type { FormAdapter, FormField, FormWriteSource } from '@toolmark/core/forms'

/** A copy of `root` with `value` at `segments` (arrays by index); the original is untouched. */
export function setIn(root: unknown, segments: readonly string[], value: unknown): unknown {
  if (segments.length === 0) return value
  const [head, ...rest] = segments
  if (Array.isArray(root)) {
    const copy = root.slice()
    copy[Number(head)] = setIn(root[Number(head)], rest, value)
    return copy
  }
  const copy: Record<string, unknown> =
    root !== null && typeof root === 'object' ? { ...(root as Record<string, unknown>) } : {}
  Object.defineProperty(copy, head, {
    value: setIn(copy[head], rest, value),
    enumerable: true,
    writable: true,
    configurable: true,
  })
  return copy
}

/** Reads a dot path through own properties; `undefined` when a step is missing. */
export function getIn(root: unknown, path: string): unknown {
  let current = root
  for (const segment of path === '' ? [] : path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined
    current = (current as Record<string, unknown>)[segment]
  }
  return current
}

/** Structural equality of form values (JSON-like data). */
export function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined)
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined)
  if (ka.length !== kb.length) return false
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  )
}

/** Every leaf path of a value (array items by index; an empty object or array is a leaf). */
export function leaves(value: unknown, path = '', out: string[] = []): string[] {
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value)
    if (keys.length > 0) {
      for (const key of keys) {
        leaves((value as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`, out)
      }
      return out
    }
  }
  out.push(path)
  return out
}

/** Whether `path` is `other`, above it or below it. */
export const overlaps = (path: string, other: string): boolean =>
  path === other || path.startsWith(`${other}.`) || other.startsWith(`${path}.`)

/**
 * A form held in memory the way a form library holds it: values, defaults, the paths the user
 * changed, the registered fields, and a count of writes so a partial write cannot hide.
 */
export function memoryForm(defaults: Record<string, unknown>, fields: FormField[] = []) {
  let values: unknown = structuredClone(defaults)
  const dirty = new Set<string>()
  const writes: { source: FormWriteSource; paths: string[] }[] = []
  const adapter: FormAdapter<any> = {
    getValues: () => values,
    defaultValues: () => defaults,
    setValues(map, { source }) {
      writes.push({ source, paths: [...map.keys()] })
      for (const [path, value] of map) values = setIn(values, path.split('.'), value)
    },
    dirtyPaths: () => [...dirty],
    submit: async () => ({ ok: true as const, data: values }),
    fields: () => fields,
  }
  return {
    adapter,
    writes,
    dirty,
    get values(): any {
      return values
    },
    /** The user changes the field at `path`. */
    type(path: string, value: unknown) {
      values = setIn(values, path.split('.'), value)
      dirty.add(path)
    },
  }
}
