import { CALLERS, type Caller } from '../types'

/** Type guards and tiny helpers every part of core uses. A leaf: it imports no runtime code of ours but the caller list. */

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

export const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object') return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

export const isAbortSignal = (v: unknown): v is AbortSignal =>
  isObject(v) &&
  typeof v.aborted === 'boolean' &&
  typeof (v as { addEventListener?: unknown }).addEventListener === 'function'

export const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  v !== null &&
  (typeof v === 'object' || typeof v === 'function') &&
  typeof (v as { then?: unknown }).then === 'function'

/** One of `CALLERS`. */
export const isCaller = (v: unknown): v is Caller => (CALLERS as readonly unknown[]).includes(v)

/** An own, enumerable property only: options and policies are never read through the prototype. */
export const own = (o: object, key: string): unknown =>
  Object.prototype.hasOwnProperty.call(o, key) ? (o as Record<string, unknown>)[key] : undefined

/** Lets Node exit while a deadline or expiry timer is pending. */
export function unref<T>(timer: T): T {
  ;(timer as { unref?: () => void }).unref?.()
  return timer
}

/** Joins a parent path and a segment (`''` is the root). */
export const joinPath = (parent: string, segment: string | number): string =>
  parent === '' ? String(segment) : `${parent}.${segment}`

/** Sets an own property; `__proto__` becomes a plain data property, never a prototype write. */
export const defineOwn = (target: Record<string, unknown>, key: string, value: unknown) => {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  } else target[key] = value
}

/** Path segments that could reach an object's prototype; never accepted from an agent. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set([
  '__proto__',
  'prototype',
  'constructor',
])

/** Reads a path through own properties only; `undefined` when any step is missing. */
export function getIn(value: unknown, segments: readonly string[]): unknown {
  let current = value
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return undefined
      current = current[Number(segment)]
    } else if (Object.prototype.hasOwnProperty.call(current, segment)) {
      current = (current as Record<string, unknown>)[segment]
    } else {
      return undefined
    }
  }
  return current
}
