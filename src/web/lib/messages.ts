/** The product's messages and how long each stays on screen (product.md §2). */
export const messages = {
  registered: { text: 'You are now registered and logged in', seconds: 4 },
  registerFailedSeconds: 4,
  loggedIn: { text: 'Logged in Success !!', seconds: 4 },
  loginFailedSeconds: 5,
  clientAdded: { text: 'Client Added Successfully !!', seconds: 3 },
  clientEdited: { text: 'Updated Successfully', seconds: 3 },
  balanceUpdated: { text: 'Balance Updated', seconds: 4 },
  /** With its "Undo", the message stays long enough to change one's mind (product.md §2 had 3 s). */
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
  loggedOut: { text: 'Logged Out !!', seconds: 4 },
  /** Failures the original never showed stay long enough to read, and can be closed. */
  failureSeconds: 8,
} as const;

/** "What failed: why", for the red message of a failed request. */
export function failureText(what: string, error: unknown): string {
  return `${what}: ${error instanceof Error ? error.message : 'unknown error'}`;
}
