import { deepFreeze } from '../base/results'
import type { ManifestMessage } from '../protocol/messages'
import type { Manifest } from '../types'

/** Pages remembered at once; more would only let a hostile wire grow this client's memory. */
const MAX_PAGES = 64

/** The pages a page client has heard from: each one's latest manifest, and the default page. */
export interface PageManifests {
  /** Resolves with the default page's first manifest. Stays pending if no page ever answers. */
  readonly ready: Promise<Manifest>
  /** The default page: the one the client was given, or the first that sent a manifest. */
  readonly defaultClientId: string | undefined
  /** A page's latest manifest. */
  get(clientId: string): Manifest | undefined
  /** A copy of the latest manifest of every page heard from, by `clientId`. */
  snapshot(): Map<string, Manifest>
  /** Takes a page's manifest, unless it is older than the one known or too many pages are. */
  receive(message: ManifestMessage): void
  /** Resolves with the page to talk to once one is known, or `undefined` when `until` fires. */
  pageFor(requested: string | undefined, until: Promise<void>): Promise<string | undefined>
  /** Listens to every manifest taken; returns an unsubscribe. */
  onManifest(listener: (manifest: Manifest, clientId: string) => void): () => void
  /** Drops every manifest listener (the client closed). */
  clearListeners(): void
}

/**
 * Tracks the manifests of the pages a client talks to. `only`: the one page the client talks
 * to, which is then the default from the start.
 */
export function createPageManifests(only: string | undefined): PageManifests {
  const manifests = new Map<string, Manifest>()
  const manifestListeners = new Set<(manifest: Manifest, clientId: string) => void>()
  const waitingForPage = new Set<() => void>()
  let defaultClientId = only
  let resolveReady!: (manifest: Manifest) => void
  const ready = new Promise<Manifest>((resolve) => (resolveReady = resolve))

  return {
    ready,
    get defaultClientId() {
      return defaultClientId
    },
    get: (clientId) => manifests.get(clientId),
    snapshot: () => new Map(manifests),
    receive(message) {
      const known = manifests.get(message.clientId)
      if (known && known.rev > message.rev) return
      if (!known && manifests.size >= MAX_PAGES) return
      const manifest = deepFreeze({ rev: message.rev, tools: message.tools })
      manifests.set(message.clientId, manifest)
      if (defaultClientId === undefined) defaultClientId = message.clientId
      if (message.clientId === defaultClientId) resolveReady(manifest)
      for (const wake of [...waitingForPage]) wake()
      for (const listener of [...manifestListeners]) {
        try {
          listener(manifest, message.clientId)
        } catch {
          // Isolated.
        }
      }
    },
    pageFor(requested, until) {
      const now = requested ?? defaultClientId
      if (now !== undefined) return Promise.resolve<string | undefined>(now)
      return new Promise<string | undefined>((resolve) => {
        const wake = () => {
          if (defaultClientId === undefined) return
          waitingForPage.delete(wake)
          resolve(defaultClientId)
        }
        waitingForPage.add(wake)
        void until.then(() => {
          waitingForPage.delete(wake)
          resolve(undefined)
        })
      })
    },
    onManifest(listener) {
      manifestListeners.add(listener)
      return () => {
        manifestListeners.delete(listener)
      }
    },
    clearListeners() {
      manifestListeners.clear()
    },
  }
}
