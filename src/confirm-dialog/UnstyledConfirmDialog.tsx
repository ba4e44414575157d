'use client'
import { forwardRef } from 'react'
import { ConfirmDialogRoot, type ConfirmDialogProps } from './ConfirmDialogRoot'

/** Props of {@link UnstyledConfirmDialog}: those of `<ConfirmDialog>`, which it always is unstyled. */
export type UnstyledConfirmDialogProps = Omit<ConfirmDialogProps, 'unstyled'>

/**
 * `<ConfirmDialog unstyled>` whose bundle holds no stylesheet: the same dialog, markup, focus and
 * keyboard rules, for a design system that styles its `data-part` attributes. `<ConfirmDialog
 * unstyled>` decides at render time, so the built-in stylesheet stays in its bundle; this one
 * never references it.
 *
 * @example
 * ```tsx
 * <ToolProvider toolmark={tm}>
 *   <App />
 *   <UnstyledConfirmDialog className="my-dialog" />
 * </ToolProvider>
 * ```
 */
export const UnstyledConfirmDialog = forwardRef<HTMLDialogElement, UnstyledConfirmDialogProps>(
  function UnstyledConfirmDialog(props, ref) {
    return <ConfirmDialogRoot {...props} ref={ref} />
  },
)
