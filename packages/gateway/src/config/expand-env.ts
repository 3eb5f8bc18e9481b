/**
 * Thrown when the config file is unreadable or invalid. The message has one line per problem
 * (`<file>: <field>: <what is wrong>`), every problem found, so one edit fixes them all.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  /** The problems, each `<field>: <what is wrong>` (without the file name). */
  readonly problems: readonly string[];

  constructor(message: string, problems: readonly string[] = [message]) {
    super(message);
    this.problems = problems;
  }

  /** One error for every problem found in `source` (a file name, or `config` for text). */
  static of(source: string, problems: readonly string[]): ConfigError {
    return new ConfigError(problems.map((problem) => `${source}: ${problem}`).join('\n'), problems);
  }
}

/** An unset `${VAR}` and the field that names it. */
export interface MissingVariable {
  path: string;
  name: string;
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** A field's path in the one style every config message uses: `upstreams.openai.baseUrl`, `keys.0`. */
export function joinPath(parent: string, key: string | number): string {
  return parent ? `${parent}.${key}` : String(key);
}

/**
 * Expands `${VAR}` (and `${VAR:-default}`) in every string of a parsed config, from `env`. An
 * unset variable without a default is collected into `missing` (every one, not just the first)
 * and expands to the empty string.
 */
export function expandEnv(value: unknown, env: Record<string, string | undefined>, missing: MissingVariable[] = [], path = ''): unknown {
  if (typeof value === 'string') {
    return value.replace(VARIABLE, (_match, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      missing.push({ path: path || '(root)', name });
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => expandEnv(item, env, missing, joinPath(path, i)));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = expandEnv(item, env, missing, joinPath(path, key));
    return out;
  }
  return value;
}
