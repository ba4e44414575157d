'use client'
import { forwardRef } from 'react'
import { ConfirmDialogRoot, type ConfirmDialogProps } from './ConfirmDialogRoot'
import { confirmDialogCss } from './confirmDialogStyles'

export type { ConfirmDialogActions, ConfirmDialogProps } from './ConfirmDialogRoot'

/**
 * Asks a person to approve or deny what agents want to do. It shows the registry's pending
 * confirmations one at a time in a modal alert dialog: what the tool is, who asks, the summary,
 * the changes or the values sent (secrets masked), the time left and the position in the queue.
 * Focus starts on Deny, Escape denies and a click outside does nothing; approving waits for the
 * tool and shows a failure instead of closing. A destructive request looks like one: a danger
 * edge, and an approve button in danger colors named by the tool's title ("Delete ticket").
 * While mounted it is the registry's presenter, so browser and desktop agents may use tools that
 * need a confirmation. What an AG-UI session in `interrupt` mode shows as interrupts
 * (`presentedByCaller`) is left to the app's own interrupt UI: the dialog never opens for it.
 *
 * Theme it with the `--toolmark-dialog-*` CSS variables (`bg`, `fg`, `muted`, `border`,
 * `surface`, `accent`, `accent-fg`, `danger`, `danger-fg`, `focus`, `radius`, `font`), or pass
 * `unstyled` (or use `<UnstyledConfirmDialog>`, which also leaves the stylesheet out of the bundle).
 *
 * @example
 * ```tsx
 * <ToolProvider toolmark={tm}>
 *   <App />
 *   <ConfirmDialog labels={{ approve: 'Allow', deny: 'Block' }} />
 * </ToolProvider>
 * ```
 */
export const ConfirmDialog = forwardRef<HTMLDialogElement, ConfirmDialogProps>(
  function ConfirmDialog({ unstyled = false, ...props }, ref) {
    return (
      <ConfirmDialogRoot
        {...props}
        ref={ref}
        stylesheet={unstyled ? undefined : confirmDialogCss}
      />
    )
  },
)
