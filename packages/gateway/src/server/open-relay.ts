import { isIPv4 } from 'node:net';
import { ConfigError } from '../config/expand-env.js';

/** Whether `host` is reachable from this machine only: `localhost`, 127.0.0.0/8, `::1`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  return isIPv4(v4) && v4.startsWith('127.');
}

/**
 * Refuses to serve on an address others can reach with no client keys, unless the config says
 * `allowOpen: true`: anyone who finds an open gateway spends its upstream API keys.
 */
export function refuseOpenRelay(host: string, keyCount: number, allowOpen: boolean | undefined): void {
  if (keyCount > 0 || allowOpen === true || isLoopbackHost(host)) return;
  throw new ConfigError(
    `listen.host: ${host || '(all addresses)'} is reachable from other machines and no client keys are set, so anyone could spend the upstream keys; add keys, or set allowOpen: true to serve it open`,
  );
}
