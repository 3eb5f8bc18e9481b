// The same core tests in the edge-runtime environment (no Node globals), proving core uses
// Web-standard APIs only. Tests that need Node for their own fixtures stay out.
import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared';

export default defineConfig(sharedConfig({ environment: 'edge-runtime', include: ['src/**/*.test.ts'], report: 'vitest-edge' }));
