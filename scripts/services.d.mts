// Types of services.mjs, for the TypeScript tests that start real servers with it.
export interface RunningServer {
  url: string;
  port: number;
  stop(): void;
}
export interface Services {
  databaseUrl: string;
  redisUrl: string;
  /** With `startServices({ chromium: true })`: the Chromium binary. */
  chromiumPath?: string;
  installed: string[];
  installMs: number;
  startMs: number;
  stop(): void;
}
export const SERVICE_START_TIMEOUT_MS: number;
export function installPackages(names: string[]): string[];
export function freePort(): Promise<number>;
export function waitForPort(port: number, timeoutMs?: number, what?: string): Promise<void>;
export function startPostgres(dir: string): Promise<RunningServer & { start(): void }>;
export function startRedis(dir: string, port?: number): Promise<RunningServer & { pid: number }>;
export function stopPid(pid: number): void;
export function chromiumPath(): string;
export function startServices(options?: { haproxy?: boolean; chromium?: boolean }): Promise<Services>;
