import { mkdirSync } from 'node:fs'
import type { Ticket } from '../shared/ticket.ts'
import { startDatabase, type Database } from './database.ts'

const SCHEMA = `
create table if not exists tickets (
  id          serial primary key,
  title       text not null check (char_length(title) between 3 and 120),
  description text not null default '',
  requester   text not null,
  category    text not null default 'other'
              check (category in ('hardware', 'software', 'access', 'network', 'other')),
  priority    text not null default 'normal'
              check (priority in ('low', 'normal', 'high', 'urgent')),
  status      text not null default 'open' check (status in ('open', 'pending', 'closed')),
  assignee    text,
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now(),
  closed_at   timestamptz
);
create index if not exists tickets_status_idx on tickets (status);
create table if not exists attachments (
  id         serial primary key,
  ticket_id  integer not null references tickets (id) on delete cascade,
  name       text not null check (char_length(name) between 1 and 128),
  type       text not null,
  size       integer not null check (size >= 0),
  data       bytea not null,
  created_at timestamptz not null default now()
);
create index if not exists attachments_ticket_idx on attachments (ticket_id);
`

interface SeedTicket extends Pick<
  Ticket,
  'title' | 'description' | 'requester' | 'category' | 'priority' | 'status' | 'assignee'
> {
  /** How long ago it was reported. */
  age: string
  /** How long ago it was closed, for closed tickets. */
  closedAgo?: string
}

const SEED: SeedTicket[] = [
  {
    title: 'VPN drops every 20 minutes when working from home',
    description:
      'Since Tuesday the VPN client disconnects roughly every 20 minutes and I have to sign in again. It happens on my home Wi-Fi only; tethering to my phone is stable. Client version 5.2.1 on macOS.',
    requester: 'maria.chen@northwind.example',
    category: 'network',
    priority: 'high',
    status: 'open',
    assignee: 'Sam Rivera',
    age: '2 hours',
  },
  {
    title: 'Need access to the Finance shared drive',
    description:
      'I joined the FP&A team this week and need read/write access to \\\\fs01\\finance. My manager (Olivia Grant) has approved it by email.',
    requester: 'daniel.okafor@northwind.example',
    category: 'access',
    priority: 'normal',
    status: 'pending',
    assignee: 'Priya Patel',
    age: '5 hours',
  },
  {
    title: 'Printer on floor 3 keeps reporting a paper jam in tray 2',
    description:
      'The HP LaserJet by the kitchen shows "Paper jam in tray 2" even though the tray is empty. We opened every door and found nothing. People are walking to floor 2 to print.',
    requester: 'lena.fischer@northwind.example',
    category: 'hardware',
    priority: 'normal',
    status: 'open',
    assignee: null,
    age: '1 day',
  },
  {
    title: 'Outlook asks for my password every few minutes',
    description:
      'Outlook on Windows keeps popping up the sign-in window. Entering the password works for a while, then it asks again. Webmail is fine.',
    requester: 'tom.becker@northwind.example',
    category: 'software',
    priority: 'high',
    status: 'open',
    assignee: 'Sam Rivera',
    age: '26 hours',
  },
  {
    title: 'Laptop for new starter Aisha Khan (starts Monday)',
    description:
      'Aisha joins Customer Success on Monday. She needs the standard laptop image, a headset and access to Zendesk and Slack.',
    requester: 'olivia.grant@northwind.example',
    category: 'hardware',
    priority: 'normal',
    status: 'open',
    assignee: 'Jonas Weber',
    age: '2 days',
  },
  {
    title: 'Zoom screen sharing shows a black window',
    description:
      'When I share my screen in Zoom, the others only see a black rectangle. Sharing a single window works. Started after the latest macOS update.',
    requester: 'kenji.watanabe@northwind.example',
    category: 'software',
    priority: 'low',
    status: 'open',
    assignee: null,
    age: '8 days',
  },
  {
    title: 'Badge does not open the server room door',
    description:
      'My badge stopped working on the server room door this morning (other doors are fine). We have a hardware delivery arriving at 14:00 that needs to go in there.',
    requester: 'jonas.weber@northwind.example',
    category: 'access',
    priority: 'urgent',
    status: 'open',
    assignee: 'Priya Patel',
    age: '40 minutes',
  },
  {
    title: 'Invoice PDF export fails with error 500',
    description:
      'Exporting any invoice from the billing portal to PDF ends with "Internal Server Error (500)". CSV export still works. Vendor ticket opened, waiting for their reply.',
    requester: 'sofia.russo@northwind.example',
    category: 'software',
    priority: 'high',
    status: 'pending',
    assignee: 'Sam Rivera',
    age: '4 days',
  },
  {
    title: 'Wi-Fi in meeting room Everest is very slow',
    description:
      'Video calls from Everest freeze constantly. Speed test shows 2 Mbit/s down. Other rooms are fine.',
    requester: 'amir.haddad@northwind.example',
    category: 'network',
    priority: 'normal',
    status: 'closed',
    assignee: 'Jonas Weber',
    age: '6 days',
    closedAgo: '5 days',
  },
  {
    title: 'Second monitor for the design team',
    description: 'Requesting three 27" monitors for the design team desks near the window.',
    requester: 'chloe.martin@northwind.example',
    category: 'hardware',
    priority: 'low',
    status: 'closed',
    assignee: 'Jonas Weber',
    age: '9 days',
    closedAgo: '7 days',
  },
  {
    title: 'Reset MFA after phone replacement',
    description:
      'I replaced my phone and can no longer approve sign-ins. Please reset my MFA registration so I can enrol the new device.',
    requester: 'peter.novak@northwind.example',
    category: 'access',
    priority: 'high',
    status: 'closed',
    assignee: 'Priya Patel',
    age: '12 days',
    closedAgo: '12 days',
  },
  {
    title: 'Warehouse label printer prints blank labels',
    description:
      'The Zebra label printer at packing station 2 feeds labels but prints nothing on them. We swapped the ribbon; no change. Shipping is using station 1 for now.',
    requester: 'grace.obi@northwind.example',
    category: 'hardware',
    priority: 'high',
    status: 'open',
    assignee: null,
    age: '7 hours',
  },
]

/**
 * Opens (and on first use creates) the helpdesk database in `dataDir`: a real Postgres running
 * in WebAssembly in a worker thread, persisted as ordinary files. A fresh database gets the schema and a dozen
 * realistic tickets.
 */
export async function openDatabase(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true })
  const db = await startDatabase(dataDir)
  await db.exec(SCHEMA)
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from tickets')
  if (rows[0].n === 0) await seed(db)
  return db
}

async function seed(db: Database): Promise<void> {
  // Oldest first, so ids grow with age the way a real queue fills up.
  const ordered = [...SEED].sort((a, b) => ageMs(b.age) - ageMs(a.age))
  await db.transaction(async (tx) => {
    for (const ticket of ordered) {
      const closed = ticket.closedAgo ? 'now() - $9::interval' : 'null'
      await tx.query(
        `insert into tickets
           (title, description, requester, category, priority, status, assignee,
            created_at, updated_at, closed_at)
         values ($1, $2, $3, $4, $5, $6, $7, now() - $8::interval,
                 coalesce(${closed}, now() - $8::interval), ${closed})`,
        [
          ticket.title,
          ticket.description,
          ticket.requester,
          ticket.category,
          ticket.priority,
          ticket.status,
          ticket.assignee,
          ticket.age,
          ...(ticket.closedAgo ? [ticket.closedAgo] : []),
        ],
      )
    }
  })
}

const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }

function ageMs(age: string): number {
  const [count, unit] = age.split(' ')
  return Number(count) * UNIT_MS[unit.replace(/s$/, '')]
}
