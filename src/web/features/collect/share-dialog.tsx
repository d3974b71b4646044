import { useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import type { Client } from '../../../shared/client-schema.ts';
import {
  DEFAULT_LINK_DAYS,
  MAX_LINK_DAYS,
  newShareLinkSchema,
  type ShareLink,
} from '../../../shared/share-link-schema.ts';
import { LoadFailed } from '../../components/loading.tsx';
import { translate, useT } from '../../i18n/translate.tsx';
import { useMay } from '../../lib/books.ts';
import { copyText } from '../../lib/clipboard.ts';
import { formatTime } from '../../lib/dates.ts';
import { fieldMessageText } from '../../lib/form-errors.ts';
import { failureText } from '../../lib/messages.ts';
import { useCreateShareLink, useRevokeShareLink, useShareLinks } from './collect-api.ts';

function LinkRow({ link, clientId }: { link: ShareLink; clientId: string }) {
  const t = useT();
  const revoke = useRevokeShareLink(clientId);
  const [confirming, setConfirming] = useState(false);
  const mayRevoke = useMay('links.revoke');
  const expired = new Date(link.expiresAt).getTime() <= Date.now();
  const made = formatTime(link.createdAt);
  return (
    <tr>
      <td>{made}</td>
      <td>{formatTime(link.expiresAt)}</td>
      <td>{link.lastOpenedAt ? formatTime(link.lastOpenedAt) : t('collect.share.never')}</td>
      <td>
        {link.revokedAt ? (
          t('collect.share.revoked', { time: formatTime(link.revokedAt) })
        ) : expired ? (
          t('collect.share.expired')
        ) : !mayRevoke ? null : confirming ? (
          <span className="d-inline-flex flex-wrap align-items-center gap-1">
            <span>{t('collect.share.confirmRevoke')}</span>
            <Button
              size="sm"
              variant="danger"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate(link.id, { onSettled: () => setConfirming(false) })}
            >
              {t('collect.share.yesRevoke')}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setConfirming(false)}>
              {t('collect.share.keep')}
            </Button>
          </span>
        ) : (
          <Button
            size="sm"
            variant="outline-danger"
            aria-label={t('collect.share.revokeLabel', { time: made })}
            onClick={() => setConfirming(true)}
          >
            {t('collect.share.revoke')}
          </Button>
        )}
        {revoke.isError ? (
          <div role="alert" className="text-danger small">
            {failureText(translate('collect.share.notRevoked'), revoke.error)}
          </div>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * "Share statement": makes a link the client opens without signing in, shows its URL once
 * (only its digest is kept), and lists the client's links to revoke any.
 */
export function ShareDialog({ client, onClose }: { client: Client; onClose(): void }) {
  const t = useT();
  const titleId = useId();
  const daysId = useId();
  const links = useShareLinks(client.id);
  const create = useCreateShareLink(client.id);
  const [days, setDays] = useState(String(DEFAULT_LINK_DAYS));
  const daysInput = useRef<HTMLInputElement>(null);
  const [daysError, setDaysError] = useState<string | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [copied, setCopied] = useState<boolean | null>(null);

  async function make() {
    const checked = newShareLinkSchema.safeParse({ expiresInDays: Number(days) });
    const problem =
      days.trim() === ''
        ? translate('collect.share.daysWhole')
        : fieldMessageText(checked.error?.issues[0]?.message);
    setDaysError(problem ?? null);
    if (problem || !checked.success) {
      // The field to mend has the focus, as on every form of the app.
      daysInput.current?.focus();
      return;
    }
    setCopied(null);
    try {
      const made = await create.mutateAsync(checked.data.expiresInDays ?? DEFAULT_LINK_DAYS);
      setUrl(made.url);
    } catch {
      // Said under the button (create.error).
    }
  }

  return (
    <Modal show onHide={onClose} centered size="lg" aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel={t('collect.close')}>
        <Modal.Title id={titleId}>
          {t('collect.share.title', { name: `${client.fname} ${client.lname}` })}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form
          noValidate
          aria-label={t('collect.share.newLink')}
          onSubmit={(event) => {
            event.preventDefault();
            void make();
          }}
        >
          <Form.Label htmlFor={daysId}>{t('collect.share.days')}</Form.Label>
          <InputGroup hasValidation className="mb-2">
            <Form.Control
              ref={daysInput}
              id={daysId}
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_LINK_DAYS}
              value={days}
              isInvalid={Boolean(daysError)}
              aria-invalid={Boolean(daysError)}
              aria-describedby={daysError ? `${daysId}-error` : undefined}
              onChange={(event) => setDays(event.target.value)}
            />
            <Button type="submit" variant="primary" disabled={create.isPending}>
              {t('collect.share.make')}
            </Button>
            <Form.Control.Feedback type="invalid" id={`${daysId}-error`}>
              {daysError}
            </Form.Control.Feedback>
          </InputGroup>
          {create.isError ? (
            <p role="alert" className="text-danger">
              {failureText(translate('collect.share.notMade'), create.error)}
            </p>
          ) : null}
        </Form>
        {url ? (
          <div className="mb-3">
            <Form.Label htmlFor={`${daysId}-url`}>{t('collect.share.link')}</Form.Label>
            <InputGroup>
              <Form.Control
                id={`${daysId}-url`}
                readOnly
                value={url}
                onFocus={(event) => event.target.select()}
              />
              <Button
                variant="outline-secondary"
                onClick={async () => setCopied(await copyText(url))}
              >
                {t('collect.copy')}
              </Button>
            </InputGroup>
            <Form.Text muted aria-live="polite">
              {copied === true
                ? t('collect.copied')
                : copied === false
                  ? t('collect.share.copyFailed')
                  : t('collect.share.shownOnce')}
            </Form.Text>
          </div>
        ) : null}
        <h3 className="h6 mt-3">{t('collect.share.made')}</h3>
        {links.isError ? (
          <LoadFailed
            what={t('collect.share.loadWhat')}
            error={links.error}
            onRetry={() => links.refetch()}
          />
        ) : !links.data ? (
          <p className="text-body-secondary">{t('collect.loading')}</p>
        ) : links.data.items.length === 0 ? (
          <p className="text-body-secondary">{t('collect.share.none')}</p>
        ) : (
          <Table size="sm" responsive aria-label={t('collect.share.links')}>
            <thead>
              <tr>
                <th scope="col">{t('collect.share.column.made')}</th>
                <th scope="col">{t('collect.share.column.expires')}</th>
                <th scope="col">{t('collect.share.column.lastOpened')}</th>
                <th scope="col">{t('collect.share.column.state')}</th>
              </tr>
            </thead>
            <tbody>
              {links.data.items.map((link) => (
                <LinkRow key={link.id} link={link} clientId={client.id} />
              ))}
            </tbody>
          </Table>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          {t('collect.close')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
