import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ConfigError } from './expand-env.js';

const require = createRequire(import.meta.url);

/**
 * Config text as data. JSON is read by `JSON.parse`; anything else (or JSON that does not parse)
 * by the YAML parser, loaded only then: it is the largest module a JSON-configured gateway would
 * otherwise keep in memory for nothing.
 */
export function parseConfigText(text: string, source: string): unknown {
  if (text.trimStart().startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch {
      // YAML accepts more (comments, trailing commas are still errors) and words its errors better.
    }
  }
  const yaml = require('yaml') as typeof import('yaml');
  try {
    return yaml.parse(text) ?? {};
  } catch (error) {
    // The first line only: YAML's next lines quote the file, and a config's values are secrets.
    const first = error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'unreadable';
    throw ConfigError.of(source, [first.replace(/:$/, '')]);
  }
}

/** A config file's text. */
export function readConfigText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}
