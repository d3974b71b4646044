import { apiPaths } from '../../shared/paths.ts';
import { type Settings, settingsSchema } from '../../shared/settings-schema.ts';
import { api } from './api-client.ts';
import { createResource, useResource } from './resource.ts';

export const SETTINGS_STORAGE_KEY = 'settings';

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

function cacheSettings(settings: Settings): void {
  try {
    window.localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Storage may be full or disabled; the server stays the source of truth.
  }
}

/**
 * The settings service of the original: the server decides, localStorage mirrors (every value
 * read or set is kept there). Like the session, not in the query cache: the navbar and the
 * register guard need it before sign-in (decision 0013). Changing them is the settings page's
 * own (features/settings/settings-api.ts), which sets the saved value here.
 */
export const settings = createResource<Settings>({
  read: () => api.get(apiPaths.settings, settingsSchema),
  staleMs: 30_000,
  placeholder: readCachedSettings,
  remember: cacheSettings,
});

export function useSettings() {
  return useResource(settings);
}
