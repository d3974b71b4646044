import { isAppPage } from '../../shared/paths.ts';

/**
 * Where to go once signed in (`?next=` on the sign-in pages: the invitation a visitor opened
 * before signing in), when it is one of the app's own pages; null otherwise, so that a link
 * cannot send someone off to another site after they sign in.
 */
export function returnPath(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  if (!next?.startsWith('/') || next.startsWith('//')) return null;
  return isAppPage(next.split(/[?#]/)[0] ?? '') ? next : null;
}

/** The invitation a visitor registers with (`?invite=` on the sign-up page), if any. */
export function inviteTokenOf(search: string): string | null {
  return new URLSearchParams(search).get('invite') || null;
}
