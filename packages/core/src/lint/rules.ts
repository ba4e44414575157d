import { isToolName, toLlmName } from '../tool/names'
import { looksSensitive } from '../redaction/sensitiveNames'
import { renderSignature } from '../schema/jsonSchema'
import type { JsonSchema, ManifestEntry } from '../types'
import { actInDescription, actInName } from './consequentialWords'
import { firstOverlaps } from './firstOverlaps'
import { hiddenCharacters, instructionsToModel } from './hiddenText'
import { modelTexts } from './modelTexts'

/** How much a finding matters: an `error` fails the lint (exit 1), a `warning` does not. */
export type LintSeverity = 'error' | 'warning'

/** One manifest entry as the linter reads it: what agents see, plus what only the app knows. */
export interface LintEntry extends ManifestEntry {
  /**
   * Whether the tool says what its confirmation shows (`summary`). Absent when unknown (a page
   * read through the bridge, a plain `tm.manifest()`): `summary-missing` then cannot judge a
   * consequential or destructive tool and is listed in the report's `notChecked`.
   */
  summary?: boolean
  /**
   * Input paths the tool redacts (`'password'`, `'cards[].cvc'`). Absent when unknown: a field
   * that looks secret counts as marked only by the schema's own markers (`writeOnly`,
   * `format: "password"`); otherwise `sensitive-unmarked` cannot judge it and is listed in
   * `notChecked`.
   */
  sensitive?: string[]
}

/** What the linter reads: a full manifest (`detail: 'full'`), optionally with the app's facts. */
export interface LintManifest {
  rev?: number
  tools: LintEntry[]
}

/** One problem found. */
export interface LintFinding {
  rule: LintRuleId
  severity: LintSeverity
  /** The tool concerned (the first of a pair for `description-overlap`). */
  tool: string
  /** The input field concerned, as a dot path (`values.password`), when there is one. */
  path?: string
  message: string
  /** What to change. */
  fix: string
}

/** What a rule is given. */
export interface RuleContext {
  readonly tools: readonly LintEntry[]
  readonly signatureBudget: number
  report(finding: Omit<LintFinding, 'rule' | 'severity'>): void
  /** Says the rule could not judge a tool: the manifest lacks a fact it needs. */
  unknown(tool: string): void
}

/** A rule of a good manifest. */
export interface LintRule {
  readonly id: LintRuleId
  readonly severity: LintSeverity
  /** One line: what the rule asks for. */
  readonly description: string
  check(context: RuleContext): void
}

/** Every rule id, in the order rules run. */
export const LINT_RULE_IDS = [
  'description-missing',
  'description-vague',
  'description-hidden-text',
  'description-injection',
  'summary-missing',
  'readonly-name-mutates',
  'consequential-unmarked',
  'description-overlap',
  'field-description-missing',
  'signature-over-budget',
  'sensitive-unmarked',
  'name-unstable',
  'duplicate-name',
] as const

/** A rule's id. */
export type LintRuleId = (typeof LINT_RULE_IDS)[number]

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? []

/** Name words: `tickets.setPriority` → tickets, set, priority. */
const nameWords = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)

const STOP = new Set(
  'a an the and or of to in on for by with from as at is are be it its this that these those use when what which who your you their one or any all'.split(
    ' ',
  ),
)

const contentWords = (text: string) => new Set(words(text).filter((w) => !STOP.has(w)))

const MUTATING_VERBS = new Set(
  'create add insert update set put patch edit change modify rename move assign unassign delete remove destroy drop purge clear reset close reopen open submit send post publish write save store upload fill cancel archive restore approve reject merge sync import mark toggle enable disable'.split(
    ' ',
  ),
)

const VAGUE =
  /^(does|do|handles?|manages?|runs?|a tool|tool|todo|tbd|stuff|misc|helper|function)\b/i

/** Every property of an input schema, depth first, with its dot path (`[]` for array items). */
function fields(
  schema: JsonSchema | undefined,
  path = '',
  depth = 0,
): { path: string; name: string; schema: JsonSchema }[] {
  if (!schema || typeof schema !== 'object' || depth > 16) return []
  const out: { path: string; name: string; schema: JsonSchema }[] = []
  const properties = schema.properties
  if (properties && typeof properties === 'object') {
    for (const [name, value] of Object.entries(properties as Record<string, unknown>)) {
      const at = path ? `${path}.${name}` : name
      // A boolean schema (or a malformed one) is a field with nothing said about it.
      const child = (typeof value === 'object' && value !== null ? value : {}) as JsonSchema
      out.push({ path: at, name, schema: child })
      out.push(...fields(child, at, depth + 1))
    }
  }
  const items = schema.items
  if (items && typeof items === 'object' && !Array.isArray(items)) {
    out.push(...fields(items as JsonSchema, path ? `${path}[]` : '[]', depth + 1))
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key]
    if (Array.isArray(list)) {
      for (const option of list) out.push(...fields(option as JsonSchema, path, depth + 1))
    }
  }
  return out
}

/** Whether a dot path with `[]` segments is covered by one of the tool's sensitive patterns. */
function coveredBy(patterns: readonly string[], path: string): boolean {
  const segments = path.replace(/\[\]/g, '.[]').split('.').filter(Boolean)
  return patterns.some((pattern) => {
    const wanted = pattern.replace(/\[\]/g, '.[]').split('.').filter(Boolean)
    if (wanted.length > segments.length) return false
    return wanted.every((w, i) => w === segments[i] || w === '*' || w === '**')
  })
}

const isMarkedInSchema = (schema: JsonSchema) =>
  schema.writeOnly === true || schema.format === 'password'

/** The input's one-line signature; undefined for a schema it cannot render (a malformed one). */
function fullSignature(schema: JsonSchema): string | undefined {
  try {
    return renderSignature(schema, Infinity)
  } catch {
    return undefined
  }
}

const asksFirst = (tool: LintEntry) =>
  tool.hints?.consequential === true || tool.hints?.destructive === true

export const RULES: readonly LintRule[] = [
  {
    id: 'description-missing',
    severity: 'error',
    description: 'Every tool has a description: the model chooses tools by it.',
    check({ tools, report }) {
      for (const tool of tools) {
        if (typeof tool.description !== 'string' || tool.description.trim() === '') {
          report({
            tool: tool.name,
            message: `"${tool.name}" has no description`,
            fix: 'Add a description that says what the tool does and when to use it.',
          })
        }
      }
    },
  },
  {
    id: 'description-vague',
    severity: 'warning',
    description: 'A description says what the tool does and when, in more than a few words.',
    check({ tools, report }) {
      for (const tool of tools) {
        const text = tool.description?.trim() ?? ''
        if (text === '') continue
        const said = words(text)
        const restatesName =
          said.join(' ') === nameWords(tool.name).join(' ') ||
          (tool.title !== undefined && said.join(' ') === words(tool.title).join(' '))
        if (said.length < 4 || text.length < 20 || restatesName || VAGUE.test(text)) {
          report({
            tool: tool.name,
            message: `"${tool.name}" has a vague description: ${JSON.stringify(text)}`,
            fix: 'Say what the tool does, to what, and when a model should pick it (e.g. "Closes a ticket by its number once the issue is solved").',
          })
        }
      }
    },
  },
  {
    id: 'description-hidden-text',
    severity: 'error',
    description:
      'No text a model reads (descriptions, titles, schema values) holds characters a person cannot see (zero-width, bidi, tags).',
    check({ tools, report, unknown }) {
      for (const tool of tools) {
        const { texts, complete } = modelTexts(tool)
        if (!complete) unknown(tool.name)
        for (const { what, path, text } of texts) {
          const hidden = hiddenCharacters(text)
          if (hidden.length === 0) continue
          const shown = hidden.length > 5 ? `${hidden.slice(0, 5).join(', ')}…` : hidden.join(', ')
          report({
            tool: tool.name,
            ...(path === undefined ? {} : { path }),
            message: `"${tool.name}" ${what} holds hidden characters (${shown}): a model reads what a person reviewing it does not see`,
            fix: 'Remove the invisible characters (zero-width spaces and joiners, bidirectional controls, tag characters); if the text came from elsewhere, find out who wrote it.',
          })
        }
      }
    },
  },
  {
    id: 'description-injection',
    severity: 'error',
    description:
      'No text a model reads (descriptions, titles, schema values) addresses it with instructions.',
    check({ tools, report, unknown }) {
      for (const tool of tools) {
        const { texts, complete } = modelTexts(tool)
        if (!complete) unknown(tool.name)
        for (const { what, path, text } of texts) {
          const phrase = instructionsToModel(text)
          if (phrase === undefined) continue
          report({
            tool: tool.name,
            ...(path === undefined ? {} : { path }),
            message: `"${tool.name}" ${what} reads like instructions to the model (${JSON.stringify(phrase)}): a prompt injection, or text a model may obey`,
            fix: 'Say what the tool does and when to use it; never address the model, its instructions or its other tools. If the text came from elsewhere, find out who wrote it.',
          })
        }
      }
    },
  },
  {
    id: 'summary-missing',
    severity: 'error',
    description: 'A consequential or destructive tool says what the person approves (summary).',
    check({ tools, report, unknown }) {
      for (const tool of tools) {
        if (!asksFirst(tool)) continue
        if (tool.summary === undefined) unknown(tool.name)
        else if (!tool.summary) {
          report({
            tool: tool.name,
            message: `"${tool.name}" needs a confirmation but has no summary: the person sees its raw input`,
            fix: "Add summary: (input) => 'Close ticket #3' so the dialog says what will happen.",
          })
        }
      }
    },
  },
  {
    id: 'readonly-name-mutates',
    severity: 'error',
    description: 'A read-only tool is not named after a change.',
    check({ tools, report }) {
      for (const tool of tools) {
        if (tool.hints?.readOnly !== true) continue
        const last = tool.name.split('.').pop() ?? ''
        const verb = nameWords(last)[0]
        if (verb && MUTATING_VERBS.has(verb)) {
          report({
            tool: tool.name,
            message: `"${tool.name}" is marked readOnly but its name says it changes things ("${verb}")`,
            fix: 'Drop the readOnly hint (and mark it consequential if a person should approve it), or rename it after what it reads.',
          })
        }
      }
    },
  },
  {
    id: 'consequential-unmarked',
    severity: 'error',
    description:
      'A tool named or described after an act a person should approve (delete, pay, send, publish, cancel…) is marked consequential or destructive.',
    check({ tools, report }) {
      for (const tool of tools) {
        if (asksFirst(tool)) continue
        const inName = actInName(tool.name)
        const inDescription = inName ? undefined : actInDescription(tool.description ?? '')
        if (!inName && !inDescription) continue
        const says = inName
          ? `is named after an act a person should approve ("${inName}")`
          : `says it ${JSON.stringify(inDescription)} in its description`
        report({
          tool: tool.name,
          message: `"${tool.name}" ${says} but is neither consequential nor destructive: it runs without asking anyone`,
          fix: 'Add hints: { destructive: true } if it cannot be undone, or { consequential: true }, and a summary, so a person approves each call. If it only reads or previews, say so in its name and description.',
        })
      }
    },
  },
  {
    id: 'description-overlap',
    severity: 'warning',
    description: 'No two tools are described alike: a model must be able to choose.',
    check({ tools, report }) {
      // Each tool is reported once, with the first later tool it is confused with: a group of
      // alike tools gives one finding per tool, not one per pair.
      const overlaps = firstOverlaps(tools.map((tool) => contentWords(tool.description ?? '')))
      overlaps.forEach((overlap, i) => {
        if (!overlap) return
        report({
          tool: tools[i].name,
          message: `"${tools[i].name}" and "${tools[overlap.j].name}" have near-identical descriptions (${Math.round(overlap.similarity * 100)}% of words shared)`,
          fix: `Say in each description what sets it apart from the other (its object, its effect, when to prefer it).`,
        })
      })
    },
  },
  {
    id: 'field-description-missing',
    severity: 'warning',
    description: 'Every input field has a description: models fill fields from it.',
    check({ tools, report }) {
      for (const tool of tools) {
        for (const field of fields(tool.inputSchema)) {
          if (typeof field.schema.description === 'string' && field.schema.description.trim())
            continue
          report({
            tool: tool.name,
            path: field.path,
            message: `"${tool.name}" input field "${field.path}" has no description`,
            fix: "Describe the field in the schema (zod: .describe('The ticket number, e.g. 3')).",
          })
        }
      }
    },
  },
  {
    id: 'signature-over-budget',
    severity: 'warning',
    description: 'The input fits the summary manifest, so agents act without a describe round.',
    check({ tools, signatureBudget, report }) {
      for (const tool of tools) {
        if (!tool.inputSchema) continue
        const signature = tool.signature ?? fullSignature(tool.inputSchema)
        if (signature !== undefined && signature.length > signatureBudget) {
          report({
            tool: tool.name,
            message: `"${tool.name}" has a ${signature.length}-character signature, over the ${signatureBudget}-character budget: agents must describe it first (one more round)`,
            fix: 'Split the tool, drop rarely used fields, or shorten enum values so the input fits the budget.',
          })
        }
      }
    },
  },
  {
    id: 'sensitive-unmarked',
    severity: 'error',
    description: 'Fields that look secret (password, token, card) are marked sensitive.',
    check({ tools, report, unknown }) {
      for (const tool of tools) {
        for (const field of fields(tool.inputSchema)) {
          // Leaves only: a container (`cards`) is judged by the fields it holds.
          if (field.schema.properties || field.schema.items) continue
          if (!looksSensitive(field.name) || isMarkedInSchema(field.schema)) continue
          // A page or a plain manifest does not say what the tool redacts: no guess either way.
          if (!tool.sensitive) {
            unknown(tool.name)
            continue
          }
          if (coveredBy(tool.sensitive, field.path)) continue
          report({
            tool: tool.name,
            path: field.path,
            message: `"${tool.name}" input field "${field.path}" looks secret but is not marked sensitive: its value would show in confirmations, events and devtools`,
            fix: `Add sensitive: ['${field.path}'] to the tool (form fields: type="password" or sensitive in the field options).`,
          })
        }
      }
    },
  },
  {
    id: 'name-unstable',
    severity: 'error',
    description: 'Tool names are stable identifiers, not per-item or generated names.',
    check({ tools, report }) {
      for (const tool of tools) {
        const { name } = tool
        const reason = !isToolName(name)
          ? 'it is not a valid tool name'
          : name
                .split('.')
                .some((s) => /^\d+$/.test(s) || /\d{4,}/.test(s) || /[0-9a-f]{8,}/i.test(s))
            ? 'a segment looks like an id or a generated value'
            : undefined
        if (reason) {
          report({
            tool: name,
            message: `"${name}" is not a stable identifier: ${reason}`,
            fix: 'Name tools after what they do ("tickets.close") and pass the item as input ({ id: 3 }); use [A-Za-z0-9_-] segments joined by ".".',
          })
        }
      }
    },
  },
  {
    id: 'duplicate-name',
    severity: 'error',
    description: 'Every tool has a name and an llmName of its own.',
    check({ tools, report }) {
      const byName = new Map<string, LintEntry>()
      const byLlmName = new Map<string, LintEntry>()
      const repeated = new Set<string>()
      for (const tool of tools) {
        // The manifest's own llmName is the one surfaces show; derived when it has none.
        const llmName = typeof tool.llmName === 'string' ? tool.llmName : toLlmName(tool.name)
        const same = byName.get(tool.name)
        const alike = byLlmName.get(llmName)
        if (same) {
          if (repeated.has(tool.name)) continue
          repeated.add(tool.name)
          report({
            tool: tool.name,
            message: `"${tool.name}" is in the manifest more than once: an agent reaches only one of them`,
            fix: 'Register each tool once, under a name of its own; dispose of the old registration before registering it again.',
          })
        } else if (alike) {
          report({
            tool: tool.name,
            message: `"${alike.name}" and "${tool.name}" have the same llmName "${llmName}": models, which cannot use dots, see one tool for two (the registry refuses the second)`,
            fix: `Rename one of them: "." becomes "__" in an llmName, so "a.b" and "a__b" collide; names longer than 64 characters are cut, so make them differ early.`,
          })
        }
        if (!same) byName.set(tool.name, tool)
        if (!alike) byLlmName.set(llmName, tool)
      }
    },
  },
]
