import type { MessageId } from '../i18n/catalogues.ts';
import { FAILURE_SECONDS } from './shell-messages.ts';

/**
 * The pages' messages and how long each stays on screen: the original app's texts, word for
 * word in English (src/web/locales/en/shell.json; section 8 "Error catalogue" of the original
 * specification, ../shared/spec/original-spec.md) and its durations (section 9 "Business
 * constants and limits"). Each is an id, looked up in the chosen language when shown. The
 * sign-in and registration pages' own are in features/auth/auth-messages.ts, the app shell's in
 * shell-messages.ts.
 */
export const messages = {
  clientAdded: { id: 'shell.flash.clientAdded', seconds: 3 },
  clientEdited: { id: 'shell.flash.clientEdited', seconds: 3 },
  balanceUpdated: { id: 'shell.flash.balanceUpdated', seconds: 4 },
  /** With its "Undo", the message stays long enough to change one's mind (the original: 3 s). */
  clientDeleted: { id: 'shell.flash.clientDeleted', seconds: 10 },
  clientRestored: { id: 'shell.flash.clientRestored', seconds: 3 },
  /** "3 clients deleted", with the same "Undo" as one client's delete. */
  clientsDeletedSeconds: 10,
  clientsRestoredSeconds: 3,
  /** "1,200 clients imported": the count is in the text. */
  clientsImportedSeconds: 5,
  paymentRecorded: { id: 'shell.flash.paymentRecorded', seconds: 4 },
  chargeAdded: { id: 'shell.flash.chargeAdded', seconds: 4 },
  settingsSaved: { id: 'shell.flash.settingsSaved', seconds: 4 },
  /** Failures the original never showed stay long enough to read, and can be closed. */
  failureSeconds: FAILURE_SECONDS,
} as const satisfies Record<string, { id: MessageId; seconds: number } | number>;

// The pages take it from here, with the rest of what they say.
export { failureText } from './shell-messages.ts';
