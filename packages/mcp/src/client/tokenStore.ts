/** Where a page keeps its session token: `localStorage` when usable, else memory. */
export interface TokenStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

const memory = new Map<string, string>()

/** A storage that lives as long as the page (used when `localStorage` is missing or blocked). */
export const memoryStorage: TokenStorage = {
  getItem: (key) => memory.get(key) ?? null,
  setItem: (key, value) => void memory.set(key, value),
  removeItem: (key) => void memory.delete(key),
}

/** The storage key of the session token for one server port. */
export function tokenKey(port: number): string {
  return `toolmark:mcp:${port}`
}

/** `localStorage` if this realm has a working one (sandboxed frames throw), else memory. */
export function defaultStorage(): TokenStorage {
  try {
    const storage = (globalThis as { localStorage?: TokenStorage }).localStorage
    if (storage) {
      const probe = tokenKey(0)
      storage.setItem(probe, '1')
      storage.removeItem(probe)
      return storage
    }
  } catch {}
  return memoryStorage
}

/** Reads a token, treating a throwing storage as empty. */
export function readToken(storage: TokenStorage, port: number): string | undefined {
  try {
    return storage.getItem(tokenKey(port)) ?? undefined
  } catch {
    return undefined
  }
}

/** Writes (or, with undefined, removes) a token; a throwing storage is ignored. */
export function writeToken(storage: TokenStorage, port: number, token: string | undefined): void {
  try {
    if (token === undefined) storage.removeItem(tokenKey(port))
    else storage.setItem(tokenKey(port), token)
  } catch {}
}
