import { type Options, defineConfig } from 'tsup';
import { writeBundleNotices } from './bundle-notices.js';
import { copyUiAssets } from './copy-ui-assets.js';

const common: Options = { format: ['esm'], sourcemap: true, target: 'es2022', platform: 'node' };

export default defineConfig([
  // The library: its dependencies stay imports, resolved from the user's install and shared with it.
  {
    ...common,
    entry: ['src/index.ts'],
    dts: { compilerOptions: { customConditions: [] } },
    // The two builds run side by side: this one must not delete the bin's files.
    clean: ['!cli.*', '!metafile-*', '!ui/**'],
    // The dashboard's files (src/ui/assets, Chart.js), served from dist/ui by either build.
    onSuccess: async () => copyUiAssets('dist'),
  },
  // The bin: one file holding every JavaScript module it runs. Resolving and loading the ~150 files
  // of its dependencies one by one made a started gateway hold about 8 MB more (V8 even optimised
  // Node's own path functions during start-up), and start 20 ms slower. Left out (loaded from
  // their packages at run time): better-sqlite3, an optional dependency used only on a Node
  // without node:sqlite (its compiled addon cannot be bundled anyway), `yaml`, which is only
  // loaded for a YAML config, the cloud SDKs (google-auth-library, @smithy/*, @aws-crypto/*, @aws-sdk/*),
  // loaded only when a cloud upstream needs them, and the MCP SDK (with undici's package entry, for
  // the fetch of client-supplied MCP servers), loaded only when MCP is used.
  {
    ...common,
    entry: ['src/cli.ts'],
    noExternal: [/^(?!(?:yaml|pg|ioredis|undici)$|google-auth-library(?:\/|$)|@smithy\/|@aws-crypto\/|@aws-sdk\/|@modelcontextprotocol\/)/],
    // Still one file: a dynamic import (prom-client, loaded only with metrics on) is inlined, and
    // its module evaluated only when imported, instead of becoming a chunk file beside the bin.
    splitting: false,
    // Bundled CommonJS code calls `require`: an ES module has none unless it makes one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    metafile: true,
    onSuccess: async () => {
      writeBundleNotices('dist', 'cli');
      copyUiAssets('dist');
    },
  },
]);
