import type { TourStep } from '@toolmark/core/tour'

/**
 * "Show me how to file a ticket": the new-ticket form's fields and its submit, anchored on the
 * form's own tools (`ticket.fill`, `ticket.submit`), never on CSS selectors. The assistant starts
 * it through `tour.start` and the form's **Show me how** button through `useTour`; both as a
 * `guide`, so each step waits until the person has done it.
 */
export const NEW_TICKET_TOUR: readonly TourStep[] = [
  {
    tool: 'ticket.fill',
    field: 'title',
    title: 'Say what broke',
    text: 'Type a short title, at least 3 characters: what is wrong, and where.',
  },
  {
    tool: 'ticket.fill',
    field: 'priority',
    title: 'How urgent is it?',
    text: 'Normal suits most tickets. Urgent is for something that stops people working.',
  },
  {
    tool: 'ticket.fill',
    field: 'description',
    title: 'Add the details',
    text: 'What happened, what you tried, exact error messages. Skip this if the title says it all.',
  },
  {
    tool: 'ticket.submit',
    title: 'Create the ticket',
    text: 'Press Create ticket. It appears in the queue, and you can edit it later.',
  },
]
