import { useState } from 'react';
import type { Client } from '../../../shared/client-schema.ts';

const NONE: ReadonlySet<string> = new Set();

export interface RowSelection {
  /** The picked clients, in the page's order. */
  selected: Client[];
  isSelected(id: string): boolean;
  toggle(id: string): void;
  /** Picks every row of the page, or none once all are picked. */
  toggleAll(): void;
  clear(): void;
}

/**
 * Rows picked on one page of one view. Picks belong to the view they were made in (another
 * page, search, sort or filter starts with none), and a row that leaves the page (deleted in
 * another tab) leaves the selection: it would not come back picked if restored.
 */
export function useRowSelection(viewKey: string, items: readonly Client[]): RowSelection {
  const [picked, setPicked] = useState({ viewKey, ids: NONE });
  const ids = picked.viewKey === viewKey ? picked.ids : NONE;
  const selected = items.filter((client) => ids.has(client.id));
  if (ids.size > selected.length) {
    // Adjusting state while rendering (React's pattern for state derived from props): the
    // render that follows at once sees only the rows still on the page.
    setPicked({ viewKey, ids: new Set(selected.map((client) => client.id)) });
  }
  const pick = (next: Iterable<string>) => setPicked({ viewKey, ids: new Set(next) });
  return {
    selected,
    isSelected: (id) => ids.has(id),
    toggle(id) {
      const next = new Set(selected.map((client) => client.id));
      if (!next.delete(id)) next.add(id);
      pick(next);
    },
    toggleAll() {
      pick(selected.length === items.length ? [] : items.map((client) => client.id));
    },
    clear: () => pick([]),
  };
}
