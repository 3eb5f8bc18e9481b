import { DEFAULT_STREAM_IDLE_TIMEOUT_MS } from '@llm/router';
import type { GatewayConfig } from '../config/schema.js';

/** How long the backstop waits beyond the router's own timer, which should always fire first. */
const BACKSTOP_MARGIN_MS = 5_000;

/**
 * The transport's body idle timeout (undici `bodyTimeout`): the longest stream idle timeout of
 * any upstream, plus a margin. The router's idle timer is the mechanism (it ends the client's
 * stream with its protocol's error event and cancels the call); this one only guarantees that no
 * upstream socket stays held by a silent body forever, whatever reads it.
 */
export function transportBodyIdleTimeoutMs(config: GatewayConfig): number {
  const idle = Object.values(config.upstreams).map((upstream) => upstream.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS);
  return Math.max(...idle) + BACKSTOP_MARGIN_MS;
}
