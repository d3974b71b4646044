import { useEffect } from 'react';
import { isLanguage, type Language } from '../../shared/languages.ts';
import { apiPaths } from '../../shared/paths.ts';
import { type Preferences, preferencesSchema } from '../../shared/preferences-schema.ts';
import { useFlash } from '../components/flash-messages.tsx';
import { api } from '../lib/api-client.ts';
import { session } from '../lib/session.ts';
import { FAILURE_SECONDS, failureText } from '../lib/shell-messages.ts';
import { changeLanguage } from './language.ts';
import { translate } from './translate.tsx';

/**
 * The account's language this tab last followed. Module-wide: a change of language draws the
 * pages again (and this hook with them), which must not apply the account's language again.
 */
let followedAccountLanguage: Language | undefined;

/**
 * The language menu's choice: the pages change at once; the browser keeps it, and so does the
 * account of whoever is signed in (every device they use follows). Signing in on a device
 * brings the account's language with it.
 */
export function useLanguageChoice(user: { id: string; language?: string } | null) {
  const flash = useFlash();
  const accountLanguage = user?.language;

  useEffect(() => {
    if (!isLanguage(accountLanguage)) {
      // Signed out (or an account that has not said): the next sign-in brings its language.
      if (!accountLanguage) followedAccountLanguage = undefined;
      return;
    }
    if (accountLanguage === followedAccountLanguage) return;
    followedAccountLanguage = accountLanguage;
    void changeLanguage(accountLanguage);
  }, [accountLanguage]);

  return async (language: Language) => {
    const signedIn = session.get().data;
    if (user && signedIn) {
      // The account is taking this language: the session says so before the pages redraw.
      followedAccountLanguage = language;
      session.set({ ...signedIn, language });
    }
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
