/**
 * The far side of `bridge.postMessage.browser.test.ts`, loaded in a real iframe. `?mode=` picks
 * the part it plays: `agent` (an assistant frame driving the page), `stranger` (another window
 * posting a well-formed call) or `remote` (an agent served from an unexpected origin).
 */
import { createPageClient } from '@toolmark/core/agent'
import { postMessageTransport } from '@toolmark/core/bridge'

const params = new URLSearchParams(location.search)
const parentOrigin = params.get('parentOrigin') ?? ''
const clientId = params.get('clientId') ?? undefined
const mode = params.get('mode')

if (mode === 'agent') {
  const transport = postMessageTransport({ target: window.parent, targetOrigin: parentOrigin })
  const client = createPageClient({ transport, deadlineMs: 3_000 })
  ;(window as unknown as { bridgeAgent: unknown }).bridgeAgent = { client, transport }
} else if (mode === 'stranger') {
  window.parent.postMessage(
    JSON.stringify({
      protocol: 1,
      type: 'call',
      clientId,
      id: 'stranger-1',
      tool: 'counter.bump',
      input: {},
    }),
    parentOrigin,
  )
} else if (mode === 'remote') {
  const transport = postMessageTransport({ target: window.parent, targetOrigin: parentOrigin })
  const client = createPageClient({ transport, clientId, deadlineMs: 800 })
  let manifest = false
  client.onManifest(() => (manifest = true))
  const result = await client.call('counter.bump', {})
  // A plain object, so the page's bridge would never take it for protocol text.
  window.parent.postMessage({ kind: 'bridge-frame-report', manifest, result }, parentOrigin)
}
