// Module hooks for `node:module`'s `register`: every specifier resolved (what it names, who
// imported it, where it resolved) is appended as a JSON line to the file named in `data.file`.
// Hooks run on a thread of their own, so a file, written synchronously, is how they report.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${JSON.stringify({ specifier, parent: context.parentURL ?? null, url: resolved.url })}\n`);
  return resolved;
}
