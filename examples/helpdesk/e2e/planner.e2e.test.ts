import { HELP, parseNewTicket, plan } from '../src/assistant/planner.ts'

// The scripted planner is plain code: these run in node, without the app.
describe('the scripted planner', () => {
  it('turns "new ticket: …" into compose, fill and submit', () => {
    expect(plan('new ticket: printer jammed, high priority')).toEqual({
      kind: 'steps',
      steps: [
        { tool: 'tickets.compose', input: {}, intent: 'Open the new-ticket form' },
        {
          tool: 'ticket.fill',
          input: { values: { title: 'Printer jammed', priority: 'high' } },
          intent: 'Fill in the form',
        },
        { tool: 'ticket.submit', input: {}, intent: 'Create the ticket' },
      ],
    })
  })

  it('reads priority, category, requester and description from the details', () => {
    expect(
      parseNewTicket(
        'projector shows no signal, urgent, hardware, from nina.larsen@northwind.example, tried two cables',
      ),
    ).toEqual({
      title: 'Projector shows no signal',
      priority: 'urgent',
      category: 'hardware',
      requester: 'nina.larsen@northwind.example',
      description: 'tried two cables',
    })
    expect(parseNewTicket('vpn down; priority: low; category network')).toEqual({
      title: 'Vpn down',
      priority: 'low',
      category: 'network',
    })
  })

  it('maps close, delete, open and prioritize requests to one call each', () => {
    const single = (text: string) => {
      const planned = plan(text)
      return planned.kind === 'steps'
        ? planned.steps.map(({ tool, input }) => ({ tool, input }))
        : planned
    }
    expect(single('close ticket 3')).toEqual([{ tool: 'tickets.close', input: { id: 3 } }])
    expect(single('Close #12.')).toEqual([{ tool: 'tickets.close', input: { id: 12 } }])
    expect(single('delete ticket 7')).toEqual([{ tool: 'tickets.delete', input: { id: 7 } }])
    expect(single('open ticket 4')).toEqual([{ tool: 'tickets.open', input: { id: 4 } }])
    expect(single('make ticket 4 urgent')).toEqual([
      { tool: 'tickets.prioritize', input: { id: 4, priority: 'urgent' } },
    ])
    expect(single('set the priority of ticket 2 to low')).toEqual([
      { tool: 'tickets.prioritize', input: { id: 2, priority: 'low' } },
    ])
  })

  it('searches with the words that follow', () => {
    const query = (text: string) => {
      const planned = plan(text)
      return planned.kind === 'steps' ? planned.steps[0].input : planned
    }
    expect(query('search printer')).toEqual({ query: 'printer' })
    expect(query('find tickets about the VPN')).toEqual({ query: 'the VPN' })
    expect(query('look for "paper jam"')).toEqual({ query: 'paper jam' })
  })

  it('answers in words when it has nothing to do', () => {
    expect(plan('help')).toEqual({ kind: 'reply', text: HELP })
    expect(plan('new ticket')).toMatchObject({ kind: 'reply' })
    const unknown = plan('order pizza')
    expect(unknown.kind).toBe('reply')
    expect(unknown.kind === 'reply' && unknown.text).toContain('I did not understand “order pizza”')
  })
})
