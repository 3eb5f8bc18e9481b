/** The router's public config types the gateway builds and consumes. */
export type { RequestRecord, RouteRule, RouterConfig, Transport, UpstreamConfig, UpstreamRequest, UpstreamResponse, UpstreamRetries } from '@llm/router';
