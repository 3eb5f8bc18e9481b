import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: { compilerOptions: { customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
});
