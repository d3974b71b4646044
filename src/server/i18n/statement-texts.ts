import { type I18n, type Messages, setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { LANGUAGES, type Language } from '../../shared/languages.ts';
import englishStatement from '../../shared/locales/en/statement.json' with { type: 'json' };
import englishValidation from '../../shared/locales/en/validation.json' with { type: 'json' };
import hindiStatement from '../../shared/locales/hi/statement.json' with { type: 'json' };
import hindiValidation from '../../shared/locales/hi/validation.json' with { type: 'json' };
import { validationCodeOf } from '../../shared/validation-messages.ts';

/*
 * The words of the pages a client opens from a statement link, in the client's language: the
 * statement catalogue, and the validation catalogue for the claim form's field messages
 * (docs/decisions/0037-i18n-library.md). Compiled once at start-up, as the web app's build
 * compiles its catalogues, so that no page parses a message.
 */

export type StatementTextId = keyof typeof englishStatement;
type Values = Record<string, string | number>;

const CATALOGUES: Record<Language, Record<string, string>[]> = {
  en: [englishStatement, englishValidation],
  hi: [hindiStatement, hindiValidation],
};

function compiled(catalogues: Record<string, string>[]): Messages {
  return Object.fromEntries(
    catalogues.flatMap((catalogue) =>
      Object.entries(catalogue).map(([id, message]) => [id, compileMessage(message)]),
    ),
  );
}

const instances = new Map<Language, I18n>(
  LANGUAGES.map((language) => [
    language,
    setupI18n({ locale: language, messages: { [language]: compiled(CATALOGUES[language]) } }),
  ]),
);

export interface StatementTexts {
  (id: StatementTextId, values?: Values): string;
  /**
   * A field message of the shared rules (English, as the API sends it) in this language: the
   * validation catalogue's text for its code, or the English one where there is none.
   */
  field(message: string): string;
}

export function statementTexts(language: Language): StatementTexts {
  const i18n = instances.get(language);
  if (!i18n) throw new Error(`no texts for language ${language}`);
  const texts = (id: StatementTextId, values?: Values) => i18n._(id, values);
  return Object.assign(texts, {
    field(message: string) {
      const code = validationCodeOf(message);
      const id = code === undefined ? undefined : `validation.${code}`;
      return id !== undefined && id in i18n.messages ? i18n._(id) : message;
    },
  });
}
