import type { CodecContext, LlmReasoningConfig } from '@llm/core';
import { anthropicThinking, reportLoss } from '@llm/core';
import { PROTOCOL } from './protocol.js';

type Wire = Record<string, unknown>;

/**
 * Converse has no model-independent thinking switch: each model takes its own in
 * `additionalModelRequestFields`. Claude models take Anthropic's `thinking` object there, so for
 * them (a model id naming Anthropic or Claude: `anthropic.claude-…`, `us.anthropic.…`, an
 * inference-profile ARN) it is the canonical reasoning setting; for other models it stays a
 * model field, kept whole.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html
 */
const ANTHROPIC_MODEL = /anthropic|claude/i;

/** True when `model` is a Claude model, whose thinking setting this codec reads and writes. */
export function isAnthropicModel(model: string | undefined): boolean {
  return model !== undefined && ANTHROPIC_MODEL.test(model);
}

/** A Bedrock model id of a vendor (`amazon.nova-pro-v1:0`, `us.meta.llama…`), region prefix optional. */
const BEDROCK_VENDOR_ID = /^(?:(?:us|eu|apac|global|jp|au|ca|us-gov)\.)?([a-z0-9-]+)\.[a-z]/;

/**
 * True when `model` names another vendor's Bedrock model, whose `thinking` field (if any) is its
 * own. A Claude id, or a name that is no Bedrock id at all (a gateway route alias such as
 * `claude-sonnet` or `gpt-4.1`), is read as taking Anthropic's `thinking`.
 */
export function isOtherVendorModel(model: string | undefined): boolean {
  if (model === undefined || isAnthropicModel(model)) return false;
  return BEDROCK_VENDOR_ID.test(model);
}

/**
 * `additionalModelRequestFields.thinking` -> `reasoning`, for any model but another vendor's
 * Bedrock id (see {@link isOtherVendorModel}): a client of a gateway often names a route alias. Returns the fields
 * left to keep (`undefined` when none), or `fields` unchanged when `thinking` has a shape we do
 * not model.
 */
export function decodeThinking(fields: Wire, reasoning: LlmReasoningConfig): Wire | undefined {
  const thinking = fields.thinking as Wire | undefined;
  if (typeof thinking !== 'object' || thinking === null) return fields;
  let keys = 0;
  for (const _ in thinking) keys++;
  if (thinking.type === 'enabled' && keys === 2 && Number.isInteger(thinking.budget_tokens) && (thinking.budget_tokens as number) >= 0) {
    reasoning.enabled = true;
    reasoning.budgetTokens = thinking.budget_tokens as number;
  } else if (thinking.type === 'adaptive' && keys === 1) reasoning.adaptive = true;
  else if (thinking.type === 'disabled' && keys === 1) reasoning.enabled = false;
  else return fields;
  const { thinking: _thinking, ...rest } = fields;
  for (const _ in rest) return rest;
  return undefined;
}

/**
 * `reasoning` -> the `thinking` object of a Claude model, or `undefined` when it states none. The
 * budget (the request's, or from its effort by core's table) is fitted to Anthropic's bounds (at
 * least 1024, below `maxTokens`; none, reported, when `maxTokens` leaves no room). Other models
 * have no such field: reported.
 */
export function encodeThinking(
  reasoning: LlmReasoningConfig,
  model: string,
  maxTokens: number | undefined,
  clientBudget: unknown,
  context: CodecContext | undefined,
): Wire | undefined {
  const off = reasoning.enabled === false || reasoning.effort === 'none';
  if (reasoning.budgetTokens === undefined && reasoning.enabled === undefined && reasoning.adaptive === undefined && !off) return undefined;
  if (!isAnthropicModel(model)) {
    reportLoss(context, {
      code: 'dropped-field',
      path: 'reasoning',
      message: `Converse has no model-independent thinking switch or budget (${model} takes its own in additionalModelRequestFields)`,
      protocol: PROTOCOL,
    });
    return undefined;
  }
  if (reasoning.adaptive) return { type: 'adaptive' };
  if (off) return { type: 'disabled' };
  const budget = anthropicThinking(reasoning, maxTokens, clientBudget, context, PROTOCOL);
  return budget === undefined ? undefined : { type: 'enabled', budget_tokens: budget };
}
