import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { inviteAcceptedSchema } from '../../../shared/book-schema.ts';
import { apiPaths, paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { ApiError, api, workInBook } from '../../lib/api-client.ts';
import { asOwnSwitch } from '../../lib/books.ts';
import { useInviteCheck } from '../../lib/invite-check.ts';
import { useSession } from '../../lib/session.ts';
import { FAILURE_SECONDS, failureText } from '../../lib/shell-messages.ts';
import { ROLE_NAMES } from './role-names.ts';

/**
 * An invitation link (`/invite/<token>`). Signed in: "Join the book", and the session moves
 * into it. Signed out: sign in, or create an account (the invitation lets them register even
 * while registrations are closed), then come back here. `onJoined` empties what the app read
 * from the book the session was in.
 */
export function InvitePage({ onJoined }: { onJoined(): Promise<void> | void }) {
  const t = useT();
  usePageTitle(t('books.join.title'));
  const { token = '' } = useParams();
  const session = useSession();
  const flash = useFlash();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState(false);
  // Asked as the page opens; a link that dies meanwhile is refused when joining.
  const check = useInviteCheck(token);
  const unknown = check === 'unknown' || refused;

  async function join() {
    setBusy(true);
    try {
      const { book, joined } = await asOwnSwitch(async () => {
        const accepted = await api.post(apiPaths.inviteAccept(token), inviteAcceptedSchema);
        workInBook(accepted.book.id);
        await onJoined();
        return accepted;
      });
      const values = { book: book.name, role: translate(ROLE_NAMES[book.role]) };
      flash.success(translate(joined ? 'books.join.joined' : 'books.join.already', values), 5);
      navigate(paths.dashboard, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setRefused(true);
      else flash.failure(failureText(translate('books.join.failed'), error), FAILURE_SECONDS);
    } finally {
      setBusy(false);
    }
  }

  const here = paths.invite(token);
  return (
    <div className="card mx-auto auth-card">
      <div className="card-body">
        <h1 className="h3 text-center mb-3">{t('books.join.title')}</h1>
        {unknown ? (
          <p role="alert" className="text-danger">
            {t('books.join.notFound')}
          </p>
        ) : check === 'checking' ? (
          <Loading />
        ) : session.data ? (
          <>
            <p>{t('books.join.intro')}</p>
            <button
              type="button"
              className="btn btn-primary w-100"
              disabled={busy}
              onClick={() => void join()}
            >
              {t('books.join.button')}
            </button>
          </>
        ) : (
          <>
            <p>{t('books.join.intro')}</p>
            <p>{t('books.join.signedOut')}</p>
            <div className="d-grid gap-2">
              <Link
                className="btn btn-primary"
                to={`${paths.login}?${new URLSearchParams({ next: here })}`}
              >
                {t('books.join.signIn')}
              </Link>
              <Link
                className="btn btn-outline-primary"
                to={`${paths.register}?${new URLSearchParams({ invite: token })}`}
              >
                {t('books.join.register')}
              </Link>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
