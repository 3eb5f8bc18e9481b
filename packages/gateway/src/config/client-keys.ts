import { createHash } from 'node:crypto';
import * as v from 'valibot';

/** A client key and the label usage, logs and stored answers know it by. */
export interface ClientKey {
  name: string;
  key: string;
}

/**
 * The label of a key given as a plain string: a prefix of its SHA-256, stable when keys are
 * reordered (a position would relabel history) and no secret (the key cannot be read back).
 */
export function unnamedKeyLabel(key: string): string {
  return `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

const NonEmpty = v.pipe(v.string(), v.minLength(1, 'must not be empty'));

/** `keys:` entries: `{ name: ci, key: "${CI_KEY}" }`, or the key alone (labelled by its hash). */
export const ClientKeySchema = v.union([
  v.pipe(
    NonEmpty,
    v.transform((key): ClientKey => ({ name: unnamedKeyLabel(key), key })),
  ),
  v.strictObject({ name: NonEmpty, key: NonEmpty }),
]);

/** Keys that share a name or a key: each would make usage by key meaningless. */
export function duplicateKeyProblems(keys: readonly ClientKey[]): string[] {
  const problems: string[] = [];
  keys.forEach((entry, i) => {
    const first = keys.findIndex((other) => other.name === entry.name);
    if (first < i) problems.push(`keys.${i}.name: the same name as keys.${first}`);
    else if (keys.findIndex((other) => other.key === entry.key) < i)
      problems.push(`keys.${i}.key: the same key as keys.${keys.findIndex((other) => other.key === entry.key)}`);
  });
  return problems;
}
