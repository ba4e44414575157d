import type { Toolmark } from '../types'
import { prepareQuestion } from './question'
import { questionSupport } from './questionSupport'

/**
 * Lets this registry's runs ask the person typed questions (`ctx.ask`): it brings the code that
 * reads a question's schema and checks answers, so a registry whose runs never ask does not
 * bundle it. Whatever draws questions calls it — `<ConfirmDialog>` and `useConfirmations()` do,
 * as do `createTestToolmark`, `replaySession` and the AG-UI session — so an app calls it itself
 * only for a presenter of its own (`tm.confirmations.attachPresenter()`). Calling it again does
 * nothing.
 *
 * @example
 * const tm = createToolmark()
 * enableQuestions(tm)
 * const detach = tm.confirmations.attachPresenter() // the app's own question UI
 */
export function enableQuestions(tm: Pick<Toolmark, 'confirmations'>): void {
  questionSupport.set(tm.confirmations, prepareQuestion)
}
