import { paths } from '../../../shared/paths.ts';

const KEY = 'client-panel:list-view';

/** Remembers the list view the operator last saw, so "Back to Dashboard" returns to it. */
export function rememberListPlace(url: string): void {
  try {
    window.sessionStorage.setItem(KEY, url);
  } catch {
    // Storage may be disabled; the dashboard's first page is then the way back.
  }
}

export function lastListPlace(): string {
  try {
    const url = window.sessionStorage.getItem(KEY);
    if (url && (url.startsWith(paths.dashboard) || url.startsWith(paths.clients))) return url;
  } catch {
    // as above
  }
  return paths.dashboard;
}
