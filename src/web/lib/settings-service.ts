import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '../../shared/paths.ts';
import { type Settings, settingsSchema } from '../../shared/settings-schema.ts';
import { api } from './api-client.ts';

export const SETTINGS_STORAGE_KEY = 'settings';
export const settingsQueryKey = ['settings'] as const;

/** The last settings seen, parsed from localStorage (the original read them back unparsed). */
export function readCachedSettings(): Settings | undefined {
  try {
    const raw = window.localStorage.getItem(SETTINGS_STORAGE_KEY);
    if (!raw) return undefined;
    const parsed = settingsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function cacheSettings(settings: Settings): void {
  try {
    window.localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Storage may be full or disabled; the server stays the source of truth.
  }
}

/**
 * The settings service of the original: the server decides, localStorage mirrors. Changing
 * them is the settings page's own (features/settings/settings-api.ts): the app shell, which
 * every page loads, is at its size budget (docs/decisions/0013-bundle-budgets.md).
 */
export async function getSettings(): Promise<Settings> {
  const settings = await api.get(apiPaths.settings, settingsSchema);
  cacheSettings(settings);
  return settings;
}

/** The panel's settings; shared by the hook and the start-up prefetch. */
export const settingsQuery = queryOptions({
  queryKey: settingsQueryKey,
  queryFn: getSettings,
  placeholderData: readCachedSettings,
  staleTime: 30_000,
});

export function useSettings() {
  return useQuery(settingsQuery);
}
