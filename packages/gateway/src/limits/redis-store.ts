import type { Redis } from 'ioredis';
import type { AdmitPlan, AdmitVerdict, LimitStore, ReadPlan, SettlePlan } from './limit-store.js';

/** Every limits key in Redis starts with this, so a Redis shared with other programs stays tidy. */
export const REDIS_LIMITS_PREFIX = 'llm-gateway:limits:';

// The steps of counter-table.ts's admitIn, as one script: Redis runs a script alone, so the
// check and the count are one atomic step across every gateway on this Redis.
// KEYS: requests, tokens, spent, holds (a sorted set: member `id:nano`, score = its expiry).
// ARGV: now, rpm, tpm, budget nano (-1: none), requests' TTL, hold member ('' = none), hold expiry, hold TTL.
const ADMIT = `
local now = tonumber(ARGV[1])
local rpm = tonumber(ARGV[2])
if rpm >= 0 and tonumber(redis.call('GET', KEYS[1]) or '0') >= rpm then return 'rpm' end
local tpm = tonumber(ARGV[3])
if tpm >= 0 and tonumber(redis.call('GET', KEYS[2]) or '0') >= tpm then return 'tpm' end
local budget = tonumber(ARGV[4])
if budget >= 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
  local held = 0
  for _, member in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
    held = held + tonumber(string.match(member, ':(%d+)$'))
  end
  if tonumber(redis.call('GET', KEYS[3]) or '0') + held >= budget then return 'budget' end
  if ARGV[6] ~= '' then
    redis.call('ZADD', KEYS[4], ARGV[7], ARGV[6])
    redis.call('PEXPIRE', KEYS[4], ARGV[8])
  end
end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 'ok'
`;

// counter-table.ts's settleIn. KEYS: holds, tokens, then one spent counter per period.
// ARGV: hold member ('' = none), tokens, tokens' TTL, cost nano, then each spent counter's TTL (0 = never).
const SETTLE = `
if ARGV[1] ~= '' then redis.call('ZREM', KEYS[1], ARGV[1]) end
if tonumber(ARGV[2]) > 0 then
  redis.call('INCRBY', KEYS[2], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
if tonumber(ARGV[4]) > 0 then
  for i = 3, #KEYS do
    redis.call('INCRBY', KEYS[i], ARGV[4])
    if ARGV[i + 2] ~= '0' then redis.call('PEXPIRE', KEYS[i], ARGV[i + 2]) end
  end
end
return 1
`;

type LimitsRedis = Redis & {
  limitsAdmit(...args: (string | number)[]): Promise<string>;
  limitsSettle(...args: (string | number)[]): Promise<number>;
};

/**
 * Counters in Redis, shared by every gateway on it. Each step is a Lua script (sent once, then
 * run by its SHA); counters expire with their window or budget period (Redis TTLs), so nothing
 * needs cleaning. Commands never queue while Redis is down and time out after 1 s
 * (`connectRedis`'s settings): an admission fails fast and the limiter applies `onStoreDown`.
 */
export class RedisLimitStore implements LimitStore {
  readonly kind = 'redis';
  private readonly redis: LimitsRedis;

  constructor(redis: Redis) {
    redis.defineCommand('limitsAdmit', { numberOfKeys: 4, lua: ADMIT });
    redis.defineCommand('limitsSettle', { lua: SETTLE });
    this.redis = redis as LimitsRedis;
  }

  /** True while connected. */
  get healthy(): boolean {
    return this.redis.status === 'ready';
  }

  onReconnect(listener: () => void): void {
    this.redis.on('ready', listener);
  }

  async admit(plan: AdmitPlan): Promise<AdmitVerdict> {
    const budget = plan.budget;
    const hold = budget?.hold;
    return (await this.redis.limitsAdmit(
      REDIS_LIMITS_PREFIX + plan.requests.name,
      REDIS_LIMITS_PREFIX + plan.tokens.name,
      REDIS_LIMITS_PREFIX + (budget?.spent.name ?? plan.requests.name),
      REDIS_LIMITS_PREFIX + (budget?.holds ?? plan.requests.name),
      plan.now,
      plan.rpm ?? -1,
      plan.tpm ?? -1,
      budget?.limitNano ?? -1,
      ttl(plan.requests.expiresAt, plan.now),
      hold ? `${hold.id}:${hold.nano}` : '',
      hold?.expiresAt ?? 0,
      ttl(hold?.expiresAt, plan.now),
    )) as AdmitVerdict;
  }

  async settle(plan: SettlePlan): Promise<void> {
    const keys = [plan.release?.holds ?? plan.tokens.name, plan.tokens.name, ...plan.spent.map((spent) => spent.name)];
    await this.redis.limitsSettle(
      keys.length,
      ...keys.map((key) => REDIS_LIMITS_PREFIX + key),
      plan.release ? `${plan.release.id}:${plan.release.nano}` : '',
      plan.tokenCount,
      ttl(plan.tokens.expiresAt, plan.now),
      plan.costNano,
      ...plan.spent.map((spent) => ttl(spent.expiresAt, plan.now)),
    );
  }

  async read(plan: ReadPlan): Promise<{ spentNano: number; requests: number; tokens: number }> {
    const names = [plan.requests, plan.tokens, ...(plan.spent === undefined ? [] : [plan.spent])];
    const [requests, tokens, spent] = await this.redis.mget(names.map((name) => REDIS_LIMITS_PREFIX + name));
    return { requests: Number(requests ?? 0), tokens: Number(tokens ?? 0), spentNano: Number(spent ?? 0) };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * A counter's time to live in ms from the limiter's clock (0: none). Relative, not absolute: Redis
 * expires keys by its own clock, which need not agree with a gateway's to the second.
 */
function ttl(expiresAt: number | undefined, now: number): number {
  return expiresAt === undefined ? 0 : Math.max(1, expiresAt - now);
}
