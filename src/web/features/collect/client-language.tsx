import type { Client } from '../../../shared/client-schema.ts';
import { LANGUAGE_NAMES } from '../../../shared/languages.ts';
import { T } from '../../i18n/translate.tsx';

/**
 * Which language a reminder is written in: the client's, named in itself as the language menus
 * name it (so that the operator sees why it is not the page's).
 */
export function ClientLanguage({ client }: { client: Pick<Client, 'language'> }) {
  return (
    <T
      id="collect.clientLanguage"
      components={{ 0: <span lang={client.language}>{LANGUAGE_NAMES[client.language]}</span> }}
    />
  );
}
