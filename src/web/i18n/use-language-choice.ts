import { useEffect } from 'react';
import { type Preferences, preferencesSchema } from '../../shared/account-schema.ts';
import { isLanguage, type Language } from '../../shared/languages.ts';
import { apiPaths } from '../../shared/paths.ts';
import { useFlash } from '../components/flash-messages.tsx';
import { api } from '../lib/api-client.ts';
import { FAILURE_SECONDS, failureText } from '../lib/shell-messages.ts';
import { changeLanguage } from './language.ts';
import { translate } from './translate.tsx';

/**
 * The language menu's choice: the pages change at once; the browser keeps it, and so does the
 * account of whoever is signed in (every device they use follows). Signing in on a device
 * brings the account's language with it.
 */
export function useLanguageChoice(user: { id: string; language?: string } | null) {
  const flash = useFlash();
  const accountLanguage = user?.language;

  useEffect(() => {
    if (isLanguage(accountLanguage)) void changeLanguage(accountLanguage);
  }, [accountLanguage]);

  return async (language: Language) => {
    try {
      await changeLanguage(language);
      if (user) {
        await api.put<Preferences>(apiPaths.accountPreferences, preferencesSchema, { language });
      }
    } catch (error) {
      flash.failure(failureText(translate('shell.language.saveFailed'), error), FAILURE_SECONDS);
    }
  };
}
