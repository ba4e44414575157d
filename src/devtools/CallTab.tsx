import { useId, type Dispatch, type FormEvent, type SetStateAction } from 'react'
import type { Caller, Manifest, ToolResult, Toolmark } from '@toolmark/core'
import { CallerSelect, callerLabel } from './CallerSelect'
import { toJson } from './JsonBlock'
import { exampleInput } from './exampleInput'
import { ResultView } from './ResultView'
import { AgentText } from '../confirm-dialog/AgentText'

/** What the Call tab remembers while the panel is open, across tab switches. */
export interface CallState {
  /** The tool picked (the first visible one when unset or no longer visible). */
  tool?: string
  /** Edited inputs per tool; a tool without one shows its schema's defaults. */
  drafts: Readonly<Record<string, string>>
  /** The call in flight, if any. */
  running?: { tool: string; caller: Caller; controller: AbortController }
  /** The last call's outcome. */
  last?: { tool: string; caller: Caller; result: ToolResult }
}

export const initialCallState: CallState = { drafts: {} }

/** Parses the editor's text: empty means "no input". */
function parseInput(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, message: `Input is not valid JSON: ${(error as Error).message}` }
  }
}

/** Pick a tool and a caller, edit the JSON input, run it through `tm.call`, read the result. */
export function CallTab({
  tm,
  manifest,
  caller,
  onCallerChange,
  state,
  setState,
  onShowConfirmations,
}: {
  tm: Toolmark
  manifest: Manifest
  caller: Caller
  onCallerChange: (caller: Caller) => void
  state: CallState
  setState: Dispatch<SetStateAction<CallState>>
  onShowConfirmations: () => void
}) {
  const toolId = useId()
  const inputId = useId()
  const errorId = useId()
  const entry = manifest.tools.find((tool) => tool.name === state.tool) ?? manifest.tools[0]
  const name = entry?.name
  const defaults = entry ? toJson(exampleInput(entry.inputSchema)) : ''
  const text = name !== undefined ? (state.drafts[name] ?? defaults) : ''
  const parsed = parseInput(text)
  const running = state.running !== undefined

  const setText = (value: string) => {
    if (name === undefined) return
    setState((s) => ({ ...s, drafts: { ...s.drafts, [name]: value } }))
  }

  const reset = () => {
    if (name === undefined) return
    setState((s) => {
      const { [name]: _dropped, ...drafts } = s.drafts
      return { ...s, drafts }
    })
  }

  const run = async (event: FormEvent) => {
    event.preventDefault()
    if (name === undefined || !parsed.ok || running) return
    const controller = new AbortController()
    setState((s) => ({ ...s, running: { tool: name, caller, controller } }))
    const result = await tm.call(name, parsed.value, { caller, signal: controller.signal })
    setState((s) =>
      s.running?.controller === controller
        ? { ...s, running: undefined, last: { tool: name, caller, result } }
        : s,
    )
  }

  if (!entry) {
    return (
      <>
        <div data-part="fields">
          <CallerSelect value={caller} onChange={onCallerChange} />
        </div>
        <p>No tools are visible to this caller.</p>
      </>
    )
  }

  return (
    <>
      <form onSubmit={(event) => void run(event)} aria-label="Call a tool">
        <div data-part="fields">
          <label htmlFor={toolId}>
            Tool
            <select
              id={toolId}
              value={entry.name}
              onChange={(event) => setState((s) => ({ ...s, tool: event.target.value }))}
            >
              {manifest.tools.map((tool) => (
                <option key={tool.name} value={tool.name}>
                  {tool.name}
                </option>
              ))}
            </select>
          </label>
          <CallerSelect value={caller} onChange={onCallerChange} />
        </div>
        <p data-part="muted">
          <AgentText text={entry.description} />
        </p>
        <label htmlFor={inputId} data-block="">
          Input (JSON)
          <textarea
            id={inputId}
            value={text}
            spellCheck={false}
            aria-invalid={parsed.ok ? undefined : true}
            aria-describedby={parsed.ok ? undefined : errorId}
            onChange={(event) => setText(event.target.value)}
          />
        </label>
        {parsed.ok ? null : (
          <p id={errorId} data-part="error">
            {parsed.message}
          </p>
        )}
        <div data-part="actions">
          <button type="submit" data-variant="primary" disabled={running || !parsed.ok}>
            {running ? 'Running…' : 'Run'}
          </button>
          <button type="button" onClick={reset} disabled={state.drafts[entry.name] === undefined}>
            Reset to defaults
          </button>
          {state.running ? (
            <button type="button" onClick={() => state.running?.controller.abort()}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      <section aria-label="Result" aria-live="polite" aria-busy={running || undefined}>
        {state.last ? (
          <>
            <ResultView
              result={state.last.result}
              heading={
                <>
                  <code>{state.last.tool}</code> as {callerLabel(state.last.caller)}:
                </>
              }
            />
            {state.last.result.status === 'needs_confirmation' ? (
              <button type="button" onClick={onShowConfirmations}>
                Review in Confirmations
              </button>
            ) : null}
          </>
        ) : null}
      </section>
    </>
  )
}
