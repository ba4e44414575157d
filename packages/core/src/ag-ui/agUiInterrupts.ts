import { isPlainObject } from '../base/guards'
import { invalid, refuse } from '../base/results'
import type { ConfirmationEntry, ToolResult, Toolmark } from '../types'
import { AG_UI_METADATA_KEY } from './agUiTools'
import type { AgUiInterrupt, AgUiResumeEntry } from './agUiTypes'

/** The `responseSchema` of an approval interrupt. */
export const AG_UI_APPROVAL_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  properties: Object.freeze({
    approved: Object.freeze({ type: 'boolean', description: 'Whether the person approves.' }),
    reason: Object.freeze({ type: 'string', description: 'Why not, when they deny.' }),
  }),
  required: Object.freeze(['approved']),
  additionalProperties: false,
})

/** The `reason` of an approval interrupt. */
export const AG_UI_APPROVAL_REASON = 'tool_approval'

/** The `reason` of a question interrupt: a tool's `ctx.ask`, its `responseSchema` the question's. */
export const AG_UI_QUESTION_REASON = 'tool_question'

/**
 * The interrupt that stands for a confirmation entry of the page's tool call `toolCallId` (of
 * tool `tool`): its approval, or the question its run asks.
 */
export function interruptFor(
  entry: ConfirmationEntry,
  toolCallId: string,
  tool: string,
): AgUiInterrupt {
  const interrupt: AgUiInterrupt = entry.question
    ? {
        id: entry.id,
        reason: AG_UI_QUESTION_REASON,
        message: entry.question.prompt,
        toolCallId,
        responseSchema: entry.question.schema as Record<string, unknown>,
      }
    : {
        id: entry.id,
        reason: AG_UI_APPROVAL_REASON,
        message: entry.summary,
        toolCallId,
        responseSchema: AG_UI_APPROVAL_SCHEMA as Record<string, unknown>,
      }
  interrupt.metadata = { [AG_UI_METADATA_KEY]: { tool } }
  interrupt.expiresAt = new Date(entry.expiresAt).toISOString()
  return Object.freeze(interrupt)
}

/**
 * Gives one AG-UI answer to the confirmation store: a question's payload (which the store checks
 * against the question's schema, `invalid` keeping it open), or an approval's `{ approved,
 * reason }`; `cancelled` declines either.
 */
export function answerInterrupt(
  tm: Toolmark,
  interrupt: AgUiInterrupt,
  entry: AgUiResumeEntry,
): Promise<ToolResult> {
  const { id } = interrupt
  if (interrupt.reason === AG_UI_QUESTION_REASON) {
    return entry.status === 'cancelled'
      ? tm.confirmations.reject(id)
      : tm.confirmations.answer(id, entry.payload)
  }
  if (entry.status === 'cancelled') return tm.confirmations.reject(id, 'cancelled')
  const payload = entry.payload
  if (!isPlainObject(payload) || typeof payload.approved !== 'boolean') {
    return Promise.resolve(invalid([{ path: 'approved', message: 'Expected true or false' }]))
  }
  if (payload.approved) return tm.confirmations.approve(id)
  return tm.confirmations.reject(
    id,
    typeof payload.reason === 'string' ? payload.reason : undefined,
  )
}

/** The answer to an entry that names no open interrupt. */
export const noInterrupt = (id: string): ToolResult =>
  refuse(
    'confirmation_expired',
    `No open interrupt "${id}": it expired, was answered or never existed`,
  )
