// Real PostgreSQL and Redis for the shared-store targets (issue 21), started through the repo's
// scripts/services.mjs as the gateway's service tests start them: free loopback ports, throw-away
// data dirs, stopped by pid. Pinned to the rig's CPU so they never run on the target's.
import { startServices } from '../../../scripts/services.mjs';
import { pinListener } from './proc.mjs';

/** Starts both, fills `services` with their URLs, and returns the function that stops them. */
export async function startSharedStores(services, cpu) {
  const running = await startServices();
  try {
    for (const url of [running.databaseUrl, running.redisUrl]) pinListener(Number(new URL(url).port), cpu);
  } catch (error) {
    running.stop();
    throw error;
  }
  Object.assign(services, { databaseUrl: running.databaseUrl, redisUrl: running.redisUrl });
  console.log(`services: ${running.databaseUrl}, ${running.redisUrl} (pinned to CPU ${cpu})`);
  return () => running.stop();
}
