/** The forms for a new entry on the client details page. */
export type EntryFormKind = 'payment' | 'charge';

/**
 * What a page may hand the client details page when it navigates there: "Add client" sends a
 * new client with "Add charge" open when the balance is locked.
 */
export interface DetailsPageState {
  entryForm?: EntryFormKind;
}
