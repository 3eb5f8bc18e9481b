// Build step of the bundled bin: the licenses of the packages bundled into it, written beside it.
// Their licenses (MIT and the like) ask that copies keep the notice; a bundle is such a copy.
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Metafile {
  inputs: Record<string, unknown>;
}

interface PackageInfo {
  name: string;
  version: string;
  license?: string;
}

const LICENSE_FILE = /^(licen[cs]e|copying)(\.(md|txt|markdown))?$/i;

/** The folder of the package an input path lies in (`…/node_modules/@scope/name`), if any. */
function packageDirOf(input: string): string | undefined {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  const depth = rest[0]?.startsWith('@') ? 2 : 1;
  return `${input.slice(0, at)}node_modules/${rest.slice(0, depth).join('/')}`;
}

/**
 * Reads `<outDir>/metafile-esm.json` (esbuild's list of the bundle's inputs), writes
 * `<outDir>/<name>.licenses.txt` with the license text of every package under node_modules that
 * went into the bundle, then deletes the metafile. Throws when a bundled package has no license
 * file: a bundle is not shipped without its notices.
 */
export function writeBundleNotices(outDir: string, name: string): void {
  const metafilePath = join(outDir, 'metafile-esm.json');
  const metafile = JSON.parse(readFileSync(metafilePath, 'utf8')) as Metafile;
  const dirs = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const dir = packageDirOf(input);
    if (dir) dirs.add(dir);
  }
  const sections: string[] = [];
  const packages = [...dirs].map((dir) => ({ dir, info: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageInfo }));
  packages.sort((a, b) => (a.info.name < b.info.name ? -1 : 1));
  for (const { dir, info } of packages) {
    const file = readdirSync(dir).find((entry) => LICENSE_FILE.test(entry));
    if (!file) throw new Error(`bundle notices: ${info.name} has no license file in ${dir}`);
    sections.push(`== ${info.name} ${info.version} (${info.license ?? 'see below'})\n\n${readFileSync(join(dir, file), 'utf8').trim()}\n`);
  }
  const header = `${name}.js bundles these ${sections.length} packages; their licenses follow.\n`;
  writeFileSync(join(outDir, `${name}.licenses.txt`), [header, ...sections].join('\n'));
  rmSync(metafilePath);
}
