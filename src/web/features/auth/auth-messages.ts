import type { MessageId } from '../../i18n/catalogues.ts';

// What the sign-in, registration and code pages say, and how long: the original app's, word for
// word in English (src/web/locales/en/auth.json; original specification,
// ../shared/spec/original-spec.md, sections 8 and 9), each an id looked up in the chosen
// language when shown. Apart from lib/messages.ts: only those lazily loaded pages need it, and
// the app shell that every page loads is at its size budget
// (docs/decisions/0013-bundle-budgets.md).
export const authMessages = {
  registered: { id: 'auth.registered', seconds: 4 },
  registerFailedSeconds: 4,
  loggedIn: { id: 'auth.loggedIn', seconds: 4 },
  loginFailedSeconds: 5,
} as const satisfies Record<string, { id: MessageId; seconds: number } | number>;
