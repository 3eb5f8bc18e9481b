import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared';

// The shared stores' tests, against real PostgreSQL and Redis that test/services/global-setup.ts
// installs (when missing, as root) and starts on free loopback ports, once for the whole run.
const config = sharedConfig({ include: ['test/services/**/*.test.ts'], report: 'vitest-services' });
config.test!.globalSetup = ['test/services/global-setup.ts'];
config.test!.typecheck = { enabled: false };

export default defineConfig(config);
