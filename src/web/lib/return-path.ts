/**
 * Where to go once signed in (`?next=` on the sign-in pages): the invitation a visitor opened
 * before signing in, and nothing else, so that a link cannot send someone off to another site
 * after they sign in. (A pattern rather than the pages' table, which the app shell would
 * otherwise carry for this alone.)
 */
export function returnPath(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  return next && /^\/invite\/[\w-]+$/.test(next) ? next : null;
}

/** The invitation a visitor registers with (`?invite=` on the sign-up page), if any. */
export function inviteTokenOf(search: string): string | null {
  return new URLSearchParams(search).get('invite') || null;
}
