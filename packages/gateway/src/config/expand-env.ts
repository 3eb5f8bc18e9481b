/** Thrown when the config file is unreadable or invalid; the message names the field. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` (and `${VAR:-default}`) in every string of a parsed config, from `env`.
 * A variable that is unset and has no default is an error naming the field.
 */
export function expandEnv(value: unknown, env: Record<string, string | undefined>, path = ''): unknown {
  if (typeof value === 'string') {
    return value.replace(VARIABLE, (_match, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      throw new ConfigError(`${path || '(root)'}: environment variable ${name} is not set`);
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => expandEnv(item, env, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = expandEnv(item, env, path ? `${path}.${key}` : key);
    return out;
  }
  return value;
}
