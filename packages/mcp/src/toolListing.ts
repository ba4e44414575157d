import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { Manifest, ManifestEntry } from '@toolmark/core'
import { toMcpTool } from './mapping'

/** How long `tools/list` waits for a just-paired page's first manifest. */
const FIRST_MANIFEST_WAIT_MS = 3_000

/** What the listing reads from a paired page (a `PageLink` is one). */
export interface ListedPage {
  /** The latest manifest, once one arrived. */
  manifest(): Manifest | undefined
  /** Every manifest revision; returns an unsubscribe. */
  onManifest(listener: (manifest: Manifest) => void): () => void
  /** One tool's full entry (with its input schema), or undefined when the page has none. */
  describe(name: string): Promise<ManifestEntry | undefined>
}

/** The page's manifest, waiting a moment for the first one of a page that just paired. */
export async function waitForManifest(link: ListedPage): Promise<Manifest | undefined> {
  const now = link.manifest()
  if (now) return now
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      off()
      resolve(link.manifest())
    }, FIRST_MANIFEST_WAIT_MS)
    const off = link.onManifest((manifest) => {
      clearTimeout(timer)
      off()
      resolve(manifest)
    })
  })
}

/** One revision's tool list; `complete` unless a schema had to be loosened. */
interface BuiltList {
  tools: Tool[]
  complete: boolean
}

/** Options of `createToolListing`. */
export interface ToolListingOptions {
  /** Whether `link` is still the paired page: only its answers are cached. */
  isCurrent(link: ListedPage): boolean
  /** Diagnostics (stderr). */
  log(line: string): void
}

/** The paired page's tools as MCP lists them, and the entries behind the names it showed. */
export interface ToolListing {
  /** The MCP tools of the page's latest manifest (none while it has none). */
  tools(link: ListedPage): Promise<Tool[]>
  /** The entry with its input schema; `undefined` when the page could not describe it. */
  fullEntry(link: ListedPage, entry: ManifestEntry): Promise<ManifestEntry | undefined>
  /** The entry the latest listing showed under an MCP name. */
  shown(llmName: string): ManifestEntry | undefined
  /** The newest manifest decides; a name only an older listing knew still goes to the page. */
  lookup(link: ListedPage, llmName: string): ManifestEntry | undefined
  /** Forgets everything kept, for a page that is no longer the paired one. */
  reset(): void
}

/**
 * Builds the page's tool list once per manifest revision, however many times the client lists
 * it, and describes only the tools whose summary entry changed since the last revision.
 */
export function createToolListing(options: ToolListingOptions): ToolListing {
  // Full entries by name, kept while the summary entry is unchanged so a revision that touches
  // one tool costs one describe, not one per tool.
  const described = new Map<string, { key: string; entry: ManifestEntry }>()
  let listed = new Map<string, ManifestEntry>()
  // The tool list of the latest revision, built once however many times the client lists it.
  let listing: { link: ListedPage; rev: number; built: Promise<BuiltList> } | undefined

  async function fullEntry(
    link: ListedPage,
    entry: ManifestEntry,
  ): Promise<ManifestEntry | undefined> {
    if (entry.inputSchema) return entry
    const key = JSON.stringify(entry)
    const cached = described.get(entry.name)
    if (cached && cached.key === key) return cached.entry
    const full = await link.describe(entry.name)
    if (!full) {
      options.log(`toolmark-mcp: could not describe ${entry.name}; listing it with a loose schema`)
      return undefined
    }
    if (options.isCurrent(link)) described.set(entry.name, { key, entry: full })
    return full
  }

  async function buildTools(link: ListedPage, manifest: Manifest): Promise<BuiltList> {
    let complete = true
    const entries = await Promise.all(
      manifest.tools.map(async (entry) => {
        const full = await fullEntry(link, entry)
        if (full) return full
        // Not cached: the next listing asks again. Meanwhile any object input is let through
        // and the page validates it, as it does every call.
        complete = false
        return { ...entry, inputSchema: { type: 'object' } }
      }),
    )
    const tools: Tool[] = []
    const byLlmName = new Map<string, ManifestEntry>()
    for (const entry of entries) {
      const tool = toMcpTool(entry, entry.inputSchema)
      if (!tool) {
        options.log(`toolmark-mcp: skipped ${entry.name}: its input is not an object`)
        continue
      }
      tools.push(tool)
      byLlmName.set(entry.llmName, entry)
    }
    if (options.isCurrent(link)) listed = byLlmName
    return { tools, complete }
  }

  return {
    async tools(link) {
      const manifest = await waitForManifest(link)
      if (!manifest) return []
      if (listing?.link === link && listing.rev === manifest.rev) return (await listing.built).tools
      const current = { link, rev: manifest.rev, built: buildTools(link, manifest) }
      listing = current
      const built = await current.built.catch((error: unknown) => {
        if (listing === current) listing = undefined
        throw error
      })
      // A list that had to loosen a schema is not kept: the next listing describes again.
      if (!built.complete && listing === current) listing = undefined
      return built.tools
    },
    fullEntry,
    shown: (llmName) => listed.get(llmName),
    lookup: (link, llmName) =>
      link.manifest()?.tools.find((entry) => entry.llmName === llmName) ?? listed.get(llmName),
    reset() {
      described.clear()
      listed = new Map()
      listing = undefined
    },
  }
}
