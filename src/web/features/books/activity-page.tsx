import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { PageCard } from '../../components/page-card.tsx';
import { RequireMay } from '../../components/require-may.tsx';
import { useT } from '../../i18n/translate.tsx';
import { ActivityList } from './activity-list.tsx';
import { useMembers } from './members-api.ts';

/** Whose activity to show: everyone's, or one member's (kept in the URL, `?member=`). */
function MemberFilter({ value, onChange }: { value: string; onChange(id: string): void }) {
  const t = useT();
  const id = useId();
  const members = useMembers();
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
        {members.data?.items.map((member) => (
          <option key={member.id} value={member.id}>
            {member.email}
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
