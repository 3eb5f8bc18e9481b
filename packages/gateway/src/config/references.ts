import { joinPath } from './expand-env.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Fields that name an upstream the config does not define (`routes.0.upstream`,
 * `modelFamilies.claude`), read from the unvalidated config so they are reported along with its
 * other problems; fields of the wrong shape are left to the schema's own messages.
 */
export function unknownUpstreamReferences(config: unknown): string[] {
  if (!isRecord(config) || !isRecord(config.upstreams)) return [];
  const upstreams = config.upstreams;
  const problems: string[] = [];
  const check = (path: string, name: unknown) => {
    if (typeof name === 'string' && name !== '' && !Object.hasOwn(upstreams, name)) problems.push(`${path}: names no upstream of upstreams`);
  };
  if (Array.isArray(config.routes)) {
    config.routes.forEach((route, i) => {
      if (!isRecord(route)) return;
      const path = joinPath(joinPath('routes', i), 'upstream');
      const checkEntry = (entryPath: string, entry: unknown) => (isRecord(entry) ? check(joinPath(entryPath, 'name'), entry.name) : check(entryPath, entry));
      if (Array.isArray(route.upstream)) route.upstream.forEach((entry, j) => checkEntry(joinPath(path, j), entry));
      else checkEntry(path, route.upstream);
    });
  }
  if (isRecord(config.modelFamilies)) {
    for (const [family, name] of Object.entries(config.modelFamilies)) check(joinPath('modelFamilies', family), name);
  }
  return problems;
}
