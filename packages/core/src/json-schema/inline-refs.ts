import type { JsonSchema } from '../json.js';
import { isJsonObject } from '../json.js';
import { MAX_JSON_DEPTH, checkJsonDepth } from '../json-depth.js';
import { joinPath } from '../validate.js';
import type { SchemaContext } from './walk.js';
import { mapSubschemas, reportAt, rootPath } from './walk.js';

/** How {@link inlineRefs} treats a `$ref` met again inside its own expansion. */
export type RecursionMode =
  /** Keep it as `$ref: "#/$defs/<name>"` (or `"#"`) and emit those definitions at the root. */
  | { mode: 'keep' }
  /** Unroll it `depth` times, then replace it with a stub of the target's `type` and warn. */
  | { mode: 'cut'; depth: number };

/** Keywords that only describe; a `$ref` sibling with one of them overrides the target's value. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'example', '$comment', 'deprecated']);

interface State {
  root: JsonSchema;
  recursion: RecursionMode;
  /** Refs found inside their own expansion. */
  recursive: Set<string>;
  /** `$defs` names for the recursive refs, in `keep` mode. */
  names: Map<string, string>;
  context: SchemaContext | undefined;
  /** Where the schema sits in the request: warnings are named from here. */
  rootPath: string;
  /** False while probing for recursive refs, so each warning is reported once. */
  report: boolean;
  /** Schema nodes written in the current pass; see {@link MAX_INLINED_NODES}. */
  written: number;
  overBudget: boolean;
}

/**
 * Inlining copies a definition at every use, so a schema whose definitions each use the next one
 * twice grows exponentially ("billion laughs"). Once a pass has written this many schema nodes,
 * further refs become type stubs with a warning: a hostile tool schema must not exhaust memory.
 */
export const MAX_INLINED_NODES = 10_000;

/**
 * Inlining can also nest: a chain of definitions each using the next makes a schema as deep as
 * the chain is long, and every later walk (the dialect rewriters, `JSON.stringify`) recurses on
 * it. A ref met deeper than this many schema levels is cut to its type, with a warning.
 */
export const MAX_INLINED_DEPTH = MAX_JSON_DEPTH;

/**
 * Replaces every local `$ref` (`#`, `#/$defs/...`, `#/definitions/...`, any JSON pointer) by the
 * schema it points at and removes `$defs` / `definitions`. Unresolvable refs (remote, `$anchor`)
 * are dropped with a warning. Never mutates `schema`; returns `schema` itself when no key in it is
 * `$ref`, `$defs` or `definitions` (most tool schemas: nothing to copy). `path` names where the
 * schema sits in the request for warnings (default: `context.path`). Throws `invalid_request`
 * for a schema nested deeper than `MAX_JSON_DEPTH`.
 */
export function inlineRefs(schema: JsonSchema, context: SchemaContext | undefined, recursion: RecursionMode, path = rootPath(context)): JsonSchema {
  // Every walk here and after recurses: a schema nested past MAX_JSON_DEPTH is refused up front
  // (invalid_request naming the path), whether it came through a decoder or was built in code.
  // The ref scan measures the depth as it goes, so a schema without refs (most) is walked once.
  const scan = scanRefKeys(schema, MAX_JSON_DEPTH);
  if (scan === 'no-refs') return schema;
  // Too deep (throws, naming the path), or refs found before the scan reached every node.
  checkJsonDepth(schema, { path });
  const state: State = {
    root: schema,
    recursion,
    recursive: new Set(),
    names: new Map(),
    context,
    rootPath: path,
    report: false,
    written: 0,
    overBudget: false,
  };
  if (recursion.mode === 'keep') {
    // Probe until the set of recursive refs is stable, so every use of one becomes a `$ref`.
    for (let size = -1; size !== state.recursive.size; ) {
      size = state.recursive.size;
      expandRoot(state);
    }
  }
  state.report = true;
  return expandRoot(state);
}

/**
 * What {@link scanRefKeys} found: no `$ref`, `$defs` or `definitions` key anywhere and no nesting
 * past the limit; a ref key (the scan stopped there, the rest unmeasured); or nesting past the
 * limit (the scan stopped there).
 */
type Scan = 'no-refs' | 'refs' | 'too-deep';

/**
 * Looks for an object with a `$ref`, `$defs` or `definitions` key (data keywords included) in
 * `value`, whose containers may nest `room` levels. Recursion is bounded by `room`.
 */
function scanRefKeys(value: unknown, room: number): Scan {
  if (typeof value !== 'object' || value === null) return 'no-refs';
  if (room === 0) return 'too-deep';
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = scanRefKeys(item, room - 1);
      if (found !== 'no-refs') return found;
    }
    return 'no-refs';
  }
  for (const key in value) {
    if (key === '$ref' || key === '$defs' || key === 'definitions') return 'refs';
    const found = scanRefKeys((value as Record<string, unknown>)[key], room - 1);
    if (found !== 'no-refs') return found;
  }
  return 'no-refs';
}

function expandRoot(state: State): JsonSchema {
  state.written = 0;
  state.overBudget = false;
  const path = state.rootPath;
  const out = expand(state, state.root, path, ['#'], 0);
  const result: JsonSchema = isJsonObject(out) ? out : {};
  if (state.recursion.mode !== 'keep') return result;
  const defs: JsonSchema = {};
  for (const ref of state.recursive) {
    if (ref === '#') continue;
    const name = defName(state, ref);
    defs[name] = expand(state, resolvePointer(state.root, ref), joinPath(joinPath(path, '$defs'), name), ['#', ref], 0);
  }
  return Object.keys(defs).length > 0 ? { ...result, $defs: defs } : result;
}

function expand(state: State, node: unknown, path: string, stack: readonly string[], depth: number): unknown {
  if (!isJsonObject(node)) return node;
  state.written++;
  const { $ref: ref, $defs: _defs, definitions: _definitions, ...rest } = node;
  const siblings = mapSubschemas(rest, path, (child, at) => expand(state, child, at, stack, depth + 1));
  if (ref === undefined) return siblings;
  const target = typeof ref === 'string' ? resolvePointer(state.root, ref) : undefined;
  if (typeof ref !== 'string' || target === undefined) {
    warn(state, 'dropped-field', joinPath(path, '$ref'), `cannot resolve $ref ${JSON.stringify(ref)}; only local JSON pointers are inlined`);
    return siblings;
  }
  const seen = stack.filter((item) => item === ref).length;
  if (state.recursion.mode === 'keep' && (seen > 0 || state.recursive.has(ref))) {
    state.recursive.add(ref);
    return { ...siblings, $ref: ref === '#' ? '#' : `#/$defs/${defName(state, ref)}` };
  }
  if (state.recursion.mode === 'cut' && seen >= state.recursion.depth) {
    warn(state, 'lossy-conversion', path, `recursive $ref "${ref}" cut after ${state.recursion.depth} levels`);
    return typeStub(target, siblings);
  }
  if (depth > MAX_INLINED_DEPTH) {
    warn(state, 'lossy-conversion', path, `schema nested deeper than ${MAX_INLINED_DEPTH} levels once $refs are inlined; this ref is cut to its type`);
    return typeStub(target, siblings);
  }
  if (state.written > MAX_INLINED_NODES) {
    if (!state.overBudget) {
      state.overBudget = true;
      warn(state, 'lossy-conversion', path, `schema exceeds ${MAX_INLINED_NODES} nodes once $refs are inlined; this and later refs are cut to their type`);
    }
    return typeStub(target, siblings);
  }
  const expanded = expand(state, target, path, [...stack, ref], depth + 1);
  return combine(expanded, siblings);
}

/** What a cut ref becomes: the target's type (if it names one) with the ref's siblings. */
function typeStub(target: unknown, siblings: JsonSchema): JsonSchema {
  const type = isJsonObject(target) ? target.type : undefined;
  return typeof type === 'string' ? { type, ...siblings } : siblings;
}

/** The target of a ref with its siblings: 2020-12 applies both, so conflicting constraints go under `allOf`. */
function combine(target: unknown, siblings: JsonSchema): unknown {
  if (Object.keys(siblings).length === 0) return target;
  if (target === true) return siblings;
  if (!isJsonObject(target)) return { allOf: [target, siblings] };
  const conflict = Object.keys(siblings).some((key) => key in target && !ANNOTATIONS.has(key));
  return conflict ? { allOf: [target, siblings] } : { ...target, ...siblings };
}

/** Resolves `#` plus a JSON pointer (RFC 6901, URI-escaped) against the root; undefined if it cannot. */
function resolvePointer(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isJsonObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

function defName(state: State, ref: string): string {
  const known = state.names.get(ref);
  if (known !== undefined) return known;
  const match = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref);
  const base = match?.[1] !== undefined ? decodeURIComponent(match[1]).replace(/~1/g, '/').replace(/~0/g, '~') : ref.slice(2).replace(/[^\w-]/g, '_');
  const taken = new Set(state.names.values());
  let name = base || 'root';
  for (let suffix = 2; taken.has(name); suffix++) name = `${base}_${suffix}`;
  state.names.set(ref, name);
  return name;
}

function warn(state: State, code: string, path: string, message: string): void {
  if (state.report) reportAt(state.context, code, path, message);
}
