import { type FocusEvent, type RefObject, useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import type { Client } from '../../shared/client-schema.ts';
import type { CollectItem, CollectRound } from '../../shared/dues-schema.ts';
import { paths } from '../../shared/paths.ts';
import { useFlash } from '../components/flash-messages.tsx';
import { lazyDialog } from '../components/lazy-dialog.tsx';
import { LoadFailed, Loading } from '../components/loading.tsx';
import { Money } from '../components/money.tsx';
import { usePageTitle } from '../components/page-title.ts';
import { useCollectRound, useSkipClient } from '../features/collect/dues-api.ts';
import { reasonsText } from '../features/collect/round-text.ts';
import { EntryForm } from '../features/ledger/entry-form.tsx';
import { T, translate, useT } from '../i18n/translate.tsx';
import { useMay } from '../lib/books.ts';
import { failureText, messages } from '../lib/messages.ts';
import { useMediaQuery } from '../lib/use-media-query.ts';

/*
 * The dialogs belong to the page, not to a row: a client reminded or promised leaves the
 * round as soon as the server says so, and the dialog (with the WhatsApp link still to tap)
 * must stay open after their row has gone. Each loads when first opened.
 */
const RemindDialog = lazyDialog(
  'reminder',
  () => import('../features/collect/remind-dialog.tsx').then((m) => m.RemindDialog),
  'collect.dialog.reminder',
);
const PromiseDialog = lazyDialog(
  'promise',
  () => import('../features/collect/promise-dialog.tsx').then((m) => m.PromiseDialog),
  'collect.dialog.promise',
);

type Dialog = { kind: 'remind' | 'promise'; client: Client };

/** What a row's buttons ask the page for. */
interface RowHandlers {
  paying: string | null;
  setPaying(id: string | null): void;
  open(dialog: Dialog): void;
}

/** Below Bootstrap's md width (a phone), the round is one card at a time. */
const PHONE = '(max-width: 767.98px)';

const nameOf = (client: Client) => `${client.fname} ${client.lname}`;

/** "12 of 30 done today": those dealt with, of those dealt with and those left. */
function Progress({ round }: { round: CollectRound }) {
  const t = useT();
  const total = round.done + round.remaining;
  // Nobody to see today at all: "0 of 0" would say nothing the page does not say better.
  if (total === 0) return null;
  const text = t('collect.page.progress', { done: round.done, total });
  return (
    <div className="mb-3">
      <p className="mb-1">{text}</p>
      <div
        className="progress"
        role="progressbar"
        aria-label={text}
        aria-valuenow={round.done}
        aria-valuemin={0}
        aria-valuemax={total}
        style={{ height: '0.5rem' }}
      >
        <div
          className="progress-bar bg-success"
          style={{ width: `${(100 * round.done) / total}%` }}
        />
      </div>
    </div>
  );
}

function Reasons({ item, on }: { item: CollectItem; on: string }) {
  return (
    <ul className="list-unstyled mb-0">
      {reasonsText(item, on).map((reason) => (
        <li key={reason}>{reason}</li>
      ))}
    </ul>
  );
}

/** The four ways to deal with a client on the round; the payment form opens below them. */
function Actions({
  client,
  handlers: { paying, setPaying, open },
  stacked,
}: {
  client: Client;
  handlers: RowHandlers;
  /** On a phone: big buttons, one under another, easy to tap between customers. */
  stacked?: boolean;
}) {
  const t = useT();
  const skip = useSkipClient();
  const flash = useFlash();
  const mayRemind = useMay('reminders.send');
  const mayRecord = useMay('entries.record');
  const mayPromise = useMay('promises.record');
  const maySkip = useMay('round.skip');
  const name = nameOf(client);
  const size = stacked ? undefined : 'sm';
  return (
    <div className={stacked ? 'd-grid gap-2' : 'd-flex flex-wrap gap-1'}>
      {mayRemind ? (
        <Button
          variant="outline-primary"
          size={size}
          aria-label={t('collect.remind.label', { name })}
          onClick={() => open({ kind: 'remind', client })}
        >
          {t('collect.remind.button')}
        </Button>
      ) : null}
      {mayRecord ? (
        <Button
          variant="outline-success"
          size={size}
          aria-label={t('collect.page.recordPaymentFrom', { name })}
          aria-expanded={paying === client.id}
          onClick={() => setPaying(paying === client.id ? null : client.id)}
        >
          {t('collect.page.recordPayment')}
        </Button>
      ) : null}
      {mayPromise ? (
        <Button
          variant="outline-secondary"
          size={size}
          aria-label={t('collect.promise.from', { name })}
          onClick={() => open({ kind: 'promise', client })}
        >
          {t('collect.promise.button')}
        </Button>
      ) : null}
      {maySkip ? (
        <Button
          variant="outline-secondary"
          size={size}
          aria-label={t('collect.page.skipLabel', { name })}
          disabled={skip.isPending}
          onClick={() =>
            skip.mutate(client.id, {
              onError: (error) =>
                flash.failure(
                  failureText(translate('collect.page.notSkipped', { name }), error),
                  messages.failureSeconds,
                ),
            })
          }
        >
          {t('collect.page.skip')}
        </Button>
      ) : null}
    </div>
  );
}

/** Whether this member may deal with a client on the round in any of its four ways. */
function useMayAct(): boolean {
  const mayRemind = useMay('reminders.send');
  const mayRecord = useMay('entries.record');
  const mayPromise = useMay('promises.record');
  const maySkip = useMay('round.skip');
  return mayRemind || mayRecord || mayPromise || maySkip;
}

function RoundTable({ round, handlers }: { round: CollectRound; handlers: RowHandlers }) {
  const t = useT();
  const { paying, setPaying } = handlers;
  // A viewer sees the round, with no column of buttons they may not have.
  const mayAct = useMayAct();
  return (
    <Table hover responsive aria-label={t('collect.page.table')} className="align-middle">
      <thead>
        <tr>
          <th scope="col">{t('collect.page.client')}</th>
          <th scope="col" className="text-end">
            {t('collect.page.overdue')}
          </th>
          <th scope="col">{t('collect.page.why')}</th>
          {mayAct ? <th scope="col">{t('collect.page.actions')}</th> : null}
        </tr>
      </thead>
      <tbody>
        {round.items.map((item) => {
          const { client } = item;
          return [
            <tr key={client.id} data-round-row>
              <th scope="row">
                <Link to={paths.clientDetails(client.id)}>{nameOf(client)}</Link>
              </th>
              <td className="text-end">
                <Money amount={item.overdue} />
              </td>
              <td>
                <Reasons item={item} on={round.on} />
              </td>
              {mayAct ? (
                <td>
                  <Actions client={client} handlers={handlers} />
                </td>
              ) : null}
            </tr>,
            paying === client.id ? (
              <tr key={`${client.id}-payment`}>
                <td colSpan={mayAct ? 4 : 3}>
                  <EntryForm client={client} kind="payment" onDone={() => setPaying(null)} />
                </td>
              </tr>
            ) : null,
          ];
        })}
      </tbody>
    </Table>
  );
}

/** On a phone: one client at a time, with what to do and "Next" to leave them for later. */
function RoundCard({ round, handlers }: { round: CollectRound; handlers: RowHandlers }) {
  const t = useT();
  const { paying, setPaying } = handlers;
  const [position, setPosition] = useState(0);
  const count = round.items.length;
  // A client dealt with leaves the list: the same position then holds the next one.
  const at = position % count;
  const item = round.items[at];
  if (!item) return null;
  const { client } = item;
  return (
    <Card as="section" aria-labelledby="round-card-name" data-round-row>
      <Card.Body>
        <p className="small text-body-secondary mb-1">
          {t('collect.page.left', { position: at + 1, remaining: round.remaining })}
        </p>
        <h2 id="round-card-name" className="h4">
          <Link to={paths.clientDetails(client.id)}>{nameOf(client)}</Link>
        </h2>
        <p className="fs-5 mb-1">
          <T
            id="collect.page.cardOverdue"
            components={{ 0: <Money amount={item.overdue} className="balance-owing" /> }}
          />
        </p>
        <div className="mb-3">
          <Reasons item={item} on={round.on} />
        </div>
        <Actions client={client} handlers={handlers} stacked />
        {paying === client.id ? (
          <EntryForm client={client} kind="payment" onDone={() => setPaying(null)} />
        ) : null}
        {count > 1 ? (
          <Button
            variant="primary"
            className="w-100 mt-3"
            onClick={() => {
              setPaying(null);
              setPosition(at + 1);
            }}
          >
            {t('collect.page.next')}
          </Button>
        ) : null}
      </Card.Body>
    </Card>
  );
}

/**
 * Keeps the place of a keyboard or screen-reader user going through the round: a client dealt
 * with leaves it, and with them the button that had the focus (or that a closing dialog gives
 * it back to). The focus then goes to the client now in that place (their name), or to the
 * page's heading once nobody is left, instead of falling to the top of the document.
 */
function useKeptPlace(
  round: RefObject<HTMLDivElement | null>,
  itemsKey: string,
  dialogOpen: boolean,
) {
  // The place (row) last used on the round; null until the person works in it.
  const place = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: run again whenever the round's rows change (itemsKey), which is when a focused row may have gone.
  useEffect(() => {
    if (dialogOpen || place.current === null) return;
    // After the dialog's own focus handling, which gives the focus back as it closes.
    const timer = setTimeout(() => {
      const active = document.activeElement;
      if (active && active !== document.body && active.isConnected) return;
      const rows = round.current?.querySelectorAll<HTMLElement>('[data-round-row]') ?? [];
      const next = rows[Math.min(place.current ?? 0, rows.length - 1)];
      const target = next?.querySelector<HTMLElement>('a, button') ?? document.querySelector('h1');
      target?.focus();
    }, 0);
    return () => clearTimeout(timer);
  }, [itemsKey, dialogOpen, round]);
  /** The round's focus handler: notes the place of the row that has the focus. */
  return (event: FocusEvent<HTMLDivElement>) => {
    const row = (event.target as HTMLElement).closest('[data-round-row]');
    if (row)
      place.current = [...event.currentTarget.querySelectorAll('[data-round-row]')].indexOf(row);
  };
}

/**
 * Today's collection round: promises due today, promises broken, and clients overdue and
 * not reminded for a week, biggest overdue first, each with why and what to do. A client
 * dealt with (reminded, paid, promised, skipped) leaves it, here and on every other tab.
 */
export function CollectPage() {
  const t = useT();
  usePageTitle(t('collect.page.title'));
  const round = useCollectRound();
  const phone = useMediaQuery(PHONE);
  const [paying, setPaying] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const handlers: RowHandlers = { paying, setPaying, open: setDialog };
  const close = () => setDialog(null);
  const data = round.data;
  const roundRef = useRef<HTMLDivElement>(null);
  const notePlace = useKeptPlace(
    roundRef,
    data?.items.map((item) => item.client.id).join() ?? '',
    dialog !== null,
  );
  return (
    <>
      <h1 className="h2 mb-3" tabIndex={-1}>
        {t('collect.page.title')}
      </h1>
      {round.isError ? (
        <LoadFailed
          what={t('collect.page.loadWhat')}
          error={round.error}
          onRetry={() => round.refetch()}
        />
      ) : !data ? (
        <Loading />
      ) : (
        // biome-ignore lint/a11y/noStaticElementInteractions: it only notes which row its own buttons' focus is in; it adds no interaction.
        <div ref={roundRef} onFocus={notePlace}>
          <Progress round={data} />
          {data.items.length === 0 ? (
            <div className="text-center py-4">
              <h2 className="h4">{t('collect.page.nothing')}</h2>
              <p className="text-body-secondary mb-0">
                {data.done > 0 ? t('collect.page.allDone') : t('collect.page.noneDue')}
              </p>
            </div>
          ) : phone ? (
            <RoundCard round={data} handlers={handlers} />
          ) : (
            <>
              <RoundTable round={data} handlers={handlers} />
              {data.remaining > data.items.length ? (
                <p className="text-body-secondary">
                  {t('collect.page.firstShown', {
                    shown: data.items.length,
                    remaining: data.remaining,
                  })}
                </p>
              ) : null}
            </>
          )}
        </div>
      )}
      {dialog?.kind === 'remind' ? (
        <RemindDialog key={dialog.client.id} client={dialog.client} onClose={close} />
      ) : null}
      {dialog?.kind === 'promise' ? (
        <PromiseDialog key={dialog.client.id} client={dialog.client} onClose={close} />
      ) : null}
    </>
  );
}
