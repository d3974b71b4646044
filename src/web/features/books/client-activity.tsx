import { useT } from '../../i18n/translate.tsx';
import { ActivityList } from './activity-list.tsx';

/** On a client's page: what the book's members did to this client, newest first. */
export function ClientActivity({ clientId }: { clientId: string }) {
  const t = useT();
  return (
    <section aria-labelledby="client-activity-heading" className="mt-4">
      <h2 id="client-activity-heading" className="h4">
        {t('books.activity.title')}
      </h2>
      <ActivityList filter={{ clientId }} />
    </section>
  );
}
