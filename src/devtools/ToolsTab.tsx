import { useId, useState } from 'react'
import type { Caller, Manifest, ManifestEntry, ToolHints, Toolmark } from '@toolmark/core'
import { CallerSelect, callerLabel } from './CallerSelect'
import { JsonBlock } from './JsonBlock'

const HINT_LABELS: Record<keyof ToolHints, string> = {
  readOnly: 'read-only',
  consequential: 'consequential',
  destructive: 'destructive',
  untrustedContent: 'untrusted content',
}

/** The manifest one caller sees: each tool with its hints as badges and its input schema. */
export function ToolsTab({
  tm,
  manifest,
  caller,
  onCallerChange,
  onTry,
}: {
  tm: Toolmark
  manifest: Manifest
  caller: Caller
  onCallerChange: (caller: Caller) => void
  onTry: (tool: string) => void
}) {
  const count = manifest.tools.length
  return (
    <>
      <div data-part="toolbar">
        <CallerSelect value={caller} onChange={onCallerChange} />
        <p data-part="muted">
          {count === 1 ? '1 tool' : `${count} tools`} visible to {callerLabel(caller)} · rev{' '}
          {manifest.rev}
        </p>
      </div>
      {count === 0 ? (
        <p>No tools are visible to this caller.</p>
      ) : (
        <ul data-part="list" aria-label="Tools">
          {manifest.tools.map((tool) => (
            <ToolItem
              key={tool.name}
              tool={tool}
              verified={tm.verifies(tool.name, { caller })}
              onTry={onTry}
            />
          ))}
        </ul>
      )}
    </>
  )
}

function ToolItem({
  tool,
  verified,
  onTry,
}: {
  tool: ManifestEntry
  /** Approving this caller's calls asks for the person's passkey. */
  verified: boolean
  onTry: (tool: string) => void
}) {
  const [expanded, setExpanded] = useState(false)
  const schemaId = useId()
  const hints = (Object.keys(HINT_LABELS) as (keyof ToolHints)[]).filter((hint) => tool.hints[hint])
  return (
    <li data-part="item">
      <div data-part="item-head">
        <h3>
          <code>{tool.name}</code>
        </h3>
        {tool.title ? <span data-part="muted">{tool.title}</span> : null}
        {hints.length > 0 || verified ? (
          <ul data-part="badges" aria-label="Hints">
            {hints.map((hint) => (
              <li
                key={hint}
                data-part="badge"
                data-tone={hint === 'destructive' ? 'danger' : undefined}
              >
                {HINT_LABELS[hint]}
              </li>
            ))}
            {verified ? (
              <li data-part="badge" title="Approving asks for the person's passkey">
                passkey approval
              </li>
            ) : null}
          </ul>
        ) : null}
        <div data-part="actions">
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={expanded ? schemaId : undefined}
            aria-label={`Input schema of ${tool.name}`}
            onClick={() => setExpanded((open) => !open)}
          >
            Input schema
          </button>
          <button type="button" aria-label={`Try ${tool.name}`} onClick={() => onTry(tool.name)}>
            Try
          </button>
        </div>
      </div>
      <p>{tool.description}</p>
      {tool.signature ? (
        <p>
          <code>{tool.signature}</code>
        </p>
      ) : null}
      {expanded ? <JsonBlock id={schemaId} value={tool.inputSchema ?? {}} /> : null}
    </li>
  )
}
