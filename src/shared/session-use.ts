/**
 * The web app sends this header ("1") on API calls made while nobody has touched the page for
 * UNATTENDED_AFTER_MS: reloads after a live event, a reconnect or a resync. The server does not
 * count such a call as a use of the session, so a tab left open does not keep its session alive
 * past the idle time (docs/decisions/0022-session-lifetime.md). Leaving it out only makes a
 * call count, as any call of an API client does.
 */
export const UNATTENDED_HEADER = 'x-panel-unattended';

/** How long after the last key, click, tap or scroll a page counts as unattended. */
export const UNATTENDED_AFTER_MS = 60_000;
