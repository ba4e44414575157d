/** The registries already told about each deprecated call. */
const told = new WeakMap<object, Set<string>>()

/** Development warns once per registry and call that `old` is deprecated, naming what replaces it. */
export function deprecated(tm: { dev?: boolean }, old: string, instead: string): void {
  if (tm.dev !== true) return
  const seen = told.get(tm) ?? new Set<string>()
  if (seen.has(old)) return
  seen.add(old)
  told.set(tm, seen)
  console.warn(`[toolmark] ${old} is deprecated: use ${instead} where you create the registry.`)
}
