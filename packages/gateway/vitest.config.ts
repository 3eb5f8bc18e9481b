import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared';

const config = sharedConfig();
// test/services needs real PostgreSQL and Redis: its own run (vitest.services.config.ts).
config.test!.exclude = ['test/services/**', 'node_modules/**'];

export default defineConfig(config);
