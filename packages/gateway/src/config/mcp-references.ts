import { didYouMean } from './did-you-mean.js';
import { joinPath } from './expand-env.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Routes' `mcpServers` entries that name no server of `mcp.servers`, with the name most likely
 * meant; read from the unvalidated config so they are reported along with its other problems.
 */
export function unknownMcpServerReferences(config: unknown): string[] {
  if (!isRecord(config) || !Array.isArray(config.routes)) return [];
  const servers = isRecord(config.mcp) && isRecord(config.mcp.servers) ? Object.keys(config.mcp.servers) : [];
  const problems: string[] = [];
  config.routes.forEach((route, i) => {
    if (!isRecord(route) || !Array.isArray(route.mcpServers)) return;
    route.mcpServers.forEach((name, j) => {
      if (typeof name !== 'string' || name === '' || servers.includes(name)) return;
      const meant = didYouMean(name, servers);
      problems.push(`${joinPath(joinPath(joinPath('routes', i), 'mcpServers'), j)}: names no server of mcp.servers${meant ? ` (did you mean ${meant}?)` : ''}`);
    });
  });
  return problems;
}
