import { bodyOf } from '../base/registryBody'

/**
 * Development warns once per registry and call that `old` is deprecated, naming what replaces it.
 * The registry's body keeps what it was told; an object with no body is told every time.
 */
export function deprecated(tm: { dev?: boolean }, old: string, instead: string): void {
  if (tm.dev !== true) return
  const caches = bodyOf(tm)?.caches
  if (caches) {
    const told = (caches.deprecations ??= new Set<string>())
    if (told.has(old)) return
    told.add(old)
  }
  console.warn(`[toolmark] ${old} is deprecated: use ${instead} where you create the registry.`)
}
