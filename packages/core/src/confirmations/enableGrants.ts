import type { Toolmark } from '../types'
import { grants } from './grants'
import { lendFeature } from './feature'
import { deprecated } from './deprecated'

/**
 * @deprecated Give `grants()` where you create the registry:
 * `createToolmark({ confirm: { grants: grants() } })`. Kept for one release; it still lends the
 * grant code to `tm` (calling it again does nothing) and warns once in development.
 */
export function enableGrants(tm: Pick<Toolmark, 'confirmations'> & { dev?: boolean }): void {
  deprecated(tm, 'enableGrants(tm)', 'createToolmark({ confirm: { grants: grants() } })')
  lendFeature(tm, grants())
}
