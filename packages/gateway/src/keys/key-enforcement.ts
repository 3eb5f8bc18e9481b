import type { AdmitDenial, AdmitInfo } from '@llm/router';
import type { Logger } from 'pino';
import type { Admission, AdmissionTicket, KeyLimits, Limiter } from '../limits/index.js';
import type { ModelPrice, PriceBook, RequestCost } from '../pricing/index.js';
import type { RequestRecord } from '../router-contract.js';
import { KEY_NAME_PATTERN } from './key-input.js';
import { type KeyResolver, NOT_CACHED } from './key-resolver.js';
import { allowsModel, keyRefusal, type VirtualKey } from './virtual-key.js';

/** The parts of the Limiter (src/limits) enforcement uses: tests may hand in their own. */
export type KeyLimiter = Pick<Limiter, 'admit' | 'settle'>;
/** The part of the PriceBook (src/pricing) enforcement uses: prices for a reservation (the cost of a request comes costed). */
export type KeyPrices = Pick<PriceBook, 'priceOf'>;

/**
 * Output tokens reserved for a request that sets no cap of its own (default 4096): what most
 * clients' defaults allow; a request writing more is counted in full when it ends.
 */
export const DEFAULT_RESERVED_OUTPUT_TOKENS = 4096;
/** Body characters per input token assumed for a reservation (4: English text and JSON run 3.5-4.5). */
export const RESERVED_CHARS_PER_INPUT_TOKEN = 4;
/** `retry-after` of a rate limit whose limiter named no wait (60 s: one minute window). */
const DEFAULT_RETRY_AFTER_SECONDS = 60;
/** Tickets of requests still running, at most (a bound on memory should a request never end). */
const MAX_OPEN_TICKETS = 100_000;

/** What {@link KeyEnforcement} works with. */
export interface KeyEnforcementOptions {
  keys: KeyResolver;
  limiter: KeyLimiter;
  /** The running config's prices. */
  prices(): KeyPrices;
  settings(): EnforcementSettings;
  /** The running config's `keys:` names. */
  configKeyNames(): ReadonlySet<string>;
  logger: Logger;
  now?: () => number;
}

/** What {@link KeyEnforcement} reads of the running config. */
export interface EnforcementSettings {
  /** A budgeted key may use a model without a price (its spend then goes uncounted). */
  allowUnpricedWithBudget?: boolean;
}

/**
 * The checks of a virtual key before the upstream call (the router's `admit` hook) and its
 * counting after (`onRequestEnd`): the key still usable, the model allowed, then the Limiter's
 * rpm / tpm / budget, with the request's worst-case cost reserved so concurrent long streams
 * cannot spend far past the budget. Keys from the config file carry no limits: they pass.
 */
export class KeyEnforcement {
  /** Admissions of requests still running, by request id (a list: client-chosen ids may repeat). */
  private readonly tickets = new Map<string, OpenAdmission[]>();

  private readonly now: () => number;

  constructor(private readonly options: KeyEnforcementOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The router's `admit` hook. */
  async admit(info: AdmitInfo): Promise<AdmitDenial | undefined> {
    // Config keys carry no limits (unnamed ones are labelled `sha256:...`, no virtual key's name).
    const name = info.clientKeyId;
    if (name === undefined || !KEY_NAME_PATTERN.test(name) || this.options.configKeyNames().has(name)) return undefined;
    // Authenticated a moment ago, the key is cached: the store is asked only when the cache
    // expired in between; meanwhile down, the request goes on without limits (as the limiter's
    // default `onStoreDown: open` does).
    const cached = this.options.keys.cachedByName(name);
    const key =
      cached !== NOT_CACHED
        ? cached
        : await this.options.keys.byName(name).catch((error: unknown) => {
            this.options.logger.warn(
              { err: error instanceof Error ? error.message : String(error), key: info.clientKeyId },
              'key store unreachable at admission',
            );
            return undefined;
          });
    if (!key) return undefined;
    const refusal = keyRefusal(key, this.now());
    if (refusal) return { kind: 'authentication', message: `the gateway key ${key.name} is ${refusal}` };
    if (!allowsModel(key, info.clientModel)) return { kind: 'permission', message: `the gateway key ${key.name} may not use the model ${info.clientModel}` };
    const limits = limitsOf(key);
    if (!limits) return undefined;
    let reserveUsd: number | undefined;
    const worstTokens = Math.ceil(info.bodyChars / RESERVED_CHARS_PER_INPUT_TOKEN) + (info.maxOutputTokens ?? DEFAULT_RESERVED_OUTPUT_TOKENS);
    if (limits.budget) {
      const book = this.options.prices();
      const prices = info.upstreamModels.map((model) => book.priceOf(model));
      if (prices.some((price) => price === undefined) && !this.options.settings().allowUnpricedWithBudget)
        return {
          kind: 'permission',
          message: `the model ${info.clientModel} has no price, and the gateway key ${key.name} has a budget (set allowUnpricedWithBudget, or give the model a price under prices:)`,
        };
      reserveUsd = worstCaseUsd(info, prices, limits.budget.usd);
    }
    const admission = await this.options.limiter.admit(key.name, limits, reserveUsd === undefined ? undefined : { reserveUsd });
    if (!admission.allowed) return denialOf(admission);
    this.keep(info.requestId, { ticket: admission.ticket, worstUsd: reserveUsd ?? 0, worstTokens });
    return undefined;
  }

  /**
   * From `onRequestEnd`: counts the request's tokens and cost, and releases its reservation. An
   * answered request whose usage is unknown (a Chat stream without `stream_options.include_usage`
   * reports none) is charged its worst case: streaming must not be a way around a budget.
   * `cost` is the record's, from the price book the request was routed under (`PriceBook.costOf`):
   * the caller has it for the ledger too, so it is computed once.
   */
  settle(record: RequestRecord, cost: RequestCost | undefined): void {
    const waiting = this.tickets.get(record.requestId);
    // Clients choose request ids: under one id, only an admission of this record's key is its.
    const at = waiting?.findIndex((admission) => admission.ticket.key === record.clientKeyId) ?? -1;
    if (at < 0) return;
    const [open] = waiting!.splice(at, 1) as [OpenAdmission];
    if (waiting!.length === 0) this.tickets.delete(record.requestId);
    const { ticket } = open;
    const usage = record.usage;
    const answered = record.status >= 200 && record.status < 300;
    let tokens = 0;
    let costUsd: number | undefined = 0;
    if (usage) {
      tokens = usage.inputTokens + usage.outputTokens;
      costUsd = cost && 'usd' in cost ? cost.usd : undefined;
    } else if (answered) {
      tokens = open.worstTokens;
      costUsd = open.worstUsd;
    }
    this.options.limiter.settle(ticket, { tokens, costUsd }).catch((error: unknown) => {
      this.options.logger.error(
        { err: error instanceof Error ? error.message : String(error), key: ticket.key, requestId: record.requestId },
        'key usage not counted',
      );
    });
  }

  private keep(requestId: string, admission: OpenAdmission): void {
    if (this.tickets.size >= MAX_OPEN_TICKETS) {
      this.options.logger.error(
        { tickets: this.tickets.size },
        'too many key admissions without an end: the oldest are dropped (their reservations expire in the limiter)',
      );
      this.tickets.clear();
    }
    const waiting = this.tickets.get(requestId);
    if (waiting) waiting.push(admission);
    else this.tickets.set(requestId, [admission]);
  }
}

/** An admitted request until it ends: its ticket and its worst case (what it is charged when its usage is unknown). */
interface OpenAdmission {
  ticket: AdmissionTicket;
  worstUsd: number;
  worstTokens: number;
}

/** The Limiter's limits of a key, or undefined when it sets none. */
function limitsOf(key: VirtualKey): KeyLimits | undefined {
  if (key.rpm === undefined && key.tpm === undefined && key.budget === undefined) return undefined;
  const limits: KeyLimits = {};
  if (key.rpm !== undefined) limits.rpm = key.rpm;
  if (key.tpm !== undefined) limits.tpm = key.tpm;
  if (key.budget !== undefined) limits.budget = key.budget;
  return limits;
}

/**
 * The most a request may cost, reserved at admission: its output cap (or
 * {@link DEFAULT_RESERVED_OUTPUT_TOKENS}) at the dearest output price of the route's models,
 * plus its body's estimated input tokens (characters / 4) at the dearest input price; never more than the budget.
 */
function worstCaseUsd(info: AdmitInfo, prices: readonly (ModelPrice | undefined)[], budgetUsd: number): number {
  let output = 0;
  let input = 0;
  for (const price of prices) {
    if (price === undefined) continue;
    output = Math.max(output, price.output);
    input = Math.max(input, price.input);
  }
  const outputTokens = info.maxOutputTokens ?? DEFAULT_RESERVED_OUTPUT_TOKENS;
  const inputTokens = Math.ceil(info.bodyChars / RESERVED_CHARS_PER_INPUT_TOKEN);
  return Math.min(budgetUsd, (outputTokens * output + inputTokens * input) / 1e6);
}

/**
 * A refusal of the Limiter as the providers answer it: rpm / tpm are rate limits (429 with
 * `retry-after`); a spent budget is an exhausted quota: OpenAI's 429 `insufficient_quota`
 * (platform.openai.com/docs/guides/error-codes), Anthropic's 402 `billing_error` (the SDK's
 * `PaymentRequiredError` / `BillingErrorObject`), Gemini's 429 `RESOURCE_EXHAUSTED`
 * (ai.google.dev/gemini-api/docs/troubleshooting): the router's codecs write each.
 */
function denialOf(refused: Extract<Admission, { allowed: false }>): AdmitDenial {
  if (refused.limit === 'budget') return { kind: 'quota', code: 'insufficient_quota', message: refused.message };
  return { kind: 'rate_limit', message: refused.message, retryAfterSeconds: Math.max(1, Math.ceil(refused.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS)) };
}
