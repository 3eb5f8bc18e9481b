// Bundled into the bin and the library build alike (esbuild inlines the one field read).
import { version } from '../../package.json';

/** This package's version, as `llm-gateway --version` prints it. */
export const GATEWAY_VERSION: string = version;
