import { useSyncExternalStore } from 'react';

/**
 * Whether the window matches a media query, following it as the window changes (a phone
 * turned sideways). False where there is no matchMedia (tests without a layout).
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const media = window.matchMedia?.(query);
      media?.addEventListener('change', changed);
      return () => media?.removeEventListener('change', changed);
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}
