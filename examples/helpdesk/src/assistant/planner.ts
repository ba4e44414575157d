import type { z } from 'zod'
import {
  ACCESS_LEVELS,
  accessSystem,
  accessWho,
  accessWhy,
  DIRECTORY,
  SYSTEMS,
  SYSTEM_IDS,
  type AccessLevel,
  type SystemId,
} from '../../shared/access.ts'
import {
  CATEGORIES,
  PRIORITIES,
  ticketInput,
  type Priority,
  type TicketInput,
} from '../../shared/ticket.ts'
import { NEW_TICKET_TOUR } from '../tours.ts'
import { FIND_ONE, findOne } from './findPlan.ts'

/** One tool call the assistant will make, with what it means in plain words. */
export interface PlanStep {
  tool: string
  input: Record<string, unknown>
  /** Shown in the transcript while the step runs ("Fill in the form"). */
  intent: string
}

/**
 * What the planner makes of a request: rounds of tool calls (the calls of one round go out
 * together, as a model's parallel tool calls do), undoing the assistant's last change, or a
 * plain answer.
 */
export type Plan =
  | {
      kind: 'steps'
      turns: PlanStep[][]
      /** For lists: keep only tickets of this priority in the answer. */
      only?: { priority: Priority }
      /** Said after the last round went well (what is left for the person to do). */
      then?: string
    }
  | { kind: 'undo' }
  | { kind: 'reply'; text: string }

/** A file the person pasted into the conversation, as the assistant was told about it. */
export interface PastedFile {
  /** What a fill names it by: `{ ref: 'paste:1' }`. */
  ref: string
  name: string
  type: string
  size: number
}

/** What the page offers right now: the planner reads it as a model reads its tool list. */
export interface PlanContext {
  tools: readonly { name: string; title?: string }[]
  /** Files the person pasted so far, oldest first. */
  pastes?: readonly PastedFile[]
}

/** Requests the scripted planner understands, shown as suggestions in the panel. */
export const EXAMPLES = [
  'new ticket: printer jammed, high priority',
  'close ticket 3',
  'search printer',
]

export const HELP =
  'I can create, find, list, open, prioritize, close and delete tickets, request access, and ' +
  'undo my last change. Paste a screenshot here and I can attach it to a new ticket. Try “new ' +
  'ticket: projector shows no signal, urgent, hardware”, “attach the screenshot I just pasted”, “show ' +
  'me how to file a ticket”, “show pending tickets”, “open ticket 4”, “make ticket 8 urgent”, “close ticket number 3”, “request ' +
  'write access to payroll for ana@example.com until 2030-01-31 because of the audit” or ' +
  '“undo that”.'

const BULK =
  'I work on one ticket at a time, so I cannot do that for all tickets at once. Name the ' +
  'tickets, for example “close tickets 3 and 4”, or use the list to pick them.'

const TOURS =
  'I can walk you through filing a ticket, step by step on the form: ask “show me how to file a ' +
  'ticket”.'

/**
 * "show me how to …", "how do I …", "walk me through …": the person wants to learn, not to have
 * it done. What follows is the task.
 */
const HOW_TO =
  /^(?:(?:show|teach|tell)\s+(?:me|us)\s+how(?:\s+(?:to|do\s+(?:i|we)|can\s+(?:i|we)|i\s+can))?|how\s+(?:do|can|should|would)\s+(?:i|we)|how\s+to|(?:walk|guide|take)\s+(?:me|us)\s+through(?:\s+how\s+to)?|learn\s+how\s+to)(?:\s+(.+))?$/i

/** The task is a new ticket: "file a ticket", "creating a new ticket", "a new ticket". */
const NEW_TICKET_TASK =
  /^(?:(?:fil(?:e|ing)|creat(?:e|ing)|mak(?:e|ing)|log(?:ging)?|open(?:ing)?|rais(?:e|ing)|submit(?:ting)?|writ(?:e|ing)|start(?:ing)?|add(?:ing)?)\s+)?(?:an?\s+|the\s+)?(?:new\s+)?(?:support\s+)?ticket\b(?!\s*(?:(?:number|no\.?|nr\.?)\s*)?#?\d)/i

const NUMBER = String.raw`(?:the\s+)?(?:ticket\s*)?(?:(?:number|no\.?|nr\.?)\s*)?#?(\d{1,9})`
const NUMBERS = String.raw`(?:the\s+)?(?:tickets?\s*)?(?:(?:numbers?|no\.?|nr\.?)\s*)?(#?\d{1,9}(?:\s*(?:,|and|&)\s*(?:#?\d{1,9}))*)`

const POLITE_START =
  /^(?:(?:hi|hello|hey)\b[\s,!]*)?(?:(?:please|pls|kindly)\s+|(?:could|can|would|will)\s+you\s+(?:please\s+)?|i(?:'d| would)\s+like\s+(?:you\s+)?to\s+|i\s+(?:want|need)\s+(?:you\s+)?to\s+|(?:let's|lets)\s+|go\s+ahead\s+and\s+)+/i
const POLITE_END = /[\s,]*(?:please|pls|thanks|thank\s+you|thx|for\s+me)[\s.!?]*$/i

/** "Could you please close ticket number 12, thanks!" → "close ticket number 12". */
export function normalize(request: string): string {
  let text = request.trim().replace(/\s+/g, ' ')
  for (let i = 0; i < 3; i++) {
    const before = text
    text = text
      .replace(POLITE_START, '')
      .replace(POLITE_END, '')
      .replace(/[.!?]+$/, '')
      .trim()
    if (text === before) break
  }
  return text
}

const SEARCH =
  /^(?:search|find|look\s+(?:for|up))\s+(?:for\s+)?(?:(?:all\s+)?tickets?\s+(?:about|with|for|from|mentioning)\s+)?(.+?)(?:\s+tickets?)?$/i

/**
 * A problem told in plain words ("Printer on floor 2 is broken", "the VPN keeps dropping"):
 * what people type when they want a ticket, without saying "new ticket".
 */
const PROBLEM =
  /\b(?:broken|not\s+working|(?:does|do|is|are|wo|ca)n['’]?t\s+\w+|(?:can|could)\s*not\s+\w+|down|offline|jam(?:s|med|ming)?|stuck|crash(?:es|ed|ing)?|fail(?:s|ed|ing)?|errors?|leak(?:s|ed|ing)?|dead|drops?|dropping|no\s+signal|flicker(?:s|ing)?|overheat(?:s|ing)?)\b/i

/**
 * The file a request points at: "the screenshot I just pasted", "the image", "paste:2". Only
 * after attach/add (or "with …" naming a paste), and only as a whole phrase, so "a problem with
 * the file server" is no attachment.
 */
const THE_PASTE = String.raw`(?:(paste:\d{1,6})|(?:the\s+|my\s+|that\s+|this\s+)?(?:(?:last|latest)\s+)?(?:pasted\s+)?(?:screenshot|screen\s*shot|image|picture|photo|file|paste)(?:\s+(?:that\s+)?i(?:'ve|\s+have)?\s+(?:just\s+)?pasted)?)`
const ATTACH = new RegExp(
  String.raw`(?:^|[\s,;]+)(?:and\s+)?(?:(?:attach(?:ing)?|add(?:ing)?)\s+${THE_PASTE}|with\s+(?:(paste:\d{1,6})|(?:the\s+|my\s+)?(?:screenshot|image|picture|photo|file)\s+(?:that\s+)?i(?:'ve|\s+have)?\s+(?:just\s+)?pasted))(?:\s+(?:to|on)\s+(?:the\s+|this\s+|my\s+)?(?:new\s+)?(?:ticket|form|it))?(?=\s*(?:[,.;]|$))`,
  'i',
)

/** The paste a request attaches and the request without those words, or undefined. */
function findAttach(
  text: string,
  context: PlanContext,
): { ref: string | undefined; rest: string } | undefined {
  const match = ATTACH.exec(text)
  if (!match) return undefined
  const named = match[1] ?? match[2]
  const rest = (text.slice(0, match.index) + text.slice(match.index + match[0].length)).trim()
  return { ref: named?.toLowerCase() ?? context.pastes?.at(-1)?.ref, rest }
}

const NOTHING_PASTED =
  'Nothing has been pasted yet. Paste the screenshot into the message box (Ctrl+V or ⌘V), then ' +
  'ask me again.'

const ids = (list: string) => [...list.matchAll(/\d{1,9}/g)].map((m) => Number(m[0]))

const PATTERNS: [RegExp, (match: RegExpExecArray, context: PlanContext) => Plan][] = [
  [/^(?:undo|revert|take\s+back|roll\s*back)\b/i, () => ({ kind: 'undo' })],
  [HOW_TO, (m, context) => showHow(m[1], context)],
  [
    /^(?:close|resolve|delete|remove)\s+(?:all|every|each|everything)\b|^(?:close|resolve|delete|remove)\s+(?:the\s+)?(?:open|pending|closed|old|urgent)\s+tickets\b/i,
    () => ({ kind: 'reply', text: BULK }),
  ],
  [
    new RegExp(
      String.raw`^(?:(?:new|create|add|log|file|raise|submit|make|start|(?:i|we)\s+need)\s+(?:an?\s+)?(?:new\s+)?|open\s+(?:an?\s+new|an?|new)\s+)(?:(${CATEGORIES.join('|')})\s+)?ticket\b(?!\s*(?:(?:number|no\.?|nr\.?)\s*)?#?\d)\s*(.*)$|^ticket\s+(for\b.*)$`,
      'i',
    ),
    (m, context) => newTicket(m[2] ?? m[3] ?? '', context, m[1]),
  ],
  [
    /^(?:request|ask\s+for|(?:i|we|(?:s)?he|they)\s+needs?|get|give|grant)\b.*\baccess\b|^access\b/i,
    (m, context) => access(m.input, context),
  ],
  [
    new RegExp(String.raw`^(?:close|resolve)\s+${NUMBERS}$`, 'i'),
    (m) => each('tickets.close', ids(m[1]), (id) => `Close ticket #${id}`),
  ],
  [
    new RegExp(String.raw`^(?:delete|remove)\s+${NUMBERS}$`, 'i'),
    (m) => each('tickets.delete', ids(m[1]), (id) => `Delete ticket #${id}`),
  ],
  [
    new RegExp(
      String.raw`^(?:set|make|change|mark|bump|raise|lower)\s+(?:the\s+)?(?:priority\s+of\s+)?${NUMBER}(?:'s)?\s+(?:priority\s+)?(?:to\s+|as\s+)?(${PRIORITIES.join('|')})(?:\s+priority)?$`,
      'i',
    ),
    (m) => prioritize(Number(m[1]), m[2]),
  ],
  [
    new RegExp(String.raw`^${NUMBER}\s+(?:is|should\s+be)\s+(${PRIORITIES.join('|')})$`, 'i'),
    (m) => prioritize(Number(m[1]), m[2]),
  ],
  [
    new RegExp(String.raw`^(?:open|show|view|go\s+to|display|pull\s+up)\s+${NUMBER}$`, 'i'),
    (m) => each('tickets.open', [Number(m[1])], (id) => `Open ticket #${id}`),
  ],
  [FIND_ONE, findOne],
]

/**
 * Turns a typed request into tool calls, with no model involved: a deterministic stand-in for
 * an LLM that uses the same protocol a real one does (`page_call` over the in-page bridge) and,
 * like a model, plans from the tools the page shows. A form on screen is filled and submitted in
 * one round; one that is not is opened first.
 *
 * @example
 * plan('new ticket: printer jammed, high priority', { tools: [{ name: 'ticket.fill' }, …] })
 * // turns: [[ticket.fill { values: { title: 'Printer jammed', priority: 'high' } }, ticket.submit {}]]
 */
export function plan(request: string, context: PlanContext = { tools: [] }): Plan {
  const text = normalize(request)
  if (!text) return { kind: 'reply', text: HELP }
  const sequence = THEN.exec(text)
  const joined = sequence
    ? inSequence(
        text.slice(0, sequence.index),
        text.slice(sequence.index + sequence[0].length),
        context,
      )
    : undefined
  return joined ?? planJoined(text, context)
}

/** "…, then …", "… and then …", "… then …": two requests, one after the other. */
const THEN = /\s*(?:,\s*|\s+and\s+)?\bthen\s+/i

/** Tools whose input is free text, where "then" may be part of what the person wrote. */
const FREE_TEXT = new Set([
  'ticket.fill',
  'tickets.compose',
  'tickets.search',
  'access.start',
  'access.fill',
])

/**
 * Two requests in one message: the first one's rounds, then the second one's, so the calls of
 * "close tickets 3, 5 and 7, then file a ticket about the printer" reach the person as one
 * review of the three closes, then the new ticket. Undefined unless both parts are plans of
 * calls and the first takes no free text ("new ticket: laptop freezes, then reboots" is one
 * ticket).
 */
function inSequence(first: string, second: string, context: PlanContext): Plan | undefined {
  const before = planJoined(normalize(first), context)
  if (before.kind !== 'steps' || before.turns.flat().some((step) => FREE_TEXT.has(step.tool))) {
    return undefined
  }
  const after = plan(second, context)
  if (after.kind !== 'steps') return undefined
  return {
    kind: 'steps',
    turns: [...before.turns, ...after.turns],
    ...(after.then ? { then: after.then } : {}),
  }
}

/** ", ", " and ", ", and " or " & " between two requests. */
const AND = /\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+/gi

/**
 * One request, or several joined by "and" or a comma when the whole is not one: "make ticket 8
 * urgent and close ticket 9" is the two calls in one round. The whole is read first, so "close
 * tickets 3 and 4" and "new ticket: printer jammed and smoking" stay one request.
 */
function planJoined(text: string, context: PlanContext): Plan {
  const whole = planOne(text, context)
  if (whole.kind !== 'reply') return whole
  const steps = ticketCalls(text, context)
  if (!steps) return whole
  if (steps.length > 5) return { kind: 'reply', text: BULK }
  // Calls on different tickets go out together; a second call on the same ticket waits for the
  // first ("close ticket 3 and delete ticket 3").
  const turns: PlanStep[][] = [[]]
  for (const step of steps) {
    if (turns.at(-1)!.some((other) => other.input.id === step.input.id)) turns.push([])
    turns.at(-1)!.push(step)
  }
  return { kind: 'steps', turns }
}

/**
 * The calls of requests joined by "and" or a comma, each a call on one ticket by its number
 * (close, delete, prioritize, open), in the order asked; undefined unless every part is one.
 */
function ticketCalls(text: string, context: PlanContext): PlanStep[] | undefined {
  for (const match of text.matchAll(AND)) {
    const first = onTickets(planOne(normalize(text.slice(0, match.index)), context))
    if (!first) continue
    const rest = text.slice(match.index + match[0].length)
    const second = onTickets(planOne(normalize(rest), context)) ?? ticketCalls(rest, context)
    if (second) return [...first, ...second]
  }
  return undefined
}

/** The calls of a plan of one round in which every call names a ticket by its number. */
function onTickets(planned: Plan): PlanStep[] | undefined {
  if (planned.kind !== 'steps' || planned.turns.length !== 1 || planned.only || planned.then) {
    return undefined
  }
  const [turn] = planned.turns
  return turn.every((step) => typeof step.input.id === 'number') ? turn : undefined
}

function planOne(text: string, context: PlanContext): Plan {
  if (!text) return { kind: 'reply', text: HELP }
  const attach = findAttach(text, context)
  if (attach && attach.rest === '') return attachPaste(attach.ref, context)
  if (
    /^(?:submit|send|create|save|file)\s+(?:it|that|this|the\s+(?:new\s+)?(?:ticket|form))$/i.test(
      text,
    )
  ) {
    return submitForm(context)
  }
  for (const [pattern, build] of PATTERNS) {
    const match = pattern.exec(text)
    if (match) return build(match, context)
  }
  const listed = listRequest(text)
  if (listed) return listed
  const searched = SEARCH.exec(text)
  if (searched) return search(searched[1])
  if (/^(?:help|\?|what\s+can\s+you\s+do|how\s+does\s+this\s+work)/i.test(text)) {
    return { kind: 'reply', text: HELP }
  }
  // Not a command about an existing ticket: a problem described is a new ticket about it.
  if (PROBLEM.test(text) && !/^(?:close|resolve|delete|remove|open|show)\b/i.test(text)) {
    return newTicket(text, context)
  }
  if (/^(?:close|resolve|delete|remove|open|show)\b/i.test(text)) {
    return {
      kind: 'reply',
      text: `Which ticket? Give me its number, for example “${text.split(' ')[0].toLowerCase()} ticket 3”.`,
    }
  }
  return { kind: 'reply', text: `I did not understand “${text}”. ${HELP}` }
}

function each(tool: string, numbers: number[], intent: (id: number) => string): Plan {
  const unique = [...new Set(numbers)]
  if (unique.length > 5) return { kind: 'reply', text: BULK }
  return {
    kind: 'steps',
    turns: [unique.map((id) => ({ tool, input: { id }, intent: intent(id) }))],
  }
}

function prioritize(id: number, priority: string): Plan {
  const value = priority.toLowerCase()
  return {
    kind: 'steps',
    turns: [
      [
        {
          tool: 'tickets.prioritize',
          input: { id, priority: value },
          intent: `Set ticket #${id} to ${value}`,
        },
      ],
    ],
  }
}

const VIEW_WORDS = new Set(['open', 'pending', 'closed', 'active'])
const PRIORITY_WORD = /^(urgent|high|low|normal)(?:-priority)?$/
const LIST_WORDS = new Set(
  (
    "show list display get see view give which what whats what's any are is there me all the " +
    'my our of that with do we have in currently right now ticket tickets ones one requests ' +
    'issues priority still waiting'
  ).split(' '),
)

/**
 * "show pending tickets", "which tickets are urgent?", "what's open", "list high priority
 * ones": a list of one view, or of one priority among the active tickets.
 */
function listRequest(text: string): Plan | undefined {
  const words = text
    .toLowerCase()
    .replace(/[?!]/g, '')
    .replace(/high\s+priority/g, 'high-priority')
    .split(/\s+/)
    .filter(Boolean)
  let view: string | undefined
  let priority: Priority | undefined
  for (const word of words) {
    const p = PRIORITY_WORD.exec(word)
    if (VIEW_WORDS.has(word)) view ??= word
    else if (p) priority ??= p[1] as Priority
    else if (!LIST_WORDS.has(word)) return undefined
  }
  // Without a view or a priority, only "tickets" makes it a list ("show me all tickets").
  if (!view && !priority && !words.includes('tickets')) return undefined
  const shown = view ?? 'active'
  const label = priority ? `${priority} priority` : shown
  return {
    kind: 'steps',
    turns: [
      [
        {
          tool: 'tickets.search',
          input: { query: '', view: shown },
          intent: `List ${label} tickets`,
        },
      ],
    ],
    ...(priority ? { only: { priority } } : {}),
  }
}

function search(words: string): Plan {
  const query = words.replace(/^["“']|["”']$/g, '').trim()
  return {
    kind: 'steps',
    turns: [[{ tool: 'tickets.search', input: { query }, intent: `Search for “${query}”` }]],
  }
}

const has = (context: PlanContext, name: string, title?: string) =>
  context.tools.some((tool) => tool.name === name && (title === undefined || tool.title === title))

const EMAIL = /[^\s@,;:<>()"]+@[^\s@,;:<>()"]+\.[A-Za-z]{2,}/
const PRIORITY_WORDS: [RegExp, Priority][] = [
  [/\b(?:urgent(?:ly)?|asap|critical|emergency)\b(?:\s+priority)?/i, 'urgent'],
  [/\bhigh(?:\s+priority)?\b|\bpriority\s*[:=]?\s*high\b|\bimportant\b/i, 'high'],
  [/\blow(?:\s+priority)?\b|\bpriority\s*[:=]?\s*low\b|\bnot\s+urgent\b/i, 'low'],
  [/\bnormal(?:\s+priority)?\b|\bpriority\s*[:=]?\s*normal\b/i, 'normal'],
]
const CATEGORY_PHRASE = new RegExp(
  String.raw`\b(?:category\s*[:=]?\s*|(?:it'?s\s+)?(?:an?\s+)?)(${CATEGORIES.join('|')})(?:\s+(?:issue|problem|category|ticket))?\b`,
  'i',
)

/**
 * Reads a new ticket's fields from what a person typed: the requester's email wherever it
 * stands ("for ana@example.com: …", "…, from ana@example.com"), priority and category words
 * ("urgent", "high priority", "category network", "a hardware problem"), the first remaining
 * phrase as the title and the rest as the description.
 *
 * @example
 * parseNewTicket('for ana@example.com: VPN keeps dropping, urgent')
 * // { requester: 'ana@example.com', title: 'VPN keeps dropping', priority: 'urgent' }
 */
export function parseNewTicket(details: string): Partial<TicketInput> {
  const values: Partial<TicketInput> = {}
  const rest: string[] = []
  let text = details
  const email = EMAIL.exec(text)
  if (email) {
    values.requester = email[0]
    text = text.replace(
      new RegExp(
        String.raw`\b(?:(?:requested|reported|raised)\s+by|on\s+behalf\s+of|requester|from|for|by)?\s*[:=]?\s*` +
          email[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        'i',
      ),
      ' ',
    )
  }
  for (const part of text.split(/\s*(?:[,;]|\s[:–—-]\s|\.\s)\s*/)) {
    let segment = part.trim().replace(/^[:\-–—]\s*/, '')
    if (!segment) continue
    // A segment that is only a priority or a category says nothing else.
    const priority = PRIORITY_WORDS.find(([pattern]) => pattern.test(segment))
    const category = CATEGORY_PHRASE.exec(segment)
    const bare = (pattern: RegExp) =>
      segment
        .replace(pattern, '')
        .replace(/^(?:it(?:'s| is)|and|with|as|priority)\b\s*/i, '')
        .trim() === ''
    if (priority && !values.priority && bare(priority[0])) {
      values.priority = priority[1]
      continue
    }
    if (category && !values.category && bare(CATEGORY_PHRASE)) {
      values.category = category[1].toLowerCase() as TicketInput['category']
      continue
    }
    if (priority && !values.priority && /\b(?:urgent|asap|priority)\b/i.test(segment)) {
      values.priority = priority[1]
      segment = segment
        .replace(priority[0], '')
        .replace(/\s+(?:is|are|and|with|as)?\s*$/i, '')
        .trim()
      if (!segment) continue
    }
    rest.push(segment)
  }
  if (rest.length > 0) values.title = rest[0][0].toUpperCase() + rest[0].slice(1)
  if (rest.length > 1) values.description = rest.slice(1).join('. ')
  return values
}

/**
 * What is wrong with values the planner read, checked with the form's own schema before any
 * call: a request it cannot fill correctly gets an answer, not a dialog for a doomed submit.
 */
function problems(schema: z.ZodObject, values: Record<string, unknown>): string[] {
  const checked = schema.partial().safeParse(values)
  return checked.success ? [] : checked.error.issues.map((issue) => issue.message)
}

/** Whether the new-ticket form is on screen (its submit creates, not saves). */
const newTicketOnScreen = (context: PlanContext) =>
  has(context, 'ticket.fill') && has(context, 'ticket.submit', 'Create ticket')

/**
 * "attach the screenshot I just pasted": the new-ticket form's attachment gets the paste (the
 * form is opened first when it is not on screen). Creating the ticket stays the person's call:
 * they finish it, or ask for it ("create it").
 */
function attachPaste(ref: string | undefined, context: PlanContext): Plan {
  if (!ref) return { kind: 'reply', text: NOTHING_PASTED }
  const paste = context.pastes?.find((p) => p.ref === ref)
  const fill: PlanStep = {
    tool: 'ticket.fill',
    input: { values: { attachment: { ref } } },
    intent: `Attach ${paste ? `“${paste.name}”` : ref}`,
  }
  const open: PlanStep = { tool: 'tickets.compose', input: {}, intent: 'Open the new-ticket form' }
  return {
    kind: 'steps',
    turns: newTicketOnScreen(context) ? [[fill]] : [[open], [fill]],
    then:
      'Attached to the new ticket. Finish the form and press Create ticket, or tell me what it ' +
      'is about (“new ticket: …”) or say “create it”.',
  }
}

/** "create it": submits the new-ticket form on screen (the person approves in the dialog). */
function submitForm(context: PlanContext): Plan {
  if (!newTicketOnScreen(context)) {
    return { kind: 'reply', text: 'There is no new ticket on screen to create.' }
  }
  return {
    kind: 'steps',
    turns: [[{ tool: 'ticket.submit', input: {}, intent: 'Create the ticket' }]],
  }
}

function newTicket(details: string, context: PlanContext, category?: string): Plan {
  // "…, attach the screenshot I just pasted": the paste goes into the same fill.
  const attach = findAttach(details, context)
  if (attach && !attach.ref) return { kind: 'reply', text: NOTHING_PASTED }
  // "a ticket about the printer": the words after "about" are the subject, kept as the person
  // wrote them (title "The printer"), as a problem told in plain words is.
  const values: Partial<TicketInput> & { attachment?: { ref: string } } = parseNewTicket(
    (attach ? attach.rest : details).replace(/^(?:about|regarding|concerning|re:?)\s+/i, ''),
  )
  if (category && !values.category) {
    values.category = category.toLowerCase() as TicketInput['category']
  }
  const wrong = problems(ticketInput, values)
  if (wrong.length > 0) return { kind: 'reply', text: `${wrong.join('. ')}.` }
  if (attach?.ref) values.attachment = { ref: attach.ref }
  const onScreen = newTicketOnScreen(context)
  const open: PlanStep = { tool: 'tickets.compose', input: {}, intent: 'Open the new-ticket form' }
  if (!values.title) {
    if (onScreen) {
      return {
        kind: 'reply',
        text: 'What is the ticket about? For example “new ticket: printer jammed, high priority”.',
      }
    }
    return {
      kind: 'steps',
      turns: [[open]],
      then: 'The new-ticket form is open. What is the ticket about?',
    }
  }
  const fill: PlanStep = { tool: 'ticket.fill', input: { values }, intent: 'Fill in the form' }
  const submit: PlanStep = { tool: 'ticket.submit', input: {}, intent: 'Create the ticket' }
  // Values checked above cannot fail the fill, so its submit goes out in the same round. A file
  // can (the app may not have it, or it breaks the field's rules): then the submit waits for
  // the fill's outcome, and nobody is asked to approve a ticket without its attachment.
  const rest = values.attachment ? [[fill], [submit]] : [[fill, submit]]
  return { kind: 'steps', turns: onScreen ? rest : [[open], ...rest] }
}

/**
 * "show me how to file a ticket": a guided tour of the new-ticket form (`tour.start`, mode
 * `guide`), opened first when it is not on screen. The tour waits for the person at each step;
 * the assistant's turn ends once it is on screen.
 */
function showHow(task: string | undefined, context: PlanContext): Plan {
  if (!task || !NEW_TICKET_TASK.test(task)) return { kind: 'reply', text: TOURS }
  const open: PlanStep = { tool: 'tickets.compose', input: {}, intent: 'Open the new-ticket form' }
  const tour: PlanStep = {
    tool: 'tour.start',
    input: { mode: 'guide', steps: [...NEW_TICKET_TOUR] },
    intent: 'Show you how to file a ticket',
  }
  return {
    kind: 'steps',
    // The tour's steps name the form's tools: they must be on the page when it starts.
    turns: newTicketOnScreen(context) ? [[tour]] : [[open], [tour]],
    then:
      'Follow the highlighted steps on the form: each moves on once you have done it. Skip ' +
      'leaves a step for later, Stop ends the tour.',
  }
}

const SYSTEM_WORDS: [RegExp, SystemId][] = [
  [/\bvpn\b|\bremote\s+access\b/i, 'vpn'],
  [/\bpayroll\b/i, 'payroll'],
  [/\bfinance\b(?:\s+(?:shared\s+)?drive)?|\bfinance-drive\b/i, 'finance-drive'],
  [/\bcrm\b|\bsalesforce\b/i, 'crm'],
  [/\bgit\s*hub\b/i, 'github'],
  [/\bwarehouse\b/i, 'warehouse'],
]

/** Reads an access request: who (an email), which system and level, why and until when. */
export function parseAccessRequest(text: string) {
  const who: Record<string, string> = {}
  const system: Record<string, string> = {}
  const why: Record<string, string> = {}
  const email = EMAIL.exec(text)
  if (email) {
    who.email = email[0]
    const known = DIRECTORY.find((person) => person.email === email[0].toLowerCase())
    if (known) who.name = known.name
  }
  const named = SYSTEM_WORDS.find(([pattern]) => pattern.test(text))
  if (named) system.system = named[1]
  const level = new RegExp(
    String.raw`\b(${ACCESS_LEVELS.join('|')}|read[\s-]only|read\s+and\s+write|administrator)\b`,
    'i',
  ).exec(text)
  if (level) {
    const word = level[1].toLowerCase()
    system.level = (
      word.startsWith('admin')
        ? 'admin'
        : word === 'read and write'
          ? 'write'
          : word.split(/[\s-]/)[0]
    ) as AccessLevel
  }
  const until = /\b(?:until|till|through|to)\s+(\d{4}-\d{2}-\d{2})\b/i.exec(text)
  if (until) why.until = until[1]
  const reason =
    /\b(?:because|since|reason\s*:|as\s+(?:she|he|they)|so\s+that)\s+(.+?)(?:\s+until\s+\d{4}-\d{2}-\d{2})?$/i.exec(
      text,
    )
  if (reason) {
    why.reason = reason[1].replace(/^(?:of\s+)?/, '').trim()
    why.reason = why.reason[0].toUpperCase() + why.reason.slice(1)
  }
  const values: Record<string, Record<string, string>> = {}
  if (Object.keys(who).length) values.who = who
  if (Object.keys(system).length) values.system = system
  if (Object.keys(why).length) values.why = why
  return values
}

function access(text: string, context: PlanContext): Plan {
  const values = parseAccessRequest(text)
  const missing = [
    !values.who?.email && 'who needs it (an email)',
    !values.system?.system && `which system (${SYSTEM_IDS.map((id) => SYSTEMS[id]).join(', ')})`,
    !values.why?.reason && 'why (“because …”)',
    !values.why?.until && 'until when (“until 2030-01-31”)',
  ].filter((item): item is string => typeof item === 'string')
  const wrong = [
    ...problems(accessWho, values.who ?? {}),
    ...problems(accessSystem, values.system ?? {}),
    ...problems(accessWhy, values.why ?? {}),
  ]
  if (wrong.length > 0) return { kind: 'reply', text: `${wrong.join('. ')}.` }
  const fill: PlanStep = { tool: 'access.fill', input: { values }, intent: 'Fill in every step' }
  const submit: PlanStep = { tool: 'access.submit', input: {}, intent: 'File the request' }
  // The wizard's tools appear once it is on screen: opening it is a round of its own.
  const turns: PlanStep[][] = has(context, 'access.fill')
    ? []
    : [[{ tool: 'access.start', input: {}, intent: 'Open the access request' }]]
  const filled = Object.keys(values).length > 0
  if (missing.length === 0) turns.push([fill, submit])
  else if (filled) turns.push([fill])
  const ask = `Tell me ${missing.join(', ')}, or fill it in yourself.`
  if (turns.length === 0) return { kind: 'reply', text: `The access request is open. ${ask}` }
  return {
    kind: 'steps',
    turns,
    ...(missing.length > 0 ? { then: `The access request is open. ${ask}` } : {}),
  }
}
