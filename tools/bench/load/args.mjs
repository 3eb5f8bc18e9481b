// What every load script reads from its command line, and where it runs from.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** tools/bench/load. */
export const HERE = dirname(fileURLToPath(import.meta.url));
/** The repository's root. */
export const REPO = resolve(HERE, '../../..');

/** `--name=value` from the command line, else `dflt`. */
export function arg(name, dflt) {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : dflt;
}

/** The shared peers folder (mock upstream, yardstick proxies, payloads): `--peers-scripts=`. */
export const PEERS_SCRIPTS = arg('peers-scripts', resolve(REPO, '../shared/peers'));
