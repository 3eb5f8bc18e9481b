import { defineConfig } from 'vitest/config';
import { sharedConfig, sourceConditions } from '../../vitest.shared';

// Without vite's `module` condition: the AWS packages (@smithy/*) export a `module` build whose
// extensionless imports only bundlers resolve; Node loads their `node` build, and so must the tests.
const conditions = sourceConditions.filter((condition) => condition !== 'module');
const config = sharedConfig();
// test/services needs real PostgreSQL and Redis: its own run (vitest.services.config.ts).
config.test!.exclude = ['test/services/**', 'node_modules/**'];
export default defineConfig({ ...config, resolve: { conditions }, ssr: { resolve: { conditions } } });
