import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { GatewayConfig } from '../config/schema.js';
import type { Gateway } from '../server/start.js';

/** How long file changes settle before a watched config is read (an editor writes in steps). */
export const WATCH_SETTLE_MS = 200;

/**
 * Reloads the gateway's config on SIGHUP and, with `watchFile`, when the file changes. Returns
 * the function that stops both. Each reload reads the file anew; an invalid one is logged by the
 * gateway and the running config kept.
 */
export function reloadOnSignal(gateway: Pick<Gateway, 'reload'>, load: () => GatewayConfig, options: { watchFile?: string } = {}): () => void {
  const reload = () => void gateway.reload(load);
  process.on('SIGHUP', reload);
  let watcher: FSWatcher | undefined;
  let settle: ReturnType<typeof setTimeout> | undefined;
  if (options.watchFile !== undefined) {
    // The folder, not the file: an editor that saves by renaming a new file over it would leave
    // a watch on the file looking at the old one.
    const name = basename(options.watchFile);
    watcher = watch(dirname(options.watchFile), { persistent: false }, (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(settle);
      settle = setTimeout(reload, WATCH_SETTLE_MS);
    });
  }
  return () => {
    process.off('SIGHUP', reload);
    clearTimeout(settle);
    watcher?.close();
  };
}
