import { isIPv4, isIPv6 } from 'node:net';
import { sql } from 'kysely';
import type { RateLimitRule, SignInRateLimits } from '../config.ts';
import type { Database } from '../db/database.ts';

export interface RateLimitVerdict {
  allowed: boolean;
  /** Seconds until the window frees up; set when refused. */
  retryAfterSeconds: number;
  /** The key's count in its window, this request included. */
  count: number;
  /** When the key's window began (ms): what a refund names, so that it never touches a later one. */
  windowStart: number;
}

/**
 * Fixed-window counters in the database, so that every server instance on one
 * PostgreSQL shares them. One atomic upsert per check: concurrent requests cannot
 * all read a stale count and slip through.
 */
export const PRUNE_EVERY = 500;
const KEEP_EXPIRED_MS = 24 * 60 * 60 * 1000;

function secondsUntil(windowStart: number, rule: RateLimitRule, now: number): number {
  return Math.max(1, Math.ceil((windowStart + rule.windowSeconds * 1000 - now) / 1000));
}

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
    const windowStart = Number(row.window_start);
    const allowed = count <= rule.max;
    const retryAfterSeconds = allowed ? 0 : secondsUntil(windowStart, rule, now);
    return { allowed, retryAfterSeconds, count, windowStart };
  };
}

/** Takes back one count from the window a consume saw; a window begun since is left alone. */
export async function refundRateLimit(
  database: Database,
  key: string,
  windowStart: number,
): Promise<void> {
  await database.db
    .updateTable('rate_limits')
    .set({ count: sql`count - 1` })
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .where('count', '>', 0)
    .execute();
}

async function clearRateLimit(database: Database, key: string): Promise<void> {
  await database.db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/**
 * The address a limit counts by. An IPv6 host is usually given a whole /64 and can pick any
 * address in it: counted one by one, each of its 2^64 addresses would get a fresh allowance.
 * So IPv6 counts by its /64 ("2001:db8:0:1::/64"); IPv4, and IPv4 written as IPv6
 * (::ffff:192.0.2.1), by the address.
 */
export function addressGroupOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = (ip.split('%')[0] ?? '').toLowerCase().split('::');
  // A dotted IPv4 tail ("64:ff9b::192.0.2.1") stands for the last two groups.
  const groupsOf = (part: string | undefined) =>
    (part ? part.split(':') : []).flatMap((group) => {
      if (!group.includes('.')) return [group];
      const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  const left = groupsOf(head);
  const right = groupsOf(tail);
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  const groups = [...left, ...zeros, ...right].slice(0, 4);
  return `${groups.map((g) => Number.parseInt(g, 16).toString(16)).join(':')}::/64`;
}

interface SignInAttempt {
  /** Refused when the address has failed too often, whatever the e-mail. */
  address: RateLimitVerdict;
  /**
   * Counts the attempt against the e-mail, from this address and from everywhere, and
   * says whether its password may be checked.
   */
  forEmail(email: string): Promise<RateLimitVerdict>;
  /** A right password: the attempt's counts are taken back and the pair's failures forgotten. */
  succeeded(): Promise<void>;
}

/**
 * Sign-in's limits count failures, so that nobody elsewhere can lock an operator out
 * (docs/decisions/0018-sign-in-lockout.md). Each attempt is counted before the password is
 * checked (one atomic upsert per counter, so concurrent guesses cannot pass a stale count),
 * and a success takes its counts back. A failure does no database work past the counting,
 * whether or not the e-mail has an account: its timing says nothing about which exist.
 */
export function createSignInGuard(database: Database, rules: SignInRateLimits) {
  const consume = createRateLimiter(database);
  return async function begin(address: string): Promise<SignInAttempt> {
    const group = addressGroupOf(address);
    const addressKey = `sign-in:ip:${group}`;
    const fromAddress = await consume(addressKey, rules.signInPerIp);
    const held: { key: string; windowStart: number }[] = [
      { key: addressKey, windowStart: fromAddress.windowStart },
    ];
    let pairKey: string | undefined;
    return {
      address: fromAddress,
      async forEmail(email) {
        // The address comes first and holds no space: the key cannot be read two ways.
        pairKey = `sign-in:pair:${group} ${email}`;
        const emailKey = `sign-in:email:${email}`;
        const now = Date.now();
        const pair = await consume(pairKey, rules.signInPerIpAndEmail);
        if (!pair.allowed) {
          // A refusal checks no password: the counters keep counting failures only. The
          // e-mail's counter is not touched at all, so that concurrent refusals from one
          // address cannot briefly push it past its limit and refuse an allowed attempt.
          await refundRateLimit(database, pairKey, pair.windowStart);
          return pair;
        }
        const everywhere = await consume(emailKey, rules.signInPerEmail);
        const counted = [
          { key: pairKey, windowStart: pair.windowStart },
          { key: emailKey, windowStart: everywhere.windowStart },
        ];
        if (!everywhere.allowed && pair.count > 1) {
          // Under a distributed attack, an address that has failed for this e-mail is done
          // until its own window or the e-mail's ends; one that has not may still try.
          for (const { key, windowStart } of counted) {
            await refundRateLimit(database, key, windowStart);
          }
          return {
            ...pair,
            allowed: false,
            retryAfterSeconds: Math.min(
              secondsUntil(pair.windowStart, rules.signInPerIpAndEmail, now),
              everywhere.retryAfterSeconds,
            ),
          };
        }
        held.push(...counted);
        return pair;
      },
      async succeeded() {
        for (const { key, windowStart } of held) {
          if (key === pairKey) await clearRateLimit(database, key);
          else await refundRateLimit(database, key, windowStart);
        }
      },
    };
  };
}
