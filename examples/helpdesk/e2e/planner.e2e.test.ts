import {
  HELP,
  normalize,
  parseAccessRequest,
  parseNewTicket,
  plan,
} from '../src/assistant/planner.ts'
import type { Plan, PlanContext } from '../src/assistant/planner.ts'
import type { TourStep } from '@toolmark/core/tour'

// The scripted planner is plain code: these run in node, without the app.

/** The tools the app shows on the new-ticket page, as the in-app manifest lists them. */
const NEW_TICKET_PAGE: PlanContext = {
  tools: [
    { name: 'access.start' },
    { name: 'ticket.fill' },
    { name: 'ticket.state' },
    { name: 'ticket.submit', title: 'Create ticket' },
    { name: 'tickets.close' },
    { name: 'tickets.compose' },
    { name: 'tickets.search' },
  ],
}
/** A ticket's detail page: no form on screen. */
const DETAIL_PAGE: PlanContext = {
  tools: [{ name: 'access.start' }, { name: 'tickets.compose' }, { name: 'tickets.close' }],
}
/** The edit form of a ticket: `ticket.fill` is there, but it saves, it does not create. */
const EDIT_PAGE: PlanContext = {
  tools: [
    { name: 'ticket.fill' },
    { name: 'ticket.submit', title: 'Save ticket #4' },
    { name: 'tickets.compose' },
  ],
}
/** The access-request wizard on screen. */
const ACCESS_PAGE: PlanContext = {
  tools: [
    { name: 'access.fill' },
    { name: 'access.submit', title: 'Request access' },
    { name: 'access.options' },
    { name: 'tickets.compose' },
  ],
}

/** JSON with keys in order, so a row does not depend on the order fields were read in. */
const sorted = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  )

/** A plan as rounds of `tool input`, so a table row reads at a glance. */
function rounds(planned: Plan): string[][] | Plan {
  if (planned.kind !== 'steps') return planned
  return planned.turns.map((turn) => turn.map((step) => `${step.tool} ${sorted(step.input)}`))
}

describe('the scripted planner', () => {
  it.each([
    ['close ticket 3', [['tickets.close {"id":3}']]],
    ['Close #12.', [['tickets.close {"id":12}']]],
    ['close ticket number 12', [['tickets.close {"id":12}']]],
    ['please close ticket no. 12', [['tickets.close {"id":12}']]],
    ['Could you please close ticket number 12? Thanks!', [['tickets.close {"id":12}']]],
    ["I'd like you to resolve the ticket #5, please", [['tickets.close {"id":5}']]],
    ['close tickets 3 and 4', [['tickets.close {"id":3}', 'tickets.close {"id":4}']]],
    ['delete ticket 7', [['tickets.delete {"id":7}']]],
    ['hi, can you open ticket 4', [['tickets.open {"id":4}']]],
    ['show ticket number 9', [['tickets.open {"id":9}']]],
    ['open the printer ticket', [['tickets.find {"query":"printer"}']]],
    ['please pull up the ticket about the VPN', [['tickets.find {"query":"VPN"}']]],
    ['find the zoom ticket', [['tickets.find {"query":"zoom"}']]],
    ['make ticket 4 urgent', [['tickets.prioritize {"id":4,"priority":"urgent"}']]],
    ['set the priority of ticket 2 to low', [['tickets.prioritize {"id":2,"priority":"low"}']]],
    ['ticket 6 should be high', [['tickets.prioritize {"id":6,"priority":"high"}']]],
    ['search printer', [['tickets.search {"query":"printer"}']]],
    ['find tickets about the VPN', [['tickets.search {"query":"the VPN"}']]],
    ['look for "paper jam"', [['tickets.search {"query":"paper jam"}']]],
    ['show pending tickets', [['tickets.search {"query":"","view":"pending"}']]],
    ["what's pending?", [['tickets.search {"query":"","view":"pending"}']]],
    ['list closed tickets please', [['tickets.search {"query":"","view":"closed"}']]],
    ['show me all open tickets', [['tickets.search {"query":"","view":"open"}']]],
    ['urgent tickets', [['tickets.search {"query":"","view":"active"}']]],
    ['which tickets are urgent?', [['tickets.search {"query":"","view":"active"}']]],
    ['list high priority tickets', [['tickets.search {"query":"","view":"active"}']]],
    [
      'Printer on floor 2 is broken',
      [['ticket.fill {"values":{"title":"Printer on floor 2 is broken"}}', 'ticket.submit {}']],
    ],
    [
      "the projector in room 4 doesn't turn on",
      [
        [
          'ticket.fill {"values":{"title":"The projector in room 4 doesn\'t turn on"}}',
          'ticket.submit {}',
        ],
      ],
    ],
  ])('plans “%s”', (request, expected) => {
    expect(rounds(plan(request, NEW_TICKET_PAGE))).toEqual(expected)
  })

  it.each([
    ['urgent tickets', 'urgent'],
    ['which tickets are urgent?', 'urgent'],
    ['list high priority tickets', 'high'],
    ['show pending tickets', undefined],
  ])('keeps only the asked priority for “%s”', (request, priority) => {
    const planned = plan(request)
    expect(planned.kind === 'steps' && planned.only?.priority).toBe(priority ?? undefined)
  })

  it('fills and submits in one round when the new-ticket form is on screen', () => {
    expect(rounds(plan('new ticket: printer jammed, high priority', NEW_TICKET_PAGE))).toEqual([
      ['ticket.fill {"values":{"priority":"high","title":"Printer jammed"}}', 'ticket.submit {}'],
    ])
  })

  it('opens the form first, in a round of its own, when it is not on screen', () => {
    const expected = [
      ['tickets.compose {}'],
      ['ticket.fill {"values":{"priority":"high","title":"Printer jammed"}}', 'ticket.submit {}'],
    ]
    expect(rounds(plan('new ticket: printer jammed, high priority', DETAIL_PAGE))).toEqual(expected)
    // The edit form's fill would change the ticket being edited.
    expect(rounds(plan('new ticket: printer jammed, high priority', EDIT_PAGE))).toEqual(expected)
  })

  it('plans two requests joined by "then" one after the other: the closes in one round, then the ticket', () => {
    expect(
      rounds(plan('close tickets 3, 5 and 7, then file a ticket about the printer', DETAIL_PAGE)),
    ).toEqual([
      ['tickets.close {"id":3}', 'tickets.close {"id":5}', 'tickets.close {"id":7}'],
      ['tickets.compose {}'],
      ['ticket.fill {"values":{"title":"The printer"}}', 'ticket.submit {}'],
    ])
    expect(rounds(plan('close ticket 3 and then delete ticket 4', DETAIL_PAGE))).toEqual([
      ['tickets.close {"id":3}'],
      ['tickets.delete {"id":4}'],
    ])
  })

  it.each([
    ['file a ticket about the printer', 'The printer'],
    ['new ticket about my laptop', 'My laptop'],
    ['Could you open a new ticket regarding the VPN keeps dropping?', 'The VPN keeps dropping'],
  ])('takes the words after “about” as the subject of “%s”', (request, title) => {
    expect(rounds(plan(request, NEW_TICKET_PAGE))).toEqual([
      [`ticket.fill {"values":{"title":"${title}"}}`, 'ticket.submit {}'],
    ])
  })

  it.each([
    [
      'make ticket 8 urgent and close ticket 9',
      [['tickets.prioritize {"id":8,"priority":"urgent"}', 'tickets.close {"id":9}']],
    ],
    [
      'Please close ticket 9 and set ticket 8 to low, thanks',
      [['tickets.close {"id":9}', 'tickets.prioritize {"id":8,"priority":"low"}']],
    ],
    [
      'close tickets 3 and 4 and delete ticket 5',
      [['tickets.close {"id":3}', 'tickets.close {"id":4}', 'tickets.delete {"id":5}']],
    ],
    [
      'open ticket 2, make ticket 6 high',
      [['tickets.open {"id":2}', 'tickets.prioritize {"id":6,"priority":"high"}']],
    ],
  ])('plans “%s”, requests joined by “and” or a comma, in one round', (request, expected) => {
    expect(rounds(plan(request, DETAIL_PAGE))).toEqual(expected)
  })

  it('joins requests on the same ticket one after the other, and reads a whole request first', () => {
    expect(rounds(plan('make ticket 3 urgent and close ticket 3', DETAIL_PAGE))).toEqual([
      ['tickets.prioritize {"id":3,"priority":"urgent"}'],
      ['tickets.close {"id":3}'],
    ])
    // Whole requests that hold an "and" stay one.
    expect(rounds(plan('close tickets 3 and 4', DETAIL_PAGE))).toEqual([
      ['tickets.close {"id":3}', 'tickets.close {"id":4}'],
    ])
    expect(rounds(plan('new ticket: printer jammed and smoking', NEW_TICKET_PAGE))).toEqual([
      ['ticket.fill {"values":{"title":"Printer jammed and smoking"}}', 'ticket.submit {}'],
    ])
    expect(rounds(plan('make ticket 8 urgent and then close ticket 9', DETAIL_PAGE))).toEqual([
      ['tickets.prioritize {"id":8,"priority":"urgent"}'],
      ['tickets.close {"id":9}'],
    ])
  })

  it('answers requests joined by “and” when a part is not a call on a numbered ticket', () => {
    expect(plan('make ticket 8 urgent and dance', DETAIL_PAGE)).toMatchObject({ kind: 'reply' })
    expect(plan('close ticket 9 and open the printer ticket', DETAIL_PAGE)).toMatchObject({
      kind: 'reply',
    })
    const many = plan('close tickets 1, 2 and 3 and delete tickets 4, 5 and 6', DETAIL_PAGE)
    expect(many.kind === 'reply' && many.text).toMatch(/one ticket at a time/)
  })

  it('keeps "then" inside what a new ticket says, and answers a second part it does not know', () => {
    expect(rounds(plan('new ticket: laptop freezes, then reboots', NEW_TICKET_PAGE))).toEqual([
      [
        'ticket.fill {"values":{"description":"then reboots","title":"Laptop freezes"}}',
        'ticket.submit {}',
      ],
    ])
    expect(plan('close ticket 3 then dance', DETAIL_PAGE)).toMatchObject({ kind: 'reply' })
  })

  it('puts a requester email inside a sentence into the requester, the rest into the title', () => {
    expect(
      rounds(
        plan('Create a ticket for ana@example.com: VPN keeps dropping, urgent', NEW_TICKET_PAGE),
      ),
    ).toEqual([
      [
        'ticket.fill {"values":{"priority":"urgent","requester":"ana@example.com","title":"VPN keeps dropping"}}',
        'ticket.submit {}',
      ],
    ])
  })

  it.each([
    [
      'projector shows no signal, urgent, hardware, from nina.larsen@northwind.example, tried two cables',
      {
        title: 'Projector shows no signal',
        priority: 'urgent',
        category: 'hardware',
        requester: 'nina.larsen@northwind.example',
        description: 'tried two cables',
      },
    ],
    [
      'vpn down; priority: low; category network',
      { title: 'Vpn down', priority: 'low', category: 'network' },
    ],
    [
      'for ana@example.com: VPN keeps dropping, urgent',
      { requester: 'ana@example.com', title: 'VPN keeps dropping', priority: 'urgent' },
    ],
    [
      'Badge reader at the door is dead - a hardware problem, high priority',
      { title: 'Badge reader at the door is dead', category: 'hardware', priority: 'high' },
    ],
    [
      'the label printer is urgent, reported by amir.haddad@northwind.example',
      {
        title: 'The label printer',
        priority: 'urgent',
        requester: 'amir.haddad@northwind.example',
      },
    ],
    [
      'Outlook crashes on start. It happens since the update',
      { title: 'Outlook crashes on start', description: 'It happens since the update' },
    ],
  ])('reads the fields of “%s”', (details, expected) => {
    expect(parseNewTicket(details)).toEqual(expected)
  })

  it('reads a category named before the word ticket', () => {
    expect(rounds(plan('new network ticket: switch on floor 2 is down', NEW_TICKET_PAGE))).toEqual([
      [
        'ticket.fill {"values":{"category":"network","title":"Switch on floor 2 is down"}}',
        'ticket.submit {}',
      ],
    ])
  })

  it('files an access request in two rounds: open the wizard, then fill every step and submit', () => {
    const request =
      'Request write access to payroll for olivia.grant@northwind.example until 2030-01-31 because she covers the quarterly audit'
    const values = {
      who: { email: 'olivia.grant@northwind.example', name: 'Olivia Grant' },
      system: { system: 'payroll', level: 'write' },
      why: { until: '2030-01-31', reason: 'She covers the quarterly audit' },
    }
    expect(parseAccessRequest(request)).toEqual(values)
    expect(rounds(plan(request, NEW_TICKET_PAGE))).toEqual([
      ['access.start {}'],
      [`access.fill ${sorted({ values })}`, 'access.submit {}'],
    ])
    // On screen already: one round.
    expect(rounds(plan(request, ACCESS_PAGE))).toEqual([
      [`access.fill ${sorted({ values })}`, 'access.submit {}'],
    ])
  })

  it('opens the access request and asks for what is missing instead of submitting', () => {
    const planned = plan('I need access to the VPN', NEW_TICKET_PAGE)
    expect(rounds(planned)).toEqual([
      ['access.start {}'],
      ['access.fill {"values":{"system":{"system":"vpn"}}}'],
    ])
    expect(planned.kind === 'steps' && planned.then).toMatch(/who needs it.*why.*until when/)
    expect(plan('request access', ACCESS_PAGE)).toMatchObject({ kind: 'reply' })
  })

  it('answers with what is wrong instead of filling values the form would refuse', () => {
    expect(plan('new ticket: ab', NEW_TICKET_PAGE)).toEqual({
      kind: 'reply',
      text: 'Give the ticket a title of at least 3 characters.',
    })
    expect(
      plan(
        'request read access to crm for ana@example.com until 2001-01-01 because she joins sales',
        ACCESS_PAGE,
      ),
    ).toEqual({ kind: 'reply', text: 'The last day of access cannot be in the past.' })
  })

  it('undoes the last change', () => {
    expect(plan('undo that')).toEqual({ kind: 'undo' })
    expect(plan('Please undo that.')).toEqual({ kind: 'undo' })
    expect(plan('revert the last change')).toEqual({ kind: 'undo' })
  })

  it.each([
    'close all tickets',
    'delete every ticket',
    'please close all the open tickets',
    'close the pending tickets',
    'close tickets 1, 2, 3, 4, 5 and 6',
  ])('says plainly that it cannot do “%s”', (request) => {
    const planned = plan(request, NEW_TICKET_PAGE)
    expect(planned.kind).toBe('reply')
    expect(planned.kind === 'reply' && planned.text).toMatch(/one ticket at a time/)
  })

  it.each(['asdf qwer', 'order pizza', '!!!', 'blorp 42 zzz', 'sdkjfh sdkjf sdfkj'])(
    'answers “%s” in words, with no tool call',
    (request) => {
      const planned = plan(request, NEW_TICKET_PAGE)
      expect(planned.kind).toBe('reply')
    },
  )

  it('asks which ticket when the number is missing', () => {
    expect(plan('close it')).toEqual({
      kind: 'reply',
      text: 'Which ticket? Give me its number, for example “close ticket 3”.',
    })
  })

  it('answers help and empty requests with what it can do', () => {
    expect(plan('help')).toEqual({ kind: 'reply', text: HELP })
    expect(plan('   ')).toEqual({ kind: 'reply', text: HELP })
    expect(plan('new ticket', NEW_TICKET_PAGE)).toMatchObject({ kind: 'reply' })
    const unknown = plan('order pizza')
    expect(unknown.kind === 'reply' && unknown.text).toContain('I did not understand “order pizza”')
  })

  it('strips polite words around a request', () => {
    expect(normalize('Hi! Could you please close ticket 3 for me, thanks.')).toBe('close ticket 3')
    expect(normalize('pls search printer')).toBe('search printer')
  })
})

describe('the scripted planner asked how to do something', () => {
  /** A plan as its tools, with the tour's mode and the tools its steps name. */
  const tours = (planned: Plan) =>
    planned.kind === 'steps'
      ? planned.turns.map((turn) =>
          turn.map((step) => {
            if (step.tool !== 'tour.start') return step.tool
            const { mode, steps } = step.input as { mode: string; steps: TourStep[] }
            return `tour.start ${mode}: ${steps.map((s) => s.field ?? s.tool).join(', ')}`
          }),
        )
      : planned

  it.each([
    'show me how to file a ticket',
    'Can you show me how to create a new ticket?',
    'how do I file a ticket?',
    'how to open a ticket',
    'walk me through filing a ticket',
    'guide me through creating a ticket, please',
    'I want to learn how to log a ticket',
  ])('answers “%s” with a guided tour of the new-ticket form on screen', (request) => {
    expect(tours(plan(request, NEW_TICKET_PAGE))).toEqual([
      ['tour.start guide: title, priority, description, ticket.submit'],
    ])
  })

  it('opens the new-ticket form first when it is not on screen, so the steps find their tools', () => {
    const expected = [
      ['tickets.compose'],
      ['tour.start guide: title, priority, description, ticket.submit'],
    ]
    expect(tours(plan('show me how to file a ticket', DETAIL_PAGE))).toEqual(expected)
    expect(tours(plan('show me how to file a ticket', EDIT_PAGE))).toEqual(expected)
  })

  it('says which tour it has for a task it cannot show, and does not act on it', () => {
    for (const request of ['show me how', 'how do I close ticket 3', 'show me how to dance']) {
      expect(plan(request, NEW_TICKET_PAGE)).toMatchObject({
        kind: 'reply',
        text: expect.stringContaining('show me how to file a ticket'),
      })
    }
  })
})

describe('the scripted planner with pasted files', () => {
  const PASTED: PlanContext['pastes'] = [
    { ref: 'paste:1', name: 'old.png', type: 'image/png', size: 120 },
    { ref: 'paste:2', name: 'image.png', type: 'image/png', size: 3400 },
  ]
  const onForm: PlanContext = { ...NEW_TICKET_PAGE, pastes: PASTED }

  it.each([
    'attach the screenshot I just pasted',
    'Please attach the image I pasted to the new ticket',
    'add the pasted screenshot',
    'attach my screenshot',
  ])('attaches the latest paste to the new ticket on screen: %s', (request) => {
    expect(rounds(plan(request, onForm))).toEqual([
      ['ticket.fill {"values":{"attachment":{"ref":"paste:2"}}}'],
    ])
  })

  it('attaches the paste a request names', () => {
    expect(rounds(plan('attach paste:1', onForm))).toEqual([
      ['ticket.fill {"values":{"attachment":{"ref":"paste:1"}}}'],
    ])
    // One that does not exist still goes to the form, whose resolver refuses it.
    expect(rounds(plan('attach paste:9', onForm))).toEqual([
      ['ticket.fill {"values":{"attachment":{"ref":"paste:9"}}}'],
    ])
  })

  it('opens the new-ticket form first when it is not on screen', () => {
    expect(
      rounds(plan('attach the screenshot I just pasted', { ...DETAIL_PAGE, pastes: PASTED })),
    ).toEqual([['tickets.compose {}'], ['ticket.fill {"values":{"attachment":{"ref":"paste:2"}}}']])
  })

  it('fills the fields and the attachment, and submits once the fill went through', () => {
    expect(
      rounds(
        plan(
          'new ticket: login page shows error 500, high priority, attach the screenshot I just pasted',
          onForm,
        ),
      ),
    ).toEqual([
      [
        'ticket.fill {"values":{"attachment":{"ref":"paste:2"},"priority":"high","title":"Login page shows error 500"}}',
      ],
      ['ticket.submit {}'],
    ])
    expect(
      rounds(plan('the VPN keeps dropping, with the screenshot I just pasted', onForm)),
    ).toEqual([
      ['ticket.fill {"values":{"attachment":{"ref":"paste:2"},"title":"The VPN keeps dropping"}}'],
      ['ticket.submit {}'],
    ])
  })

  it('says to paste first when nothing was pasted', () => {
    const answer = plan('attach the screenshot I just pasted', NEW_TICKET_PAGE)
    expect(answer).toMatchObject({ kind: 'reply' })
    expect(answer.kind === 'reply' && answer.text).toContain('Nothing has been pasted yet')
  })

  it('leaves "with the file server" in a title alone', () => {
    expect(rounds(plan('new ticket: problem with the file server', onForm))).toEqual([
      ['ticket.fill {"values":{"title":"Problem with the file server"}}', 'ticket.submit {}'],
    ])
  })

  it('creates the ticket on screen when asked to', () => {
    expect(rounds(plan('create it', onForm))).toEqual([['ticket.submit {}']])
    expect(plan('create it', DETAIL_PAGE)).toMatchObject({ kind: 'reply' })
  })
})
