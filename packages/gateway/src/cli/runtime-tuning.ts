import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags `llm-gateway serve` sets for its own process before the first upstream connection.
 *
 * undici parses HTTP answers with llhttp compiled to WebAssembly. V8 first compiles it with its
 * baseline compiler (Liftoff), then recompiles hot functions with TurboFan on a background
 * thread; that compilation leaves memory in the thread's malloc arena for the life of the
 * process. Measured on Node 20: with the unbundled bin, 67 MB resident after the first request
 * instead of 76 and about 10 MB less at peak; with the bundled bin, 115-116 MB three seconds after
 * a load run instead of 121 (peaks within noise). The price is baseline code for parsing upstream
 * answers: about 2-2.4 µs more CPU per 2 KB request (3%), measured by alternating runs.
 *
 * Not `--liftoff-only`: Node 24's V8 ignores it once started. These two keep the baseline code on
 * Node 20 and 24 alike (the runtime-tuning test checks it on whichever Node runs it).
 */
export const SERVE_V8_FLAGS: readonly string[] = ['--no-wasm-dynamic-tiering', '--no-wasm-tier-up'];

/** The environment variable that, set to `1`, keeps V8's default WebAssembly tiering. */
export const WASM_TIER_UP_ENV = 'LLM_GATEWAY_WASM_TIER_UP';

/**
 * Applies {@link SERVE_V8_FLAGS} unless the environment opts out; returns the flags applied.
 * Only the CLI calls this: a library embedding the gateway keeps its process's flags.
 */
export function tuneServeProcess(env: Record<string, string | undefined>, apply: (flag: string) => void = setFlagsFromString): readonly string[] {
  if (env[WASM_TIER_UP_ENV] === '1') return [];
  for (const flag of SERVE_V8_FLAGS) apply(flag);
  return SERVE_V8_FLAGS;
}
