import type { ConfirmDialogLabels } from './confirmDialogLabels'
import { isExpiredOutcome, type Outcome } from './confirmDialogState'
import { AgentText } from './AgentText'

/**
 * Why an approval did not happen as asked: the request expired, the tool reported issues, was
 * refused or failed. With several outcomes at once, each names its tool.
 */
export function ConfirmDialogOutcome({
  outcome,
  labels,
  named,
}: {
  outcome: Outcome
  labels: ConfirmDialogLabels
  named: boolean
}) {
  const { entry } = outcome
  const prefix = named ? (
    <>
      <AgentText text={entry.title ?? entry.tool} />
      {': '}
    </>
  ) : null
  if (outcome.kind === 'expired' || isExpiredOutcome(outcome)) {
    return (
      <p data-part="outcome-title">
        {prefix}
        {labels.expired}
      </p>
    )
  }
  const { result } = outcome
  if (result.status === 'invalid') {
    return (
      <>
        <p data-part="outcome-title">
          {prefix}
          {labels.invalid}
        </p>
        <ul>
          {result.issues.map((issue, i) => (
            <li key={`${issue.path}:${i}`}>
              <AgentText text={issue.path ? `${issue.path}: ${issue.message}` : issue.message} />
            </li>
          ))}
        </ul>
      </>
    )
  }
  if (result.status === 'refused' && result.code === 'verification_failed') {
    return (
      <p data-part="outcome-title">
        {prefix}
        {labels.notVerified}
      </p>
    )
  }
  const message = result.status === 'error' || result.status === 'refused' ? result.message : ''
  return (
    <>
      <p data-part="outcome-title">
        {prefix}
        {result.status === 'refused' ? labels.refused : labels.failed}
      </p>
      {message ? (
        <p>
          <AgentText text={message} />
        </p>
      ) : null}
    </>
  )
}
