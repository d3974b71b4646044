import type { Client } from '../../shared/client-schema.ts';
import { RemindButton, RemindSelected } from '../features/collect/remind-buttons.tsx';

/** The list's reminders: on each row and card, and for the rows picked, one after another. */
export const listReminders = {
  rowAction: (client: Client) => <RemindButton client={client} size="sm" />,
  selectedAction: (selected: readonly Client[], clear: () => void) => (
    <RemindSelected clients={selected} onDone={clear} />
  ),
};
