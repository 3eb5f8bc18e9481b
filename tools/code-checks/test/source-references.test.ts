// Published sources explain themselves: a comment (or a package README) may link a public
// document (an API reference, an RFC, a spec section) but not point at what a reader of the
// package cannot open: this repository's issue tracker, a design document's rule numbers, a
// local file outside the package, or a path on a developer's machine. Checked over every non-test
// TypeScript file under packages/*/src and each package's README.md, each finding reported with
// its file and line.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

/** What a published comment may not cite, each with why a reader cannot follow it. */
const FORBIDDEN: readonly (readonly [RegExp, string])[] = [
  [/\bissue #?\d+\b/i, 'an issue of the tracker'],
  [/\bcontracts? \d+\b/i, "a design document's numbered contract"],
  [/\b(?:the design'?s?|of the design)\b/i, 'a design document'],
  [/\bR\d{1,2}\b(?![-\w])/, "a design document's rule number"],
  // /tmp is no one's machine: a README may tell a reader to put a file there.
  [/(?:^|[\s('"`])\/(?:work|home|Users|root)\/[\w.-]+/, "a path on a developer's machine"],
  [/(?:\.\.\/)+shared\/|\b(?:DESIGN|STYLE|REGRESSIONS|CLIENTS|TOOLCHAIN|mapping)\.md\b/, 'a document that is not in the package'],
];

/** Every `.ts` file under `dir`, tests and declaration files left out. */
function sourcesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourcesUnder(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** `file:line: why` for each line of `text` that cites something in {@link FORBIDDEN}. */
export function forbiddenReferences(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const [pattern, why] of FORBIDDEN) if (pattern.test(line)) found.push(`${file}:${index + 1}: cites ${why}: ${line.trim()}`);
  });
  return found;
}

describe('published sources cite only what their readers can open', () => {
  it('finds each kind of reference it forbids (the check can fail)', () => {
    const probe = [
      '// kept whole (issue 24)',
      '// contracts 6 and 7 of the stream guard',
      "// the design's R8: text beside results",
      '// see /work/shared/mapping.md',
      '// RFC 9110 §8.6, https://platform.openai.com/docs/api-reference/chat',
    ].join('\n');
    expect(forbiddenReferences('probe.ts', probe)).toEqual([
      'probe.ts:1: cites an issue of the tracker: // kept whole (issue 24)',
      "probe.ts:2: cites a design document's numbered contract: // contracts 6 and 7 of the stream guard",
      "probe.ts:3: cites a design document: // the design's R8: text beside results",
      "probe.ts:3: cites a design document's rule number: // the design's R8: text beside results",
      "probe.ts:4: cites a path on a developer's machine: // see /work/shared/mapping.md",
      'probe.ts:4: cites a document that is not in the package: // see /work/shared/mapping.md',
    ]);
  });

  it('holds for every package', () => {
    const packages = join(root, 'packages');
    const found: string[] = [];
    for (const name of readdirSync(packages)) {
      let files: string[];
      try {
        files = sourcesUnder(join(packages, name, 'src'));
      } catch {
        continue;
      }
      const readme = join(packages, name, 'README.md');
      if (existsSync(readme)) files.push(readme);
      for (const file of files) found.push(...forbiddenReferences(relative(root, file), readFileSync(file, 'utf8')));
    }
    expect(found).toEqual([]);
  });
});
