import { isObject } from '../base/guards'
import type { Problem } from '../base/problem'
import { isSegment, joinName, nameLabel } from '../tool/names'
import { createScopeQueue } from '../tool/scopeQueue'
import type { ScopeNode, ToolRecord } from '../tool/toolRecord'
import type { Scope, ScopeOptions } from '../types'

/** What the scope tree needs of its registry. */
export interface ScopeTreeParts {
  /** Development throws with the fix; production reports and the scope fails closed. */
  misconfigured(code: string, problem: Problem): void
  /** Something changed: a new revision. */
  changed(): void
  /** Removes a tool of a disposed scope (registration.ts). */
  disposeTool(record: ToolRecord): void
}

/** A registry's scopes: the root, and the nodes behind the handles it gave out. */
export interface ScopeTree {
  readonly root: ScopeNode
  /** The node of a handle this registry made; `undefined` for another registry's. */
  nodeOf(scope: Scope): ScopeNode | undefined
  /** A scope under `parent` (a dead one, disposed and hidden, when misconfigured). */
  childScope(parent: ScopeNode, name: string, scopeOptions?: ScopeOptions): Scope
}

/** Creates a registry's scope tree, with its root. */
export function createScopeTree({
  misconfigured,
  changed,
  disposeTool,
}: ScopeTreeParts): ScopeTree {
  const scopeNodes = new WeakMap<Scope, ScopeNode>()

  function createScopeNode(parent: ScopeNode | undefined, path: string, when: boolean): ScopeNode {
    const node: ScopeNode = {
      path,
      parent,
      when,
      disposed: false,
      children: new Set(),
      tools: new Set(),
      queue: createScopeQueue(),
      handle: {
        path,
        scope: (name, scopeOptions) => childScope(node, name, scopeOptions),
        setWhen(next) {
          if (typeof next !== 'boolean') {
            misconfigured('invalid_scope', ['setWhen type', typeof next])
            return
          }
          if (node.disposed || node.when === next) return
          node.when = next
          changed()
        },
        dispose: () => disposeScope(node),
      },
    }
    parent?.children.add(node)
    // Scopes are looked up by handle, so a handle from another registry is refused.
    scopeNodes.set(node.handle, node)
    return node
  }

  function childScope(parent: ScopeNode, name: string, scopeOptions?: ScopeOptions): Scope {
    const o: ScopeOptions = isObject(scopeOptions) ? scopeOptions : {}
    const problem: Problem | undefined = !isSegment(name)
      ? ['scope name', nameLabel(name)]
      : scopeOptions !== undefined && !isObject(scopeOptions)
        ? ['scope options', name]
        : o.when !== undefined && typeof o.when !== 'boolean'
          ? ['scope flag', name, 'when']
          : o.transparent !== undefined && typeof o.transparent !== 'boolean'
            ? ['scope flag', name, 'transparent']
            : parent.disposed
              ? ['scope disposed', name]
              : undefined
    if (problem) {
      misconfigured('invalid_scope', problem)
      // A scope that registers nothing: what a misconfigured scope becomes in production.
      const dead = createScopeNode(undefined, parent.path, false)
      dead.disposed = true
      return dead.handle
    }
    const path = o.transparent === true ? parent.path : joinName(parent.path, name)
    const node = createScopeNode(parent, path, o.when !== false)
    if (!node.when) changed()
    return node.handle
  }

  function disposeScope(node: ScopeNode) {
    if (node.disposed) return
    node.disposed = true
    for (const child of [...node.children]) disposeScope(child)
    for (const record of [...node.tools]) disposeTool(record)
    node.parent?.children.delete(node)
    changed()
  }

  return {
    root: createScopeNode(undefined, '', true),
    nodeOf: (scope) => scopeNodes.get(scope),
    childScope,
  }
}

/** Whether a scope and every scope above it are shown and alive. */
export const visible = (node: ScopeNode | undefined): boolean => {
  for (let n = node; n; n = n.parent) if (!n.when || n.disposed) return false
  return true
}
