/**
 * Dot paths over plain form values: reading, copy-on-write writing, equality and cloning.
 * Form values are plain objects, arrays, primitives and dates; anything else is treated as an
 * opaque value (compared and copied by reference).
 */

import { FORBIDDEN_SEGMENTS, defineOwn, getIn, isPlainObject, joinPath } from '../../base/guards'
import { isBlob, isFileList, sameFile } from './fileValues'

export { FORBIDDEN_SEGMENTS, defineOwn, getIn, isPlainObject, joinPath }

const hasOwn = (target: object, key: string) => Object.prototype.hasOwnProperty.call(target, key)

/** Splits a dot path into segments (`''` → none). */
export const splitPath = (path: string): string[] => (path === '' ? [] : path.split('.'))

/** Whether `path` is `ancestor` itself or lies below it. */
export const isAtOrBelow = (path: string, ancestor: string): boolean =>
  ancestor === '' || path === ancestor || path.startsWith(`${ancestor}.`)

/**
 * A lookup of whether a path overlaps any of `paths` (equal, above or below one), in time
 * proportional to the path's depth rather than to the number of paths.
 */
export function overlapIndex(paths: readonly string[]): (path: string) => boolean {
  if (paths.length === 0) return () => false
  const exact = new Set(paths)
  const above = new Set<string>()
  for (const path of paths) {
    for (let dot = path.lastIndexOf('.'); dot > 0; dot = path.lastIndexOf('.', dot - 1)) {
      above.add(path.slice(0, dot))
    }
  }
  return (path) => {
    if (exact.has(path) || above.has(path)) return true
    for (let dot = path.lastIndexOf('.'); dot > 0; dot = path.lastIndexOf('.', dot - 1)) {
      if (exact.has(path.slice(0, dot))) return true
    }
    return false
  }
}

/** A shallow copy of an object's own enumerable properties (`{}` for anything else). */
function shallowCopy(node: unknown): Record<string, unknown> {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return {}
  // Spread defines own data properties (an own `__proto__` key included), like defineOwn.
  return { ...(node as Record<string, unknown>) }
}

/**
 * A copy of `root` with `value` at the path; only the objects along the path are copied, so the
 * caller's values are never mutated. Missing steps become plain objects.
 */
export function setIn(root: unknown, segments: readonly string[], value: unknown): unknown {
  if (segments.length === 0) return value
  const [head, ...rest] = segments
  if (Array.isArray(root) && /^\d+$/.test(head)) {
    const copy = root.slice()
    copy[Number(head)] = setIn(root[Number(head)], rest, value)
    return copy
  }
  const copy = shallowCopy(root)
  defineOwn(copy, head, setIn(copy[head], rest, value))
  return copy
}

/**
 * `setIn` for many paths at once: each object along the paths is copied once, so writing n
 * fields costs O(n), not O(n²). The caller's values are never mutated.
 */
export function setManyIn(
  root: unknown,
  entries: Iterable<readonly [readonly string[], unknown]>,
): unknown {
  const copies = new WeakSet<object>()
  const writable = (node: unknown, head: string): Record<string, unknown> | unknown[] => {
    if (node !== null && typeof node === 'object' && copies.has(node)) {
      return node as Record<string, unknown> | unknown[]
    }
    let copy: Record<string, unknown> | unknown[]
    if (Array.isArray(node) && /^\d+$/.test(head)) copy = node.slice()
    else copy = shallowCopy(node)
    copies.add(copy)
    return copy
  }
  const write = (
    node: unknown,
    segments: readonly string[],
    i: number,
    value: unknown,
  ): unknown => {
    const head = segments[i]
    const container = writable(node, head)
    if (Array.isArray(container)) {
      const index = Number(head)
      container[index] =
        i + 1 === segments.length ? value : write(container[index], segments, i + 1, value)
    } else {
      const next =
        i + 1 === segments.length ? value : write(container[head], segments, i + 1, value)
      defineOwn(container, head, next)
    }
    return container
  }
  let out = root
  for (const [segments, value] of entries) {
    out = segments.length === 0 ? value : write(out, segments, 0, value)
  }
  return out
}

/**
 * Structural equality for form values; dates by time, files by name, size, type and time (a
 * `FileList` as the list of its files), other objects by reference.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime()
  }
  if (isBlob(a) || isBlob(b)) return isBlob(a) && isBlob(b) && sameFile(a, b)
  if (isFileList(a) || isFileList(b)) {
    return deepEqual(isFileList(a) ? Array.from(a) : a, isFileList(b) ? Array.from(b) : b)
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false
    return true
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false
  const keysA = Object.keys(a).filter((k) => a[k] !== undefined)
  const keysB = Object.keys(b).filter((k) => b[k] !== undefined)
  if (keysA.length !== keysB.length) return false
  for (const key of keysA) if (!hasOwn(b, key) || !deepEqual(a[key], b[key])) return false
  return true
}

/** A deep copy of plain objects, arrays and dates; other objects are kept by reference. */
export function cloneValue<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value
  if (value instanceof Date) return new Date(value.getTime()) as T
  if (Array.isArray(value)) return value.map(cloneValue) as T
  if (!isPlainObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) defineOwn(out, key, cloneValue(value[key]))
  return out as T
}

/** Whether a value counts as "no value" in a `FieldChange` (the side is left out). */
export const isNoValue = (value: unknown): boolean =>
  value === undefined || value === null || value === ''

/**
 * Whether a field holds nothing: no value, an empty list, or a file input with no file chosen
 * (an empty `FileList`).
 */
export const isEmptyValue = (value: unknown): boolean =>
  isNoValue(value) ||
  (Array.isArray(value) && value.length === 0) ||
  (isFileList(value) && value.length === 0)

/**
 * Whether going from `before` to `after` changes nothing: equal values, or two empty ones (a
 * file input that never held a file is not a change from a default that names no file).
 */
export const isUnchanged = (before: unknown, after: unknown): boolean =>
  deepEqual(before, after) || (isEmptyValue(before) && isEmptyValue(after))
