import { ok } from '@toolmark/core'
import { useTool, useToolmark } from '@toolmark/react'
import { navigate, parseRoute } from './route.ts'
import { waitForNewTool } from './toolmark.ts'

/**
 * `access.start`: shows the access-request wizard from anywhere in the app, so every agent can
 * reach it; its own tools (`access.fill`, `access.submit`, …) appear once it is on screen.
 */
export function useAccessTools() {
  const tm = useToolmark()
  useTool({
    name: 'access.start',
    title: 'Open the access request',
    description: 'Open the access-request wizard.',
    run: async (_input, ctx) => {
      if (parseRoute(window.location.hash).name !== 'access') {
        navigate({ name: 'access' })
        await waitForNewTool(tm, 'access.fill', { signal: ctx.signal })
      }
      // Like tickets.compose: the answer names the tools to call next, in the same round.
      return ok({
        form: 'access',
        steps: ['who', 'system', 'why'],
        tools: ['access.fill', 'access.submit', 'access.state', 'access.options'],
      })
    },
  })
}
