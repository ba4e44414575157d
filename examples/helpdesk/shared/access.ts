import { z } from 'zod'

/** The systems people can ask access to, by id. */
export const SYSTEMS = {
  vpn: 'VPN (remote access)',
  payroll: 'Payroll',
  'finance-drive': 'Finance shared drive',
  crm: 'CRM',
  github: 'GitHub organization',
  warehouse: 'Warehouse management',
} as const
export type SystemId = keyof typeof SYSTEMS
export const SYSTEM_IDS = Object.keys(SYSTEMS) as [SystemId, ...SystemId[]]

/** How much access: read only, read and write, or administration. */
export const ACCESS_LEVELS = ['read', 'write', 'admin'] as const
export type AccessLevel = (typeof ACCESS_LEVELS)[number]

/** Northwind's staff directory, for looking a person's email up by name. */
export const DIRECTORY = [
  { name: 'Maria Chen', email: 'maria.chen@northwind.example', team: 'Sales' },
  { name: 'Daniel Okafor', email: 'daniel.okafor@northwind.example', team: 'FP&A' },
  { name: 'Lena Fischer', email: 'lena.fischer@northwind.example', team: 'Marketing' },
  { name: 'Nina Larsen', email: 'nina.larsen@northwind.example', team: 'Operations' },
  { name: 'Olivia Grant', email: 'olivia.grant@northwind.example', team: 'Finance' },
  { name: 'Kenji Watanabe', email: 'kenji.watanabe@northwind.example', team: 'Engineering' },
  { name: 'Sofia Russo', email: 'sofia.russo@northwind.example', team: 'HR' },
  { name: 'Amir Haddad', email: 'amir.haddad@northwind.example', team: 'Warehouse' },
] as const

/** Today as `YYYY-MM-DD` in the person's time zone. */
export function today(now = new Date()): string {
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000)
  return local.toISOString().slice(0, 10)
}

/** Step 1: who needs access. */
export const accessWho = z.object({
  email: z.email('Enter the email address of the person who needs access').meta({
    title: 'Email',
    description: 'Email of the person who needs access (access.options looks it up by name)',
  }),
  name: z
    .string()
    .max(80, 'Keep the name under 80 characters')
    .meta({ title: 'Name', description: 'Their full name' }),
})

/** Step 2: which system, and how much access. */
export const accessSystem = z.object({
  system: z
    .enum(SYSTEM_IDS, 'Pick a system')
    .meta({ title: 'System', description: 'The system to open' }),
  level: z.enum(ACCESS_LEVELS).meta({ title: 'Access level', description: 'read, write or admin' }),
})

/** Step 3: why, and until when. */
export const accessWhy = z.object({
  reason: z
    .string()
    .min(10, 'Say in a sentence why the access is needed')
    .max(1000, 'Keep the reason under 1000 characters')
    .meta({ title: 'Reason', description: 'Why the access is needed' }),
  until: z.iso
    .date('Enter the last day of access as YYYY-MM-DD')
    .refine((day) => day >= today(), 'The last day of access cannot be in the past')
    .meta({ title: 'Until', description: 'Last day of access, YYYY-MM-DD' }),
})

export type AccessWho = z.infer<typeof accessWho>
export type AccessSystem = z.infer<typeof accessSystem>
export type AccessWhy = z.infer<typeof accessWhy>
export interface AccessRequestValues {
  who: AccessWho
  system: AccessSystem
  why: AccessWhy
}
