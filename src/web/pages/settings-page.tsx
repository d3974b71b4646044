import { BookPanel } from '../features/books/book-panel.tsx';
import { GettingPaidPanel } from '../features/collect/getting-paid-panel.tsx';
import { SettingsPage as PanelSettingsPage } from '../features/settings/settings-page.tsx';

/**
 * The settings page, with the current book (its members) and its "Getting paid" section among
 * the panel's settings.
 */
export function SettingsPage() {
  return <PanelSettingsPage book={<BookPanel />} gettingPaid={<GettingPaidPanel />} />;
}
