import { StrictMode } from 'react'
import { render } from 'vitest-browser-react'
import { cdp, page, userEvent } from 'vitest/browser'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Approval, ToolmarkOptions, Verification, Verifier } from '@toolmark/core'
import {
  passkeyVerifier,
  registerPasskey,
  webauthnVerifier,
  type PasskeyCredential,
} from '@toolmark/core/passkey'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'

type Session = ReturnType<typeof cdp>

/** A CDP virtual authenticator: a platform passkey that verifies the user unless told not to. */
async function addAuthenticator(
  session: Session,
  options: { hasUserVerification?: boolean; isUserVerified?: boolean; presence?: boolean } = {},
) {
  await session.send('WebAuthn.enable', { enableUI: false })
  const { authenticatorId } = (await session.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: options.hasUserVerification ?? true,
      isUserVerified: options.isUserVerified ?? true,
      automaticPresenceSimulation: options.presence ?? true,
    },
  })) as { authenticatorId: string }
  return {
    id: authenticatorId,
    /** The person verifies (fingerprint, face, PIN) or does not. */
    setUserVerified: (isUserVerified: boolean) =>
      session.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified }),
    remove: () => session.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId }),
  }
}

let authenticator: Awaited<ReturnType<typeof addAuthenticator>> | undefined
afterEach(async () => {
  await authenticator?.remove()
  authenticator = undefined
})

/** Enrols a passkey on the current authenticator, as the helpdesk does on first use. */
async function enrol(): Promise<PasskeyCredential> {
  const passkey = await registerPasskey({
    rp: { name: 'Helpdesk' },
    user: { id: `agent-${Math.random()}`, name: 'ada@example.com', displayName: 'Ada' },
  })
  expect(passkey?.credential.publicKey).toMatch(/^[A-Za-z0-9_-]+$/)
  return passkey!.credential
}

/** A registry whose destructive delete needs the person's passkey; `deleted` is what ran. */
function setup(verifier: Verifier, options: ToolmarkOptions = {}) {
  const tm = createToolmark({
    ...options,
    policy: { webmcp: { allow: ['destructive', 'readOnly'] } },
    confirm: { verifier },
  })
  const deleted: Array<{ id: number; approval: Approval | undefined }> = []
  tm.register({
    name: 'tickets.delete',
    title: 'Delete ticket',
    description: 'Deletes a ticket',
    hints: { destructive: true },
    verify: true,
    input: z.object({ id: z.number() }),
    summary: ({ id }) => `Delete ticket #${id}`,
    run: ({ id }, ctx) => {
      deleted.push({ id, approval: ctx.approval })
      return ok({ deleted: id })
    },
  })
  return { tm, deleted }
}

function App({ tm }: { tm: ReturnType<typeof createToolmark> }) {
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>
  )
}

const dialog = () => page.getByRole('alertdialog')
const approveButton = () => page.getByRole('button', { name: 'Delete ticket', exact: true })

describe('passkey approvals in Chromium (CDP virtual authenticator)', () => {
  it('keeps expiry and single use while the passkey prompt is open', async () => {
    // No automatic presence: the prompt stays open until the confirmation ends it.
    authenticator = await addAuthenticator(cdp(), { presence: false })
    const credential = await enrolWithPresence()
    const { tm, deleted } = setup(passkeyVerifier({ credentials: [credential] }), {
      limits: { confirmationExpiryMs: 1_500 },
    })
    tm.confirmations.attachPresenter()
    const call = tm.call('tickets.delete', { id: 5 }, { caller: 'webmcp' })
    await expect.poll(() => tm.confirmations.list().length).toBe(1)
    const { id } = tm.confirmations.list()[0]
    const approving = tm.confirmations.approve(id)
    await new Promise((resolve) => setTimeout(resolve, 200))
    // A second answer while the prompt is open is refused.
    expect(await tm.confirmations.approve(id)).toMatchObject({ code: 'confirmation_expired' })
    expect(await approving).toMatchObject({ code: 'confirmation_expired' })
    expect(await call).toMatchObject({ code: 'confirmation_expired' })
    expect(deleted).toEqual([])
  })

  it('an agent clicking Approve never deletes; the person’s verified passkey does', async () => {
    authenticator = await addAuthenticator(cdp())
    const credential = await enrol()
    const { tm, deleted } = setup(passkeyVerifier({ credentials: [credential], timeoutMs: 5_000 }))
    await render(<App tm={tm} />)
    const call = tm.call('tickets.delete', { id: 4 }, { caller: 'webmcp' })
    await expect.element(dialog()).toHaveTextContent('Approving asks for your passkey')

    // The agent drives the page: a real click on Approve, while the person verifies nothing.
    await authenticator.setUserVerified(false)
    await userEvent.click(approveButton())
    await expect.element(dialog()).toHaveTextContent('Your passkey did not confirm this request')
    expect(deleted).toEqual([])
    expect(tm.confirmations.list()).toHaveLength(1)

    // A page script calls approve() directly: the verifier is asked all the same.
    const id = tm.confirmations.list()[0].id
    expect(await tm.confirmations.approve(id)).toMatchObject({
      status: 'refused',
      code: 'verification_failed',
    })
    expect(deleted).toEqual([])

    // The person closes the notice and approves with their fingerprint.
    await userEvent.click(page.getByRole('button', { name: 'Close', exact: true }))
    await authenticator.setUserVerified(true)
    await userEvent.click(approveButton())
    expect(await call).toEqual({ status: 'ok', data: { deleted: 4 } })
    expect(deleted.map((d) => d.id)).toEqual([4])
    const approval = deleted[0].approval!
    expect(approval.by).toBe('verified')
    expect(approval.assertion?.id).toBe(credential.id)
    const clientData = JSON.parse(
      atob(approval.assertion!.response.clientDataJSON.replace(/-/g, '+').replace(/_/g, '/')),
    )
    expect(clientData).toMatchObject({ type: 'webauthn.get', origin: location.origin })
  })

  it('refuses an assertion replayed for another confirmation or another input, and deletes nothing', async () => {
    authenticator = await addAuthenticator(cdp())
    const credential = await enrol()
    const real = passkeyVerifier({ credentials: [credential], timeoutMs: 5_000 })
    const replay: { of?: Verification } = {}
    const captured: Verification[] = []
    const { tm, deleted } = setup(
      webauthnVerifier(async (request) => {
        if (replay.of) return replay.of
        const verification = await real.ask(request)
        if (verification) captured.push(verification)
        // Declines what it signed, so the first entry stays pending and the assertion unused.
        return undefined
      }),
    )
    tm.confirmations.attachPresenter()
    void tm.call('tickets.delete', { id: 1 }, { caller: 'webmcp' })
    void tm.call('tickets.delete', { id: 2 }, { caller: 'webmcp' })
    await expect.poll(() => tm.confirmations.list().length).toBe(2)
    const [first, second] = tm.confirmations.list()
    expect((await tm.confirmations.approve(first.id)).status).toBe('refused')
    expect(captured).toHaveLength(1)

    replay.of = captured[0]
    expect(await tm.confirmations.approve(second.id)).toMatchObject({ code: 'verification_failed' })
    expect(await tm.confirmations.approve(first.id, { input: { id: 2 } })).toMatchObject({
      code: 'verification_failed',
    })
    expect(deleted).toEqual([])
    expect(tm.confirmations.list()).toHaveLength(2)
  })

  it('refuses an authenticator that does not verify the user, even when asked without requiring it', async () => {
    authenticator = await addAuthenticator(cdp(), { hasUserVerification: false })
    const credential = await enrolWithoutVerification()
    const lax: Verifier = webauthnVerifier(async (request) => {
      const bytes = Uint8Array.from(
        atob(request.challenge.replace(/-/g, '+').replace(/_/g, '/')),
        (c) => c.charCodeAt(0),
      )
      const got = (await navigator.credentials.get({
        publicKey: {
          challenge: bytes,
          userVerification: 'discouraged',
          allowCredentials: [{ type: 'public-key', id: fromB64url(credential) }],
        },
      })) as PublicKeyCredential
      return (got as unknown as { toJSON(): Verification }).toJSON()
    })
    const { tm, deleted } = setup(lax)
    tm.confirmations.attachPresenter()
    void tm.call('tickets.delete', { id: 9 }, { caller: 'webmcp' })
    await expect.poll(() => tm.confirmations.list().length).toBe(1)
    expect(await tm.confirmations.approve(tm.confirmations.list()[0].id)).toMatchObject({
      code: 'verification_failed',
      message: expect.stringMatching(/did not verify the user/),
    })
    expect(deleted).toEqual([])
  })
})

function fromB64url(id: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(id.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
}

/** Enrols on an authenticator without user verification (registerPasskey would require it). */
async function enrolWithoutVerification(): Promise<string> {
  const created = (await navigator.credentials.create({
    publicKey: {
      rp: { name: 'Helpdesk' },
      user: { id: new Uint8Array([1, 2, 3]), name: 'ada', displayName: 'Ada' },
      challenge: new Uint8Array(32),
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      authenticatorSelection: { userVerification: 'discouraged' },
    },
  })) as PublicKeyCredential
  return created.id
}

/** Enrols while presence is simulated by hand (the authenticator runs without automatic presence). */
async function enrolWithPresence(): Promise<PasskeyCredential> {
  await cdp().send('WebAuthn.setAutomaticPresenceSimulation', {
    authenticatorId: authenticator!.id,
    enabled: true,
  })
  const credential = await enrol()
  await cdp().send('WebAuthn.setAutomaticPresenceSimulation', {
    authenticatorId: authenticator!.id,
    enabled: false,
  })
  return credential
}
