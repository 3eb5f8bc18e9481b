import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The dashboard's files and their content types: the two pages, its script and styles, and Chart.js. */
export const UI_FILES = {
  'dashboard.html': 'text/html; charset=utf-8',
  'sign-in.html': 'text/html; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
  'dashboard.css': 'text/css; charset=utf-8',
  'chart.umd.min.js': 'text/javascript; charset=utf-8',
} as const;

export type UiFile = keyof typeof UI_FILES;

/** Chart.js's browser build, in its package (a pinned dependency; the build copies it into dist/ui). */
export const CHART_FILE: UiFile = 'chart.umd.min.js';

/**
 * Where the files are: `dist/ui/` beside the built module (the build copies them there, so the
 * bundled bin and the standalone tarball carry them), else `src/ui/assets/` beside this source
 * file, with Chart.js from its package.
 */
function locate(file: UiFile): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [join(here, 'ui'), join(here, 'assets')]) {
    const path = join(dir, file);
    if (existsSync(path)) return path;
  }
  if (file === CHART_FILE) return join(dirname(createRequire(import.meta.url).resolve('chart.js')), CHART_FILE);
  throw new Error(`dashboard file ${file} is missing from the gateway's package`);
}

const loaded = new Map<UiFile, string>();

/** A dashboard file's text, read once per process (about 250 KB in all). */
export function uiFile(file: UiFile): string {
  let text = loaded.get(file);
  if (text === undefined) {
    text = readFileSync(locate(file), 'utf8');
    loaded.set(file, text);
  }
  return text;
}
