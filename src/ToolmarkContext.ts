import { createContext, useContext } from 'react'
import type { Toolmark } from '@toolmark/core'

// Bundlers replace `process.env.NODE_ENV` with a string literal; declared here so the kit does not
// depend on Node's types.
declare const process: { env: { NODE_ENV?: string } }

/** The registry that `<ToolProvider>` hands to the hooks below it. */
export const ToolmarkContext = createContext<Toolmark | null>(null)

/**
 * Resolves the registry for a hook or component: the explicit one when given, else the
 * nearest `<ToolProvider>`'s. Throws a message that names the caller and the two fixes.
 */
export function useResolvedToolmark(explicit: Toolmark | undefined, caller: string): Toolmark {
  const fromContext = useContext(ToolmarkContext)
  const toolmark = explicit ?? fromContext
  if (!toolmark) {
    // Production keeps the rule and the fix's gist; the full hint is for development only.
    throw new Error(
      `\`${caller}\` must be used within \`<ToolProvider>\`` +
        (process.env.NODE_ENV === 'production'
          ? ''
          : ': wrap your app in `<ToolProvider toolmark={tm}>` (or `<ToolProvider options={...}>`), ' +
            'or pass the registry explicitly as `toolmark`.'),
    )
  }
  return toolmark
}
