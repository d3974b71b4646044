import { useSyncExternalStore } from 'react';
import type { Language } from '../../shared/languages.ts';
import { currentLanguage, subscribeToLanguage } from './language.ts';

/** The language the pages are shown in; a component using it redraws when it changes. */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribeToLanguage, currentLanguage);
}
