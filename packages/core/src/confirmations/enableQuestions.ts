import type { Toolmark } from '../types'
import { questions } from './questions'
import { lendFeature } from './feature'
import { deprecated } from './deprecated'

/**
 * @deprecated Give `questions()` where you create the registry:
 * `createToolmark({ confirm: { questions: questions({ form: questionForm }) } })`. Kept for one
 * release; it still lends the question code to `tm` (calling it again does nothing) and warns once
 * in development.
 */
export function enableQuestions(tm: Pick<Toolmark, 'confirmations'> & { dev?: boolean }): void {
  deprecated(tm, 'enableQuestions(tm)', 'createToolmark({ confirm: { questions: questions() } })')
  lendFeature(tm, questions())
}
