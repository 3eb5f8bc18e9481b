export type { Admission, AdmissionTicket, BudgetPeriod, KeyLimits, Limiter, OnStoreDown } from './limiter.js';
export { RESERVATION_TTL_MS, StoreLimiter } from './limiter.js';
export { type LimiterOptions, openLimiter } from './open.js';
export { limiterStoreOf } from './config.js';
