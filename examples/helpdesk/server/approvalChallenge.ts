import { createHash } from 'node:crypto'

/**
 * The challenge a person's passkey signed for one approval, recomputed on the server from what it
 * is asked to do: base64url SHA-256 over the canonical JSON (keys sorted, no spaces) of
 * `["toolmark.approval.v1", confirmId, tool, input, expiresAt]` — the encoding
 * `approvalChallenge` of `@toolmark/core/passkey` uses in the page. (The server runs in Vite's
 * config, before any package is built, so it keeps its own twenty lines.)
 */
export function approvalChallenge(parts: {
  confirmId: string
  tool: string
  input: unknown
  expiresAt: number
}): string {
  const text = JSON.stringify(
    sorted(['toolmark.approval.v1', parts.confirmId, parts.tool, parts.input, parts.expiresAt]),
  )
  return createHash('sha256').update(text).digest('base64url')
}

function sorted(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  const withJson = value as { toJSON?: () => unknown }
  if (typeof withJson.toJSON === 'function') return sorted(withJson.toJSON())
  if (Array.isArray(value)) return value.map((item) => sorted(item) ?? null)
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) {
    const v = sorted((value as Record<string, unknown>)[key])
    if (v !== undefined) Object.defineProperty(out, key, { value: v, enumerable: true })
  }
  return out
}
