import { createRequire } from 'node:module';
import Database from 'better-sqlite3';

/** Where better-sqlite3's install (prebuilt or compiled) puts its addon, inside its package. */
const ADDON = 'better-sqlite3/build/Release/better_sqlite3.node';

let addonPath: string | null | undefined;

/**
 * The addon's file, resolved from this package. better-sqlite3 otherwise finds it by walking up
 * from its own JavaScript file, which fails once that file is bundled into the bin (dist/cli.js);
 * its `nativeBinding` option exists for bundles. `null` (left to better-sqlite3) when an unusual
 * install put the addon elsewhere.
 */
function nativeBinding(): string | null {
  if (addonPath === undefined) {
    try {
      addonPath = createRequire(import.meta.url).resolve(ADDON);
    } catch {
      addonPath = null;
    }
  }
  return addonPath;
}

/** Opens an SQLite database with better-sqlite3, bundled or not. */
export function openDatabase(path: string, options: Database.Options = {}): Database.Database {
  const binding = nativeBinding();
  return new Database(path, binding === null ? options : { ...options, nativeBinding: binding });
}
