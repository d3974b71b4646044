// What the sign-in, registration and code pages say, and how long: the original app's, word for
// word (original specification, ../shared/spec/original-spec.md, sections 8 and 9). Apart from
// lib/messages.ts: only those lazily loaded pages need it, and the app shell that every page
// loads is at its size budget (docs/decisions/0013-bundle-budgets.md).
export const authMessages = {
  registered: { text: 'You are now registered and logged in', seconds: 4 },
  registerFailedSeconds: 4,
  loggedIn: { text: 'Logged in Success !!', seconds: 4 },
  loginFailedSeconds: 5,
} as const;
