import { GettingPaidPanel } from '../features/collect/getting-paid-panel.tsx';
import { SettingsPage as PanelSettingsPage } from '../features/settings/settings-page.tsx';

/** The settings page, with each operator's "Getting paid" section among the panel's settings. */
export function SettingsPage() {
  return <PanelSettingsPage gettingPaid={<GettingPaidPanel />} />;
}
