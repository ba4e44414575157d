import { useCallback, useSyncExternalStore } from 'react'
import { useToolmark, useWebMCP } from '@toolmark/react'
import { McpPairing } from '@toolmark/react/mcp'
import { MCP_PORT } from '../toolmark.ts'
import { PlugIcon } from './Icons.tsx'

function hasModelContext(): boolean {
  return (
    typeof document !== 'undefined' &&
    !!(document as Document & { modelContext?: unknown }).modelContext
  )
}

/** How many tools a caller sees right now, kept current with the registry's revisions. */
function useToolCount(caller: 'webmcp' | 'mcp'): number {
  const tm = useToolmark()
  const subscribe = useCallback((onChange: () => void) => tm.subscribe(onChange), [tm])
  const read = useCallback(() => tm.manifest({ caller }).tools.length, [tm, caller])
  return useSyncExternalStore(subscribe, read, () => 0)
}

/**
 * The "agents" section (under the views on a wide screen, under the queue on a phone): WebMCP
 * serves the page's tools to browser agents, and the pairing box connects a desktop MCP client
 * through a local `toolmark-mcp`.
 */
export function AgentAccess() {
  useWebMCP()
  const webmcpTools = useToolCount('webmcp')
  const native = hasModelContext()
  return (
    <>
      <h2 className="agents__heading">Agents</h2>
      <section className="agents__panel" aria-label="Browser agents">
        <h3>
          <span className={`dot ${native ? 'dot--on' : ''}`} aria-hidden="true" />
          Browser agents
        </h3>
        <p>
          {native
            ? `WebMCP is on: ${webmcpTools} tools are offered to agents in this browser.`
            : 'This browser has no WebMCP; agents in browsers that do see this page’s tools.'}
        </p>
      </section>
      <section className="agents__panel mcp-box" aria-label="Desktop agent">
        <h3>
          <PlugIcon /> Desktop agent
        </h3>
        <McpPairing
          port={MCP_PORT}
          labels={{
            hint: 'In your MCP client, run the toolmark_pairing tool and type the code it shows.',
          }}
        />
      </section>
    </>
  )
}
