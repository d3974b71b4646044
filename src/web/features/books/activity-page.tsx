import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { PageCard } from '../../components/page-card.tsx';
import { RequireMay } from '../../components/require-may.tsx';
import { useT } from '../../i18n/translate.tsx';
import { ActivityList } from './activity-list.tsx';
import { useActivity, useMembers } from './members-api.ts';

/** Whose activity to show: everyone's, or one member's (kept in the URL, `?member=`). */
function MemberFilter({ value, onChange }: { value: string; onChange(id: string): void }) {
  const t = useT();
  const id = useId();
  const members = useMembers();
  // Former members too: the log still names them (the same first page the list shows).
  const everyone = useActivity({});
  const people = new Map<string, string>();
  for (const member of members.data?.items ?? []) people.set(member.id, member.email);
  for (const page of everyone.data?.pages ?? []) {
    for (const item of page.items)
      if (!people.has(item.actor.id)) people.set(item.actor.id, item.actor.email);
  }
  return (
    <div className="mb-3">
      <label className="form-label" htmlFor={id}>
        {t('books.activity.member')}
      </label>
      <select
        id={id}
        className="form-select"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{t('books.activity.everyone')}</option>
        {[...people].map(([id, email]) => (
          <option key={id} value={id}>
            {email}
          </option>
        ))}
      </select>
    </div>
  );
}

function Activity() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const memberId = params.get('member') ?? '';
  return (
    <PageCard
      title={t('books.activity.title')}
      backTo={paths.dashboard}
      backLabel={t('shell.backToDashboard')}
    >
      <MemberFilter
        value={memberId}
        onChange={(id) => setParams(id ? { member: id } : {}, { replace: true })}
      />
      <ActivityList filter={{ memberId: memberId || undefined }} />
    </PageCard>
  );
}

/** The whole book's activity: for its owner and managers. */
export function ActivityPage() {
  return (
    <RequireMay action="activity.read">
      <Activity />
    </RequireMay>
  );
}
