import type { Caller } from '@toolmark/core'
import type { UseFormToolResult } from '@toolmark/react/rhf'

const WHO: Partial<Record<Caller, string>> = {
  inapp: 'assistant',
  webmcp: 'browser agent',
  mcp: 'desktop app',
}

/**
 * Marks a field that holds a value an agent wrote ("filled by assistant") with a control that
 * puts back what the field held before; renders nothing once the person edits the field.
 */
export function AgentFilled({ tool, path }: { tool: UseFormToolResult; path: string }) {
  const by = tool.provenance.get(path)
  if (!by) return null
  const who = WHO[by.caller] ?? 'agent'
  const noteId = `field-${path}-agent`
  return (
    <p className="agent-filled" data-agent-filled={path}>
      <span id={noteId} className="agent-filled__badge">
        filled by {who}
      </span>
      <button
        type="button"
        className="agent-filled__revert"
        aria-label={`Revert to the value before the ${who}`}
        aria-describedby={noteId}
        onClick={() => void tool.revertField(path)}
      >
        Revert
      </button>
    </p>
  )
}
