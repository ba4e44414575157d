import { CATEGORIES, PRIORITIES, type TicketInput } from '../../shared/ticket.ts'

/** One tool call the assistant will make, with what it means in plain words. */
export interface PlanStep {
  tool: string
  input: Record<string, unknown>
  /** Shown in the transcript while the step runs ("Fill in the form"). */
  intent: string
}

/** What the planner makes of a request: tool calls to run, or a plain answer. */
export type Plan = { kind: 'steps'; steps: PlanStep[] } | { kind: 'reply'; text: string }

/** Requests the scripted planner understands, shown as suggestions in the panel. */
export const EXAMPLES = [
  'new ticket: printer jammed, high priority',
  'close ticket 3',
  'search printer',
]

export const HELP =
  'I can create, find, open, prioritize, close and delete tickets. Try “new ticket: projector ' +
  'shows no signal, urgent, hardware”, “search vpn”, “open ticket 4”, “make ticket 4 urgent”, ' +
  '“close ticket 3” or “delete ticket 7”.'

const NUMBER = String.raw`(?:ticket\s*)?(?:number\s*)?#?(\d{1,9})`
const PATTERNS: [RegExp, (match: RegExpExecArray) => Plan][] = [
  [
    /^(?:(?:new|create|add|log|file)\s+(?:an?\s+)?(?:new\s+)?|open\s+an?\s+new\s+)ticket\b\s*[:\-–—]?\s*(.*)$/i,
    (m) => newTicket(m[1]),
  ],
  [
    new RegExp(String.raw`^(?:close|resolve)\s+${NUMBER}\b`, 'i'),
    (m) => single('tickets.close', Number(m[1]), `Close ticket #${m[1]}`),
  ],
  [
    new RegExp(String.raw`^(?:delete|remove)\s+${NUMBER}\b`, 'i'),
    (m) => single('tickets.delete', Number(m[1]), `Delete ticket #${m[1]}`),
  ],
  [
    new RegExp(
      String.raw`^(?:set|make|change|mark)\s+(?:the\s+)?(?:priority\s+of\s+)?${NUMBER}(?:'s)?\s+(?:priority\s+)?(?:to\s+|as\s+)?(${PRIORITIES.join('|')})(?:\s+priority)?$`,
      'i',
    ),
    (m) => ({
      kind: 'steps',
      steps: [
        {
          tool: 'tickets.prioritize',
          input: { id: Number(m[1]), priority: m[2].toLowerCase() },
          intent: `Set ticket #${m[1]} to ${m[2].toLowerCase()}`,
        },
      ],
    }),
  ],
  [
    new RegExp(String.raw`^(?:open|show|view|go to)\s+${NUMBER}\b`, 'i'),
    (m) => single('tickets.open', Number(m[1]), `Open ticket #${m[1]}`),
  ],
  [
    /^(?:search|find|look\s+(?:for|up))\s+(?:for\s+)?(?:(?:all\s+)?tickets?\s+(?:about|with|for|from|mentioning)\s+)?(.+?)(?:\s+tickets?)?$/i,
    (m) => search(m[1]),
  ],
]

/**
 * Turns a typed request into tool calls, with no model involved: a deterministic stand-in for
 * an LLM that shows the same protocol a real one uses (`page_call` over the in-page bridge).
 *
 * @example
 * plan('new ticket: printer jammed, high priority')
 * // steps: tickets.compose {}, ticket.fill { values: { title: 'Printer jammed', priority: 'high' } },
 * //        ticket.submit {}
 */
export function plan(request: string): Plan {
  const text = request.trim().replace(/[.!]+$/, '')
  if (!text) return { kind: 'reply', text: HELP }
  for (const [pattern, build] of PATTERNS) {
    const match = pattern.exec(text)
    if (match) return build(match)
  }
  if (/^(?:help|\?|what can you do)/i.test(text)) return { kind: 'reply', text: HELP }
  return { kind: 'reply', text: `I did not understand “${text}”. ${HELP}` }
}

function single(tool: string, id: number, intent: string): Plan {
  return { kind: 'steps', steps: [{ tool, input: { id }, intent }] }
}

function search(words: string): Plan {
  const query = words.replace(/^["“']|["”']$/g, '').trim()
  return {
    kind: 'steps',
    steps: [{ tool: 'tickets.search', input: { query }, intent: `Search for “${query}”` }],
  }
}

const PRIORITY = new RegExp(
  String.raw`^(?:(${PRIORITIES.join('|')})(?:\s+priority)?|priority\s*[:=]?\s*(${PRIORITIES.join('|')}))$`,
  'i',
)
const CATEGORY = new RegExp(
  String.raw`^(?:category\s*[:=]?\s*)?(${CATEGORIES.join('|')})(?:\s+(?:issue|problem))?$`,
  'i',
)
const REQUESTER =
  /^(?:(?:from|for|by|requester|reported by)\s*[:=]?\s*)?([^\s@]+@[^\s@]+\.[^\s@]+)$/i

/** "printer jammed, high priority, hardware, from lena.fischer@northwind.example". */
export function parseNewTicket(details: string): Partial<TicketInput> {
  const values: Partial<TicketInput> = {}
  const rest: string[] = []
  for (const part of details.split(/\s*[,;]\s*/)) {
    const segment = part.trim()
    if (!segment) continue
    const priority = PRIORITY.exec(segment)
    const category = CATEGORY.exec(segment)
    const requester = REQUESTER.exec(segment)
    if (priority)
      values.priority = (priority[1] ?? priority[2]).toLowerCase() as TicketInput['priority']
    else if (category) values.category = category[1].toLowerCase() as TicketInput['category']
    else if (requester) values.requester = requester[1]
    else rest.push(segment)
  }
  if (rest.length > 0) values.title = rest[0][0].toUpperCase() + rest[0].slice(1)
  if (rest.length > 1) values.description = rest.slice(1).join('. ')
  return values
}

function newTicket(details: string): Plan {
  const values = parseNewTicket(details)
  if (!values.title) {
    return {
      kind: 'reply',
      text: 'What is the ticket about? For example “new ticket: printer jammed, high priority”.',
    }
  }
  return {
    kind: 'steps',
    steps: [
      { tool: 'tickets.compose', input: {}, intent: 'Open the new-ticket form' },
      { tool: 'ticket.fill', input: { values }, intent: 'Fill in the form' },
      { tool: 'ticket.submit', input: {}, intent: 'Create the ticket' },
    ],
  }
}
