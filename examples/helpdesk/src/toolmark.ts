import { createToolmark, grants, questions, type Toolmark } from '@toolmark/core'
import { questionForm } from '@toolmark/react'
import { installTestHook } from '@toolmark/core/testing'
import { helpdeskVerifier } from './passkey.ts'
import { pastes } from './pastes.ts'

/**
 * The app's one registry, made at module scope so every agent (the assistant panel, browser
 * agents through WebMCP, a paired desktop client) talks to the same tools across renders.
 *
 * Closing a ticket (consequential) waits for a person whoever asks. Deleting (destructive) is
 * offered to the in-app assistant and to browser agents, always behind the person's passkey
 * (`verify: true` on `tickets.delete`, src/tools.ts): an agent can drive the page and press
 * Approve itself, but it cannot make the person's authenticator sign. Desktop agents never see
 * `tickets.delete`.
 *
 * Files reach a form fill only as `{ ref }`: an image the person pasted into the assistant
 * (`paste:1`). No `allowOrigins`, so an agent cannot make the page fetch a URL.
 *
 * `tour.start` (src/tools.ts) is for the in-app assistant only: browser and desktop agents do
 * not see it.
 *
 * "Allow for this session" is offered where repeating is harmless only: closing a ticket (a
 * closed ticket can be opened again). Creating tickets, filing access requests and saving edits
 * ask every time, for every agent: a grant there would let an agent file ticket after ticket
 * with nobody looking.
 */
const GRANTABLE = ['tickets.close']

export const tm: Toolmark = createToolmark({
  policy: {
    inapp: { grants: GRANTABLE },
    webmcp: {
      allow: ['destructive', 'consequential', 'readOnly', 'none'],
      tools: { deny: ['tour.start'] },
      grants: GRANTABLE,
    },
    // A tour is the page's own assistant answering "show me how": outside agents never see it.
    mcp: { tools: { deny: ['tour.start'] }, grants: GRANTABLE },
    test: { grants: GRANTABLE },
  },
  // `grants()`: "Allow for this session" in the dialog, on the tools above: closing one ticket
  // after another asks once per ticket, or once for the session when the person says so.
  // `questions()`: a run may ask the person a question the dialog draws as a small form.
  confirm: {
    verifier: helpdeskVerifier,
    grants: grants(),
    questions: questions({ form: questionForm }),
  },
  files: { resolve: (ref) => pastes.get(ref) },
})

// Test builds only (VITE_TOOLMARK_TEST_HOOK=1): the hook end-to-end tests drive the tools through
// (`pageTools`, docs/testing.md). Elsewhere the flag is false, and the hook is left out.
if (import.meta.env.VITE_TOOLMARK_TEST_HOOK === '1') installTestHook(tm)

/** Port of a local `toolmark-mcp` to pair with (its `--port`). */
export const MCP_PORT = Number(import.meta.env.VITE_TOOLMARK_MCP_PORT) || 17840

/**
 * Resolves once a tool named `name` is registered in a revision newer than the current one
 * (the form of the page just opened, not the one being replaced), or after `timeoutMs`.
 */
export function waitForNewTool(
  registry: Toolmark,
  name: string,
  { timeoutMs = 3000, signal }: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (found: boolean) => {
      clearTimeout(timer)
      stop()
      signal?.removeEventListener('abort', onAbort)
      resolve(found)
    }
    const onAbort = () => done(false)
    const stop = registry.subscribe(() => {
      if (registry.describe(name)) done(true)
    })
    const timer = setTimeout(() => done(registry.describe(name) !== undefined), timeoutMs)
    signal?.addEventListener('abort', onAbort)
  })
}
