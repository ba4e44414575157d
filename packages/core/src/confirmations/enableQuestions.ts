import type { Toolmark } from '../types'
import { prepareQuestion } from './question'
import { questionSupport } from './questionSupport'

/**
 * Lets this registry's runs ask the person typed questions (`ctx.ask`): it brings the code that
 * reads a question's schema and checks answers, so a registry whose runs never ask does not
 * bundle it. Call it where you create the registry (`<ConfirmDialog>` then draws the questions);
 * `createTestToolmark`, `replaySession` and the AG-UI session in `interrupt` mode call it for
 * theirs. Until it is called, a run's `ctx.ask` with a presenter mounted is rejected with this fix
 * in development and resolves `invalid_question` in production. Calling it again does nothing.
 *
 * @example
 * const tm = createToolmark()
 * enableQuestions(tm) // runs may ctx.ask; <ConfirmDialog> asks the person
 */
export function enableQuestions(tm: Pick<Toolmark, 'confirmations'>): void {
  questionSupport.set(tm.confirmations, prepareQuestion)
}
