import { LlmError, isJsonObject, type ProtocolId } from '@llm/core';
import type { RouterConfig } from './config.js';

/** What the `admit` hook is told of a generate call, once its body is parsed and its route resolved. */
export interface AdmitInfo {
  requestId: string;
  /** The caller's id of the client credential (`RouterRequest.clientKeyId`). */
  clientKeyId?: string;
  /** The model as the client named it. */
  clientModel: string;
  clientProtocol: ProtocolId;
  stream: boolean;
  /** The client's cap on generated tokens, when its body sets one. */
  maxOutputTokens?: number;
  /** The upstream models the route may call, in its order (what prices are looked up by). */
  upstreamModels: string[];
  /** Characters of the client's body as received (its input tokens are a fraction of them). */
  bodyChars: number;
}

/**
 * A refusal of the `admit` hook, answered in the client's protocol: its error shape and status for
 * `kind` (authentication 401, permission 403, rate_limit 429, quota: 429, Claude's 402), `code`
 * as the wire code where the protocol has one (`insufficient_quota`), and `retry-after` when
 * `retryAfterSeconds` is set.
 */
export interface AdmitDenial {
  kind: 'authentication' | 'permission' | 'rate_limit' | 'quota';
  message: string;
  code?: string;
  retryAfterSeconds?: number;
}

/**
 * The error a denial is answered with. No `protocol`: the client codec then answers with its own
 * status for the kind (Claude's 402 `billing_error` for `quota`, as the Anthropic SDK's
 * `PaymentRequiredError` and `BillingErrorObject` have it).
 */
export function denialError(denial: AdmitDenial): LlmError {
  return new LlmError({
    kind: denial.kind,
    message: denial.message,
    ...(denial.code !== undefined && { code: denial.code }),
    ...(denial.retryAfterSeconds !== undefined && { retryAfterMs: denial.retryAfterSeconds * 1000 }),
  });
}

/**
 * Runs `hooks.admit` before the first upstream call: a denial throws, and the router answers it
 * as it answers any error of its own. The hook is the gateway's (keys, limits, budgets); unlike
 * the observability hooks, its failures are the request's (a limiter that cannot be asked must
 * not let every request through silently).
 */
export async function admitCall(config: RouterConfig, info: AdmitInfo): Promise<void> {
  const admit = config.hooks?.admit;
  if (!admit) return;
  const denial = await admit(info);
  if (denial) throw denialError(denial);
}

/** The cap on generated tokens a client body sets, in its protocol's field. */
export function maxOutputTokensOf(protocol: ProtocolId, body: Record<string, unknown> | undefined): number | undefined {
  if (!body) return undefined;
  switch (protocol) {
    case 'openai-chat':
      return positiveInteger(body.max_completion_tokens) ?? positiveInteger(body.max_tokens);
    case 'openai-responses':
      return positiveInteger(body.max_output_tokens);
    case 'claude':
      return positiveInteger(body.max_tokens);
    case 'gemini':
      return isJsonObject(body.generationConfig) ? positiveInteger(body.generationConfig.maxOutputTokens) : undefined;
    case 'bedrock-converse':
      return isJsonObject(body.inferenceConfig) ? positiveInteger(body.inferenceConfig.maxTokens) : undefined;
    default:
      return undefined;
  }
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
