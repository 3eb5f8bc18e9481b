import { createRequire } from 'node:module';
import Database from 'better-sqlite3';

/** Where better-sqlite3's install (prebuilt or compiled) puts its addon, inside its package. */
const ADDON = 'better-sqlite3/build/Release/better_sqlite3.node';

/**
 * The addon's file, resolved from this package. better-sqlite3 otherwise finds it by walking up
 * from its own JavaScript file, which fails once that file is bundled into the bin (dist/cli.js);
 * its `nativeBinding` option exists for bundles. Undefined (left to better-sqlite3) when an
 * unusual install put the addon elsewhere.
 */
function nativeBinding(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve(ADDON);
  } catch {
    return undefined;
  }
}

/** Opens an SQLite database with better-sqlite3, bundled or not. */
export function openDatabase(path: string, options: Database.Options = {}): Database.Database {
  const binding = nativeBinding();
  return new Database(path, binding === undefined ? options : { ...options, nativeBinding: binding });
}
