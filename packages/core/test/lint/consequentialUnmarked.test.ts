import { z } from 'zod'
import { createToolmark } from '../../src/index'
import { createFormTools } from '../../src/forms'
import { lintManifest, lintManifestOf } from '../../src/lint'

/** The `consequential-unmarked` findings of a manifest of one tool. */
const findingsFor = (tool: { name: string; description: string; hints?: object }) =>
  lintManifest({ tools: [{ hints: {}, ...tool }] }).findings.filter(
    (f) => f.rule === 'consequential-unmarked',
  )

describe('consequential-unmarked', () => {
  it.each([
    ['tickets.purge', 'Permanently deletes a closed ticket with its history'],
    ['users.delete', 'Takes a user off the helpdesk for good'],
    ['deleteUser', 'Takes a user off the helpdesk for good'],
    ['delete_user', 'Takes a user off the helpdesk for good'],
    ['users.bulkDelete', 'Takes several users off the helpdesk at once'],
    ['payments.refund', 'Gives the customer their money back for one order'],
    ['orders.refundPayment', 'Gives the customer their money back for one order'],
    ['orders.pay', 'Settles an open order with the saved card of the customer'],
    ['mail.notify', 'Sends an email to the requester of a ticket with its new status'],
    ['posts.share', 'Publishes a draft on the public blog of the company'],
    ['subscriptions.end', 'Cancels the subscription of a customer at the end of the month'],
    ['invoices.settle', 'Use to charge the card on file for an unpaid invoice'],
    ['forum.reply', 'Posts a reply in a thread of the community forum'],
  ])('reports %s ("%s") without consequential or destructive hints', (name, description) => {
    const findings = findingsFor({ name, description })
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({ tool: name, severity: 'error' })
    expect(findings[0].message).toContain('runs without asking anyone')
    expect(findings[0].fix).toContain('destructive: true')
  })

  it.each([
    ['tickets.undelete', 'Restores a ticket that was moved to the bin'],
    ['tickets.restore', 'Restores a deleted ticket with its history'],
    ['payments.list', 'Lists the payments and refunds of one customer'],
    ['posts.search', 'Searches blog posts by words in their title'],
    ['mail.outbox', 'Lists sent emails and the charges of the mail provider'],
    ['tickets.preview', 'Shows what closing a ticket would change; never deletes anything'],
    ['tickets.dryRun', 'Checks a bulk change without sending any email'],
    ['payroll.periods', 'Shows the pay periods of the current year'],
    ['tickets.notify', 'Closes the ticket; the requester is sent an email about it'],
    ['contact.fill', 'The contact form; submit sends the message to support'],
  ])('passes %s ("%s"), which names no act a person approves', (name, description) => {
    expect(findingsFor({ name, description })).toEqual([])
  })

  it('passes a tool marked consequential or destructive', () => {
    const description = 'Permanently deletes a closed ticket with its history'
    expect(
      findingsFor({ name: 'tickets.purge', description, hints: { destructive: true } }),
    ).toEqual([])
    expect(
      findingsFor({ name: 'payments.refund', description, hints: { consequential: true } }),
    ).toEqual([])
  })

  it('reports a tool marked read-only whose description says it deletes', () => {
    const findings = findingsFor({
      name: 'tickets.tidy',
      description: 'Removes the tickets closed more than a year ago',
      hints: { readOnly: true },
    })
    expect(findings.map((f) => f.message)).toEqual([
      '"tickets.tidy" says it "removes" in its description but is neither consequential nor destructive: it runs without asking anyone',
    ])
  })

  it("passes the tools a form generates, which share the form's description", () => {
    const tm = createToolmark()
    let values: Record<string, unknown> = { message: '', tags: [] }
    createFormTools(
      tm,
      {
        getValues: () => values,
        setValues: (next) => {
          values = { ...values, ...next }
        },
        dirtyPaths: () => [],
        submit: async () => ({ ok: true as const, data: values }),
        fields: () => [
          { path: 'message', label: 'Message' },
          { path: 'tags', label: 'Tags' },
        ],
      },
      {
        name: 'contact',
        description: 'The contact form on screen; submit sends the message to support',
        schema: z.object({ message: z.string(), tags: z.array(z.string()) }),
      },
    )
    const manifest = lintManifestOf(tm)
    expect(manifest.tools.find((t) => t.name === 'contact.fill')?.description).toContain('$remove')
    const findings = lintManifest(manifest).findings.filter(
      (f) => f.rule === 'consequential-unmarked',
    )
    expect(findings).toEqual([])
  })
})
