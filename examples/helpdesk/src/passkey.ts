import type { Verifier } from '@toolmark/core'
import {
  passkeyVerifier,
  registerPasskey,
  webauthnVerifier,
  type PasskeyCredential,
} from '@toolmark/core/passkey'

const STORAGE_KEY = 'helpdesk.passkeys'

function saved(): PasskeyCredential[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]')
    return Array.isArray(list) ? (list as PasskeyCredential[]) : []
  } catch {
    return []
  }
}

const askPasskey = passkeyVerifier({ credentials: saved })

/**
 * The helpdesk's verifier: the person's passkey, enrolled on first use. The first protected
 * approval creates a passkey (the server issues the challenge and keeps what verifies), then asks
 * for it; every later one only asks. A passkey the server no longer knows (its memory was reset)
 * is enrolled again.
 */
export const helpdeskVerifier: Verifier = webauthnVerifier(async (request) => {
  const options = await fetch('/api/passkeys/challenge', { signal: request.signal })
  if (!options.ok) throw new Error('The helpdesk server could not be reached')
  const { challenge, enrolled } = (await options.json()) as { challenge: string; enrolled: boolean }
  if (!enrolled || saved().length === 0) {
    const passkey = await registerPasskey({
      rp: { name: 'Helpdesk' },
      user: {
        id: crypto.randomUUID(),
        name: 'helpdesk-operator',
        displayName: 'Helpdesk operator',
      },
      challenge,
      signal: request.signal,
    })
    if (!passkey) return undefined
    const response = await fetch('/api/passkeys', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ registration: passkey.registration }),
      signal: request.signal,
    })
    if (!response.ok) throw new Error('The helpdesk server did not accept the passkey')
    localStorage.setItem(STORAGE_KEY, JSON.stringify([passkey.credential]))
  }
  return askPasskey.ask(request)
})
