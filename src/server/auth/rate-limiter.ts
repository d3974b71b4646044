import { sql } from 'kysely';
import type { RateLimitRule } from '../config.ts';
import type { Database } from '../db/database.ts';

export interface RateLimitVerdict {
  allowed: boolean;
  /** Seconds until the window frees up; set when refused. */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters in the database, so that every server instance on one
 * PostgreSQL shares them. One atomic upsert per check: concurrent requests cannot
 * all read a stale count and slip through.
 */
export const PRUNE_EVERY = 500;
const KEEP_EXPIRED_MS = 24 * 60 * 60 * 1000;

export function createRateLimiter(database: Database) {
  let checks = 0;
  return async function consume(key: string, rule: RateLimitRule): Promise<RateLimitVerdict> {
    const now = Date.now();
    checks += 1;
    if (checks % PRUNE_EVERY === 0) {
      // Every IP and e-mail ever seen leaves a row; windows a day past their end go.
      await database.db
        .deleteFrom('rate_limits')
        .where('window_start', '<', now - KEEP_EXPIRED_MS)
        .execute();
    }
    const windowMs = rule.windowSeconds * 1000;
    const expiredBefore = now - windowMs;
    const result = await sql<{ count: number | string; window_start: number | string }>`
      INSERT INTO rate_limits (key, count, window_start) VALUES (${key}, 1, ${now})
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_limits.window_start <= ${expiredBefore} THEN 1 ELSE rate_limits.count + 1 END,
        window_start = CASE WHEN rate_limits.window_start <= ${expiredBefore} THEN ${now} ELSE rate_limits.window_start END
      RETURNING count, window_start`.execute(database.db);
    const row = result.rows[0];
    if (!row) throw new Error('rate limit upsert returned no row');
    const count = Number(row.count);
    if (count <= rule.max) return { allowed: true, retryAfterSeconds: 0 };
    const windowEnds = Number(row.window_start) + windowMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - now) / 1000)) };
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
