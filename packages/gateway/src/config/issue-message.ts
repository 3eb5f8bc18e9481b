import type * as v from 'valibot';
import { didYouMean } from './did-you-mean.js';
import { unknownFields } from './known-keys.js';

type Issue = v.BaseIssue<unknown>;

/**
 * A config validation issue in words that name the field's expected shape and never its value:
 * valibot's own messages quote the value received (`Expected Array but received "sk-..."`), and
 * a config's values are API keys as often as not.
 */
export function issueMessage(issue: Issue): string {
  if (issue.kind === 'schema') return issue.input === undefined ? 'is required' : `expected ${issue.expected ?? issue.type}`;
  // The schema words every validation itself (`must be an absolute URL`); valibot's default
  // wording ("Invalid ...: ... received ...") is replaced, should a validation lack its own.
  if (!issue.message.startsWith('Invalid ')) return issue.message;
  return issue.expected === null ? `fails its ${issue.type.replaceAll('_', ' ')} check` : `expected ${issue.expected}`;
}

/** A field path as config messages write it: `upstreams.a.baseUrl`, `keys.0`, `(root)` for the file. */
function pathText(keys: readonly (string | number)[]): string {
  return keys.join('.') || '(root)';
}

/** valibot's "unknown key" issue: reported by {@link unknownFields} instead, every one of them. */
function isUnknownKey(issue: Issue): boolean {
  return issue.type === 'strict_object' && issue.expected === 'never';
}

/**
 * The issues worth reporting, as `[path, issue]`: a union that failed on an object
 * (`ledger: { pth: x }`) is reported by what is wrong inside that object, not as
 * `expected (false | Object)`. A union's inner issues carry paths relative to the union.
 */
function reported(issue: Issue, prefix: readonly (string | number)[] = []): [string, Issue][] {
  const keys = [...prefix, ...(issue.path?.map((item) => item.key as string | number) ?? [])];
  if (issue.type !== 'union' || !issue.issues) return isUnknownKey(issue) ? [] : [[pathText(keys), issue]];
  const onObject = typeof issue.input === 'object' && issue.input !== null && !Array.isArray(issue.input);
  const deeper = onObject ? issue.issues.filter((inner) => (inner.path?.length ?? 0) > 0) : [];
  return deeper.length > 0 ? deeper.flatMap((inner) => reported(inner, keys)) : [[pathText(keys), issue]];
}

/**
 * Every problem valibot found in `value`, plus every unknown field (with the known field it most
 * likely meant: `unknown field (did you mean warningsHeader?)`), as `<field>: <what is wrong>`,
 * once each. `skip` names fields already reported otherwise (an unset variable).
 */
export function describeIssues(issues: readonly Issue[], schema: v.GenericSchema, value: unknown, skip: ReadonlySet<string> = new Set()): string[] {
  const shapes = issues
    .flatMap((issue) => reported(issue))
    .filter(([path]) => !skip.has(path))
    .map(([path, issue]) => `${path}: ${issueMessage(issue)}`);
  const unknown = unknownFields(schema, value).map(({ path, known }) => {
    const meant = didYouMean(String(path[path.length - 1]), known);
    return `${pathText(path)}: unknown field${meant ? ` (did you mean ${meant}?)` : ''}`;
  });
  return [...new Set([...shapes, ...unknown])];
}
