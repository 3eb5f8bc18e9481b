// Settings every workspace package's vitest config starts from.
// - The `@llm/source` export condition makes sibling packages resolve to their TypeScript
//   sources, so tests never run against a stale `dist/`.
// - The JSON report is what scripts/test-all.mjs sums into the closing `N passed, N failed` line.
import { defaultServerConditions, type UserConfig } from 'vite';

export const sourceConditions = ['@llm/source', ...defaultServerConditions];

export function sharedConfig(overrides: { environment?: 'node' | 'edge-runtime' } = {}): UserConfig {
  return {
    resolve: { conditions: sourceConditions },
    ssr: { resolve: { conditions: sourceConditions } },
    test: {
      environment: overrides.environment ?? 'node',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
      typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'] },
      pool: 'threads',
    },
  } as UserConfig;
}
