/** A file the person pasted into the assistant, known to agents by its `ref`. */
export interface Paste {
  /** What an agent names it by: `paste:1`, `paste:2`, … in the order they came. */
  ref: string
  file: File
}

/** Pastes kept at most; the oldest goes first. */
const MAX_PASTES = 10

/**
 * The files the person gave the assistant by pasting, for this page only: a fill's `{ ref }`
 * resolves here (`createToolmark({ files: { resolve } })`). Kept in memory, so nothing the person
 * pasted outlives the page. Every pasted file is kept whatever its type or size: the form's
 * file rules decide what a fill may attach, and say why when they refuse.
 */
export function createPastes() {
  let list: readonly Paste[] = []
  let next = 1
  const listeners = new Set<() => void>()

  return {
    /** Keeps a pasted file and returns its ref. */
    add(file: File): Paste {
      const paste = { ref: `paste:${next++}`, file }
      list = [...list, paste].slice(-MAX_PASTES)
      for (const listener of listeners) listener()
      return paste
    },
    /** The file behind a ref, if this page still has it. */
    get(ref: string): File | undefined {
      return list.find((paste) => paste.ref === ref)?.file
    },
    /** Every paste kept, oldest first; the same array until a paste is added. */
    list(): readonly Paste[] {
      return list
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export type Pastes = ReturnType<typeof createPastes>

/** The page's pastes, shared by the assistant panel and the registry's file resolver. */
export const pastes: Pastes = createPastes()
