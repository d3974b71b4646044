import { FAILURE_SECONDS } from './shell-messages.ts';

/**
 * The pages' messages and how long each stays on screen: the original app's, word for word
 * (its texts in section 8 "Error catalogue" and its durations in section 9 "Business constants
 * and limits" of the original specification, ../shared/spec/original-spec.md). The sign-in and
 * registration pages' own are in features/auth/auth-messages.ts, the app shell's in
 * shell-messages.ts.
 */
export const messages = {
  clientAdded: { text: 'Client Added Successfully !!', seconds: 3 },
  clientEdited: { text: 'Updated Successfully', seconds: 3 },
  balanceUpdated: { text: 'Balance Updated', seconds: 4 },
  /** With its "Undo", the message stays long enough to change one's mind (the original: 3 s). */
  clientDeleted: { text: 'Client Removed', seconds: 10 },
  clientRestored: { text: 'Client Restored', seconds: 3 },
  /** "3 clients deleted", with the same "Undo" as one client's delete. */
  clientsDeletedSeconds: 10,
  clientsRestoredSeconds: 3,
  /** "1,200 clients imported": the count is in the text. */
  clientsImportedSeconds: 5,
  paymentRecorded: { text: 'Payment recorded', seconds: 4 },
  chargeAdded: { text: 'Charge added', seconds: 4 },
  settingsSaved: { text: 'Settings saved', seconds: 4 },
  /** Failures the original never showed stay long enough to read, and can be closed. */
  failureSeconds: FAILURE_SECONDS,
} as const;

// The pages take it from here, with the rest of what they say.
export { failureText } from './shell-messages.ts';
