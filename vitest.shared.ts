// Settings every workspace package's vitest config starts from.
// - The `@llm/source` export condition makes sibling packages resolve to their TypeScript
//   sources, so tests never run against a stale `dist/`.
// - The JSON report is what scripts/test-all.mjs sums into the closing `N passed, N failed` line.
import { defaultServerConditions, type UserConfig } from 'vite';

export const sourceConditions = ['@llm/source', ...defaultServerConditions];

export interface SharedConfigOptions {
  /** Test environment; `edge-runtime` proves code uses Web-standard APIs only. */
  environment?: 'node' | 'edge-runtime';
  /** Test files, relative to the package (defaults: src and test). */
  include?: string[];
  /** Name of the JSON report under reports/ (test-all sums every reports/vitest*.json). */
  report?: string;
}

export function sharedConfig(overrides: SharedConfigOptions = {}): UserConfig {
  return {
    resolve: { conditions: sourceConditions },
    ssr: { resolve: { conditions: sourceConditions } },
    test: {
      environment: overrides.environment ?? 'node',
      include: overrides.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      reporters: ['default', ['json', { outputFile: `reports/${overrides.report ?? 'vitest'}.json` }]],
      typecheck: {
        enabled: overrides.environment !== 'edge-runtime',
        include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
      },
      pool: 'threads',
      // CI runs every package at once on two cores: generous, so load never fails a test.
      testTimeout: 30_000,
    },
  } as UserConfig;
}
