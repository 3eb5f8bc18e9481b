import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'kit/index': 'src/kit/index.ts' },
  format: ['esm'],
  dts: { compilerOptions: { customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
});
