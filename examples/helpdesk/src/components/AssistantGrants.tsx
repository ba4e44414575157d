import type { Grant } from '@toolmark/core'
import { useConfirmations } from '@toolmark/react'

/** The grants the person gave the assistant, and the registry's revoke; no presenter is attached. */
export function useAssistantGrants() {
  const { grants, revokeGrant } = useConfirmations({ presenter: false })
  return { grants: grants.filter((grant) => grant.caller === 'inapp'), revoke: revokeGrant }
}

const what = (grant: Grant) => grant.title ?? grant.tool

/** Ends one grant: the next call it would have covered asks again. */
function RevokeButton({ grant, onRevoke }: { grant: Grant; onRevoke(id: string): void }) {
  return (
    <button
      type="button"
      className="button button--small"
      aria-label={`Revoke “${what(grant)}” for this session`}
      onClick={() => onRevoke(grant.id)}
    >
      Revoke
    </button>
  )
}

/**
 * Under a step that ran without asking: whose approval let it through, and Revoke while that
 * grant lives (the next such call then asks again).
 */
export function StepGrant({
  grant,
  live,
  onRevoke,
}: {
  grant: string
  live: readonly Grant[]
  onRevoke(id: string): void
}) {
  const current = live.find((g) => g.id === grant)
  return (
    <p className="step__detail step__grant" data-grant={grant}>
      Ran without asking: allowed by your earlier approval
      {current ? (
        <>
          {' '}
          (“{what(current)}” for this session). <RevokeButton grant={current} onRevoke={onRevoke} />
        </>
      ) : (
        '. That approval has ended: the next such request asks you again.'
      )}
    </p>
  )
}

/**
 * What the assistant may do without asking until the page reloads, each with Revoke: shown from
 * the moment the person chose "Allow for this session", before any call uses it.
 */
export function AssistantGrants({
  live,
  onRevoke,
}: {
  live: readonly Grant[]
  onRevoke(id: string): void
}) {
  if (live.length === 0) return null
  return (
    <section className="assistant__grants" aria-label="Allowed without asking">
      <p>Allowed without asking until you reload the page:</p>
      <ul>
        {live.map((grant) => (
          <li key={grant.id}>
            {what(grant)}
            {grant.uses > 0 ? ` (used ${grant.uses} time${grant.uses === 1 ? '' : 's'})` : ''}{' '}
            <RevokeButton grant={grant} onRevoke={onRevoke} />
          </li>
        ))}
      </ul>
    </section>
  )
}
