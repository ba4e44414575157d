import type { Toolmark } from '@toolmark/core'

/** Props of `<ToolmarkDevtools>`. */
export interface ToolmarkDevtoolsProps {
  /** Whether the panel starts open. Default `false` (only the toggle button shows). */
  initialIsOpen?: boolean
  /** The corner the toggle and the panel sit in. Default `'bottom-right'`. */
  position?: 'bottom-right' | 'bottom-left' | 'top-right' | 'top-left'
  /** `'system'` follows `prefers-color-scheme` (default); `'light'` or `'dark'` force a theme. */
  colorScheme?: 'system' | 'light' | 'dark'
  /** How many calls the Activity tab keeps. Default `50`. */
  activityLimit?: number
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}
