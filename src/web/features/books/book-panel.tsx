import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { BOOK_ROLES, type BookRole, INVITE_ROLES, roleMay } from '../../../shared/book-roles.ts';
import { type Book, INVITE_DAYS, type Member } from '../../../shared/book-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useFlash } from '../../components/flash-messages.tsx';
import { lazyDialog } from '../../components/lazy-dialog.tsx';
import { LoadFailed } from '../../components/loading.tsx';
import { T, translate, useT } from '../../i18n/translate.tsx';
import { enterBook, useCurrentBook } from '../../lib/books.ts';
import { copyText } from '../../lib/clipboard.ts';
import { formatTime } from '../../lib/dates.ts';
import { useSession } from '../../lib/session.ts';
import { FAILURE_SECONDS, failureText } from '../../lib/shell-messages.ts';
import {
  useChangeRole,
  useCreateInvite,
  useLeaveBook,
  useMembers,
  useRemoveMember,
} from './members-api.ts';
import { ROLE_NAMES } from './role-names.ts';

const NewBookDialog = lazyDialog(
  'new book dialog',
  () => import('./new-book-dialog.tsx').then((m) => m.NewBookDialog),
  'books.new.title',
);

type InviteRole = (typeof INVITE_ROLES)[number];

/** A change of role waiting for its "Are you sure?" (handing the book over, removing). */
type Pending = { kind: 'hand-over'; member: Member } | { kind: 'remove'; member: Member };

function MemberRow({
  member,
  ownId,
  manages,
  onRole,
  onRemove,
  busy,
}: {
  member: Member;
  ownId: string | undefined;
  manages: boolean;
  onRole(member: Member, role: BookRole): void;
  onRemove(member: Member): void;
  busy: boolean;
}) {
  const t = useT();
  const self = member.id === ownId;
  return (
    <tr>
      <td className="text-break">
        {self ? t('books.members.you', { email: member.email }) : member.email}
      </td>
      <td>
        {manages && !self ? (
          <select
            className="form-select form-select-sm member-role"
            aria-label={t('books.members.roleOf', { email: member.email })}
            value={member.role}
            disabled={busy}
            onChange={(event) => onRole(member, event.target.value as BookRole)}
          >
            {BOOK_ROLES.map((role) => (
              <option key={role} value={role}>
                {t(ROLE_NAMES[role])}
              </option>
            ))}
          </select>
        ) : (
          t(ROLE_NAMES[member.role])
        )}
      </td>
      {/* Left out on a phone: the e-mail, the role and Remove need the width. */}
      <td className="text-nowrap d-none d-sm-table-cell">{formatTime(member.joinedAt)}</td>
      {manages ? (
        <td className="text-end">
          {self ? null : (
            <button
              type="button"
              className="btn btn-outline-danger btn-sm"
              disabled={busy}
              aria-label={t('books.members.removeLabel', { email: member.email })}
              onClick={() => onRemove(member)}
            >
              {t('books.members.remove')}
            </button>
          )}
        </td>
      ) : null}
    </tr>
  );
}

function Members({ book, ownId }: { book: Book; ownId: string | undefined }) {
  const t = useT();
  const members = useMembers();
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const flash = useFlash();
  const [pending, setPending] = useState<Pending | null>(null);
  const manages = roleMay(book.role, 'members.manage');

  async function setRole(member: Member, role: BookRole) {
    try {
      await changeRole.mutateAsync({ id: member.id, role });
      flash.success(
        translate('books.members.roleChanged', {
          email: member.email,
          role: translate(ROLE_NAMES[role]),
        }),
        4,
      );
    } catch (error) {
      flash.failure(failureText(translate('books.members.roleFailed'), error), FAILURE_SECONDS);
    }
  }

  async function confirm() {
    if (!pending) return;
    const { member } = pending;
    if (pending.kind === 'hand-over') {
      await setRole(member, 'owner');
    } else {
      try {
        await remove.mutateAsync(member.id);
        flash.success(translate('books.members.removed', { email: member.email }), 4);
      } catch (error) {
        flash.failure(failureText(translate('books.members.removeFailed'), error), FAILURE_SECONDS);
      }
    }
    setPending(null);
  }

  if (members.isError && !members.data) {
    return (
      <LoadFailed
        what={t('books.members.loadWhat')}
        error={members.error}
        onRetry={() => members.refetch()}
      />
    );
  }
  if (!members.data) return <p className="text-body-secondary">{t('shell.loading')}</p>;
  return (
    <>
      <div className="table-responsive">
        <table aria-label={t('books.members.title')} className="table table-sm align-middle">
          <thead>
            <tr>
              <th scope="col">{t('books.members.column.email')}</th>
              <th scope="col">{t('books.members.column.role')}</th>
              <th scope="col" className="d-none d-sm-table-cell">
                {t('books.members.column.joined')}
              </th>
              {manages ? (
                <th scope="col">
                  <span className="visually-hidden">{t('books.members.column.actions')}</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {members.data.items.map((member) => (
              <MemberRow
                key={`${member.id}-${member.role}`}
                member={member}
                ownId={ownId}
                manages={manages}
                busy={changeRole.isPending || remove.isPending}
                onRole={(chosen, role) => {
                  if (role === 'owner') setPending({ kind: 'hand-over', member: chosen });
                  else void setRole(chosen, role);
                }}
                onRemove={(chosen) => setPending({ kind: 'remove', member: chosen })}
              />
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        show={pending !== null}
        busy={changeRole.isPending || remove.isPending}
        title={
          pending?.kind === 'hand-over'
            ? t('books.members.handover.title')
            : t('books.members.remove.title')
        }
        confirmLabel={
          pending?.kind === 'hand-over'
            ? t('books.members.handover.confirm')
            : t('books.members.remove')
        }
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      >
        {pending ? (
          <T
            id={
              pending.kind === 'hand-over'
                ? 'books.members.handover.body'
                : 'books.members.remove.body'
            }
            values={{ email: pending.member.email, book: book.name }}
            components={{ 0: <strong /> }}
          />
        ) : null}
      </ConfirmDialog>
    </>
  );
}

/** The owner's invitation: a role chosen, a link shown once, to send by any means. */
function Invite() {
  const t = useT();
  const id = useId();
  const create = useCreateInvite();
  const [role, setRole] = useState<InviteRole>('staff');
  const [copied, setCopied] = useState<boolean | null>(null);
  const made = create.data;
  return (
    <section aria-labelledby={`${id}-title`} className="mt-4">
      <h3 id={`${id}-title`} className="h6">
        {t('books.invite.title')}
      </h3>
      <p className="small text-body-secondary">{t('books.invite.help', { days: INVITE_DAYS })}</p>
      <form
        className="d-flex flex-wrap align-items-end gap-2 mb-2"
        aria-label={t('books.invite.title')}
        onSubmit={(event) => {
          event.preventDefault();
          setCopied(null);
          create.mutate(role);
        }}
      >
        <div>
          <label className="form-label" htmlFor={`${id}-role`}>
            {t('books.invite.role')}
          </label>
          <select
            id={`${id}-role`}
            className="form-select"
            value={role}
            onChange={(event) => setRole(event.target.value as InviteRole)}
          >
            {INVITE_ROLES.map((choice) => (
              <option key={choice} value={choice}>
                {t(ROLE_NAMES[choice])}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {t('books.invite.make')}
        </button>
      </form>
      {create.isError ? (
        <p role="alert" className="text-danger">
          {failureText(translate('books.invite.failed'), create.error)}
        </p>
      ) : null}
      {made ? (
        <div>
          <label className="form-label" htmlFor={`${id}-url`}>
            {t('books.invite.link')}
          </label>
          <div className="input-group">
            <input
              id={`${id}-url`}
              className="form-control"
              readOnly
              value={made.url}
              onFocus={(event) => event.target.select()}
            />
            <button
              type="button"
              className="btn btn-outline-secondary"
              onClick={async () => setCopied(await copyText(made.url))}
            >
              {t('books.invite.copy')}
            </button>
          </div>
          <p className="form-text" aria-live="polite">
            {copied === true
              ? t('books.invite.copied')
              : copied === false
                ? t('books.invite.copyFailed')
                : t('books.invite.shownOnce', { time: formatTime(made.expiresAt) })}
          </p>
        </div>
      ) : null}
    </section>
  );
}

/** "Leave this book", for any member but its owner (who hands it over first). */
function Leave({ book, ownId }: { book: Book; ownId: string }) {
  const t = useT();
  const leave = useLeaveBook();
  const queryClient = useQueryClient();
  const flash = useFlash();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  async function run() {
    try {
      await leave.mutateAsync(ownId);
      setConfirming(false);
      await enterBook(queryClient, () => navigate(paths.dashboard));
      flash.success(translate('books.leave.done', { book: book.name }), 5);
    } catch (error) {
      setConfirming(false);
      flash.failure(failureText(translate('books.leave.failed'), error), FAILURE_SECONDS);
    }
  }
  return (
    <>
      <button type="button" className="btn btn-outline-danger" onClick={() => setConfirming(true)}>
        {t('books.leave.button')}
      </button>
      <ConfirmDialog
        show={confirming}
        busy={leave.isPending}
        title={t('books.leave.title')}
        confirmLabel={t('books.leave.confirm')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void run()}
      >
        {t('books.leave.body', { book: book.name })}
      </ConfirmDialog>
    </>
  );
}

/**
 * Settings, the current book: its name and this member's role, its members (the owner gives
 * roles, hands the book over, removes and invites), leaving it, and making another.
 */
export function BookPanel() {
  const t = useT();
  const book = useCurrentBook();
  const session = useSession();
  const ownId = session.data?.id;
  const [creating, setCreating] = useState(false);
  return (
    <div className="card mt-4" id="book">
      <h2 className="card-header h5">
        {book ? t('books.panel.title', { name: book.name }) : t('books.members.title')}
      </h2>
      <div className="card-body">
        {book ? (
          <>
            <p className="mb-1">{t('books.panel.yourRole', { role: t(ROLE_NAMES[book.role]) })}</p>
            <p className="small text-body-secondary">{t('books.roles.help')}</p>
            <h3 className="h6 mt-3">{t('books.members.title')}</h3>
            <Members book={book} ownId={ownId} />
            {roleMay(book.role, 'members.manage') ? <Invite /> : null}
            <div className="d-flex flex-wrap gap-2 mt-4">
              {book.role !== 'owner' && ownId ? <Leave book={book} ownId={ownId} /> : null}
              <button
                type="button"
                className="btn btn-outline-secondary"
                onClick={() => setCreating(true)}
              >
                {t('books.new.another')}
              </button>
            </div>
          </>
        ) : (
          <p className="text-body-secondary">{t('shell.loading')}</p>
        )}
        {creating ? <NewBookDialog onClose={() => setCreating(false)} /> : null}
      </div>
    </div>
  );
}
