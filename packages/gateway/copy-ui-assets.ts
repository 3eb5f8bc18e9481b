// Build step: the dashboard's files (src/ui/assets) and Chart.js's browser build, copied to
// dist/ui, where the built gateway (library or bundled bin) serves them from.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function copyUiAssets(outDir: string): void {
  const target = join(outDir, 'ui');
  mkdirSync(target, { recursive: true });
  for (const file of readdirSync('src/ui/assets')) copyFileSync(join('src/ui/assets', file), join(target, file));
  const chartDir = dirname(createRequire(import.meta.url).resolve('chart.js'));
  copyFileSync(join(chartDir, 'chart.umd.min.js'), join(target, 'chart.umd.min.js'));
  // Its license travels with the copy (the file's banner names it too).
  copyFileSync(join(chartDir, '..', 'LICENSE.md'), join(target, 'chart.js.LICENSE.md'));
}
