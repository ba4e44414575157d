import { cancelled, errorResult, ok, refuse } from '@toolmark/core'
import { useTool } from '@toolmark/react'
import { z } from 'zod'
import type { Ticket } from '../shared/ticket.ts'
import { api } from './api.ts'
import { navigate } from './route.ts'

const findInput = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('Words from the ticket: its title, description or requester, e.g. "printer"'),
})

/** More matches than this and the person is better served by more words than by a long list. */
const MAX_CHOICES = 6

/** How a ticket reads in the question's list: its number first, so two titles never collide. */
const choiceOf = (ticket: Ticket) => `#${ticket.id} ${ticket.title}`

/**
 * `tickets.find`: opens the one active ticket a few words describe. When several match, the run
 * asks the person which one they mean (`ctx.ask`; the dialog draws the list), so the agent never
 * guesses between two printer tickets.
 */
export function useFindTicketTool() {
  useTool({
    name: 'tickets.find',
    title: 'Find a ticket',
    description:
      'Open the one active ticket a few words describe; when several match, the person picks it.',
    input: findInput,
    hints: { untrustedContent: true },
    run: async ({ query }, ctx) => {
      let found: Ticket[]
      try {
        found = (await api.list({ q: query, view: 'active' }, ctx.signal)).tickets
      } catch {
        return errorResult('The helpdesk server could not be reached')
      }
      if (found.length === 0) return refuse('not_found', `No active ticket matches “${query}”`)
      if (found.length > MAX_CHOICES) {
        return refuse(
          'too_many',
          `${found.length} tickets match “${query}”: use more words, or the ticket's number`,
        )
      }
      let chosen = found[0]
      if (found.length > 1) {
        const choices = found.map(choiceOf) as [string, ...string[]]
        const answer = await ctx.ask({
          prompt: `${found.length} tickets match “${query}”. Which one do you mean?`,
          schema: z.enum(choices).meta({ title: 'Ticket' }),
        })
        if (!answer.answered) {
          return answer.reason === 'declined'
            ? cancelled('operator')
            : refuse('not_chosen', `No ticket was chosen (${answer.reason})`)
        }
        chosen = found[choices.indexOf(answer.value)]
      }
      navigate({ name: 'ticket', id: chosen.id })
      return ok(chosen)
    },
  })
}
