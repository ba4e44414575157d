'use client'
import type { ReactElement } from 'react'
import { DevtoolsPanel } from './DevtoolsPanel'
import type { ToolmarkDevtoolsProps } from './devtoolsProps'

export type { ToolmarkDevtoolsProps } from './devtoolsProps'

// Bundlers replace `process.env.NODE_ENV` with a string literal; declared here so the entry does
// not depend on Node's types.
declare const process: { env: { NODE_ENV?: string } }

/**
 * A floating panel to see and try the registry's tools by hand: **Tools** lists the manifest per
 * caller (hints as badges, the input JSON Schema on demand); **Call** runs any tool as any caller
 * with a JSON input prefilled from the schema's defaults and shows the `ToolResult`; **Activity**
 * is the call log (caller, status, duration, progress) with Undo; **Confirmations** lists pending
 * confirmations with Approve and Deny (while open, the panel is a confirmation presenter).
 *
 * Renders nothing in production builds: with `process.env.NODE_ENV` set to `'production'` the
 * bundler folds this component to `return null`, and the panel module, no longer referenced,
 * is dropped from the bundle ({@link ToolmarkDevtoolsInProduction} renders in every build). It reads the `--toolmark-dialog-*` CSS variables, like
 * `<ConfirmDialog>`, and adds no global CSS.
 *
 * @example
 * ```tsx
 * import { ToolmarkDevtools } from '@toolmark/react/devtools'
 *
 * <ToolProvider toolmark={tm}>
 *   <App />
 *   <ConfirmDialog />
 *   <ToolmarkDevtools position="bottom-left" />
 * </ToolProvider>
 * ```
 */
export const ToolmarkDevtools: (props: ToolmarkDevtoolsProps) => ReactElement | null =
  // A conditional expression rather than an early return: every bundler folds it while parsing,
  // so the panel is no longer referenced before tree shaking decides what to keep.
  process.env.NODE_ENV === 'production'
    ? function ToolmarkDevtools() {
        return null
      }
    : function ToolmarkDevtools(props) {
        return <DevtoolsPanel {...props} />
      }

/**
 * `<ToolmarkDevtools>` that renders in every build, production included: for a page whose whole
 * purpose is to show the devtools (a built Storybook, a demo, a staging deploy). It takes the
 * same props. An app that does not import it never bundles it.
 *
 * @example
 * ```tsx
 * import { ToolmarkDevtoolsInProduction } from '@toolmark/react/devtools'
 *
 * <ToolProvider toolmark={tm}>
 *   <ToolmarkDevtoolsInProduction initialIsOpen />
 * </ToolProvider>
 * ```
 */
export function ToolmarkDevtoolsInProduction(props: ToolmarkDevtoolsProps): ReactElement {
  return <DevtoolsPanel {...props} />
}
