import type { ReactNode } from 'react'
import type { ToolResult } from '@toolmark/core'
import { JsonBlock } from './JsonBlock'

/** Statuses that mean the action did not happen as asked. */
export const tone = (status: string): 'danger' | 'accent' | undefined =>
  status === 'ok'
    ? 'accent'
    : status === 'error' || status === 'invalid' || status === 'refused'
      ? 'danger'
      : undefined

/** A status as a small badge. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span data-part="badge" data-tone={tone(status)}>
      {status}
    </span>
  )
}

/**
 * One `ToolResult`: its status, what it means in words (issues with their paths, the refusal
 * code, who cancelled), then the result itself as JSON.
 */
export function ResultView({ result, heading }: { result: ToolResult; heading?: ReactNode }) {
  return (
    <div data-part="result" data-status={result.status} data-tone={tone(result.status)}>
      <p>
        {heading ? <>{heading} </> : null}
        <StatusBadge status={result.status} />
      </p>
      <Explanation result={result} />
      <JsonBlock value={result} />
    </div>
  )
}

function Explanation({ result }: { result: ToolResult }) {
  switch (result.status) {
    case 'invalid':
      return (
        <ul data-part="issues" aria-label="Issues">
          {result.issues.map((issue, index) => (
            <li key={`${issue.path}:${index}`}>
              <code>{issue.path === '' ? '(root)' : issue.path}</code>: {issue.message}
            </li>
          ))}
        </ul>
      )
    case 'refused':
      return (
        <p>
          Refused <code>{result.code}</code>: {result.message}
        </p>
      )
    case 'needs_confirmation':
      return <p>Waiting for a person to approve: {result.summary}</p>
    case 'cancelled':
      return <p>Cancelled by {result.by}.</p>
    case 'error':
      return <p data-part="error">{result.message}</p>
    default:
      return null
  }
}
