import type { TestProject } from 'vitest/node';
import { startServices } from '../../../../scripts/services.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
    chromiumPath: string;
  }
}

/**
 * Starts PostgreSQL and Redis once for the run (installing them, HAProxy for the balancer test and
 * Chromium for the dashboard's browser test first when missing); stops them after.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const services = await startServices({ haproxy: true, chromium: true });
  console.log(
    `real servers: ${services.installed.length > 0 ? `installed ${services.installed.join(', ')} in ${Math.round(services.installMs)} ms, ` : ''}started in ${Math.round(services.startMs)} ms`,
  );
  project.provide('databaseUrl', services.databaseUrl);
  project.provide('redisUrl', services.redisUrl);
  project.provide('chromiumPath', services.chromiumPath!);
  return () => services.stop();
}
