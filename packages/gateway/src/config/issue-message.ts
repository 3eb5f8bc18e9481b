import type * as v from 'valibot';

/**
 * A config validation issue in words that name the field's expected shape and never its value:
 * valibot's own messages quote the value received (`Expected Array but received "sk-..."`), and
 * a config's values are API keys as often as not.
 */
export function issueMessage(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema') return issue.type === 'strict_object' && issue.expected === 'never' ? 'unknown field' : `expected ${issue.expected ?? issue.type}`;
  // The schema words every validation itself (`must be an absolute URL`); valibot's default
  // wording ("Invalid ...: ... received ...") is replaced, should a validation lack its own.
  if (!issue.message.startsWith('Invalid ')) return issue.message;
  return issue.expected === null ? `fails its ${issue.type.replaceAll('_', ' ')} check` : `expected ${issue.expected}`;
}

/** An issue's field as a dotted path (`upstreams.a.baseUrl`, `keys.0`), `(root)` for the whole file. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  return issue.path?.map((item) => String(item.key)).join('.') || '(root)';
}
