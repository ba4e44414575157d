import { deepFreeze, invalid, toolFailed, type Checked } from '../base/results'
import type { QuestionAnswer } from '../types'
import type { PreparedQuestion } from './question'
import { NO_PRESENTER, type QuestionFiling } from './questionSupport'
import { TURNED_AWAY } from './confirmation'

/**
 * Asks a prepared question and waits for its end: the answer as the schema parsed it, or why
 * there is none. A validator that throws is the tool's own bug: `threw`, and a generic error for
 * the one answering. Lent with `questions()`, so a registry that never asks bundles none of it.
 */
export async function runQuestion(
  prepared: PreparedQuestion,
  filing: QuestionFiling,
): Promise<QuestionAnswer> {
  const check = async (value: unknown): Promise<Checked> => {
    try {
      const v = await prepared.validate(value)
      return 'issues' in v ? { result: deepFreeze(invalid(v.issues)) } : { value: v.value }
    } catch (cause) {
      filing.threw(cause)
      return { result: toolFailed() }
    }
  }
  const ending = await filing.file(check)
  switch (ending.status) {
    case 'approved':
      return { answered: true, value: ending.value }
    case 'rejected':
      return { answered: false, reason: ending.stopped ? 'cancelled' : 'declined' }
    case 'withdrawn':
      // Turned away unfiled (its caller holds its share of a full list), or access went away.
      return {
        answered: false,
        reason:
          ending.reason === NO_PRESENTER || ending.reason === TURNED_AWAY
            ? ending.reason
            : 'cancelled',
      }
    default:
      return { answered: false, reason: 'expired' }
  }
}
