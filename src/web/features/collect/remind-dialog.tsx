import { useEffect, useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { Client } from '../../../shared/client-schema.ts';
import { linkPreviewText, templatesFor } from '../../../shared/collection-schema.ts';
import type { PromiseToPay } from '../../../shared/dues-schema.ts';
import { paiseFromAmount } from '../../../shared/money.ts';
import {
  newReminderSchema,
  type ReminderChannel,
  type SentReminder,
} from '../../../shared/reminder-schema.ts';
import { LoadFailed } from '../../components/loading.tsx';
import { fieldErrorText } from '../../i18n/errors.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { copyText } from '../../lib/clipboard.ts';
import { fieldMessageText } from '../../lib/form-errors.ts';
import { failureText } from '../../lib/messages.ts';
import { ClientLanguage } from './client-language.tsx';
import { useCollectionSettings, useReminderPreview, useSendReminder } from './collect-api.ts';
import { PromiseForm } from './promise-dialog.tsx';
import { PromiseStatusBadge, promisedText } from './promise-text.tsx';

type AppChannel = Exclude<ReminderChannel, 'copy'>;

const CHANNELS: readonly AppChannel[] = ['whatsapp', 'sms', 'email'];

/** Where the operator is in a reminder of several clients, one after another. */
export interface ReminderSequence {
  /** 1-based. */
  position: number;
  total: number;
  /** To the next client (or the end): after a send, when the operator comes back; or Skip. */
  onNext(): void;
  onStop(): void;
}

/**
 * Calls `onBack` once the operator returns to this tab after leaving it (WhatsApp, the SMS
 * or mail app took over): the next client's reminder waits for them there.
 */
function useOnReturn(armed: boolean, onBack: () => void) {
  const callback = useRef(onBack);
  callback.current = onBack;
  useEffect(() => {
    if (!armed) return;
    const back = () => {
      if (document.visibilityState === 'visible') callback.current();
    };
    window.addEventListener('focus', back);
    document.addEventListener('visibilitychange', back);
    return () => {
      window.removeEventListener('focus', back);
      document.removeEventListener('visibilitychange', back);
    };
  }, [armed]);
}

function ReminderForm({
  client,
  message: filled,
  unavailable,
  sequence,
}: {
  client: Client;
  message: string;
  unavailable: Partial<Record<ReminderChannel, string>>;
  sequence: ReminderSequence | undefined;
}) {
  const t = useT();
  const id = useId();
  const send = useSendReminder(client.id);
  const [message, setMessage] = useState(filled);
  const [sent, setSent] = useState<SentReminder | null>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const [left, setLeft] = useState(false);
  // What the shared schema found wrong with the message, before anything was sent.
  const [invalid, setInvalid] = useState<string | undefined>();
  const messageBox = useRef<HTMLTextAreaElement>(null);
  // The preview is in the client's language, and so is its stand-in for the link.
  const linkStandIn = linkPreviewText(client.language);
  useOnReturn(left && sequence !== undefined, () => sequence?.onNext());

  // The server's reason under the message itself (an unknown placeholder, too long, emptied).
  const refusal = send.error instanceof ApiError ? send.error : undefined;
  const messageError =
    invalid ??
    (refusal?.fieldErrors.message
      ? fieldErrorText(refusal.fieldErrors.message, refusal.fieldCodes.message)
      : undefined);

  async function record(channel: ReminderChannel) {
    setCopied(null);
    setInvalid(undefined);
    // A link made for an earlier try must not stay beside this one's outcome.
    setSent(null);
    // Sent as typed only when changed (emptied too, which the server refuses): the template as
    // the server fills it makes a fresh statement link for {link}, which the preview shows as
    // "(statement link)" (in the client's language).
    const edited = message.trim() !== filled.trim();
    const text = edited ? message.split(linkStandIn).join('{link}') : undefined;
    const input = { channel, ...(text === undefined ? {} : { message: text }) };
    const checked = newReminderSchema.safeParse(input);
    if (!checked.success) {
      const issue = checked.error.issues.find((found) => found.path[0] === 'message');
      setInvalid(fieldMessageText(issue?.message ?? checked.error.issues[0]?.message));
      // As every form here does on a refused submit: the field to mend has the focus.
      messageBox.current?.focus();
      return;
    }
    const answer = await send.mutateAsync(input);
    setSent(answer);
    if (channel === 'copy') setCopied(await copyText(answer.message));
  }

  return (
    <>
      <Form.Group controlId={`${id}-message`} className="mb-3">
        <Form.Label>{t('collect.remind.message')}</Form.Label>
        <p className="small text-body-secondary mb-1" id={`${id}-message-language`}>
          <ClientLanguage client={client} />
        </p>
        <Form.Control
          as="textarea"
          ref={messageBox}
          rows={5}
          lang={client.language}
          value={message}
          onChange={(event) => {
            setMessage(event.target.value);
            // What was made or refused was for the text as it was.
            setSent(null);
            setInvalid(undefined);
            if (send.isError) send.reset();
          }}
          isInvalid={messageError !== undefined}
          aria-invalid={messageError !== undefined}
          aria-describedby={`${id}-message-language ${messageError ? `${id}-message-error ` : ''}${id}-message-help`}
        />
        {messageError ? (
          <Form.Control.Feedback type="invalid" id={`${id}-message-error`}>
            {messageError}
          </Form.Control.Feedback>
        ) : null}
        <Form.Text id={`${id}-message-help`} muted>
          {t('collect.remind.linkHelp', { link: linkStandIn })}
        </Form.Text>
      </Form.Group>
      <fieldset className="d-flex flex-wrap gap-2">
        <legend className="visually-hidden">{t('collect.remind.sendBy')}</legend>
        {CHANNELS.map((channel) => {
          const reason = unavailable[channel];
          return (
            <Button
              key={channel}
              variant="outline-primary"
              disabled={Boolean(reason) || send.isPending}
              aria-describedby={reason ? `${id}-${channel}-reason` : undefined}
              onClick={() => void record(channel).catch(() => {})}
            >
              {t('collect.channel', { channel })}
            </Button>
          );
        })}
        <Button
          variant="outline-secondary"
          disabled={send.isPending}
          onClick={() => void record('copy').catch(() => {})}
        >
          {t('collect.copy')}
        </Button>
      </fieldset>
      {CHANNELS.filter((channel) => unavailable[channel]).map((channel) => (
        <p
          key={channel}
          id={`${id}-${channel}-reason`}
          className="small text-body-secondary mt-2 mb-0"
        >
          {/* The server's reasons are messages of the validation catalogue (reminder-no-mobile…). */}
          {t('collect.channel', { channel })}: {fieldMessageText(unavailable[channel])}
        </p>
      ))}
      {send.isError ? (
        <p role="alert" className="text-danger mt-2">
          {failureText(translate('collect.remind.notMade'), send.error)}
        </p>
      ) : null}
      {sent?.url ? (
        <p className="mt-3 mb-0" aria-live="polite">
          {t('collect.remind.ready')}{' '}
          <a
            href={sent.url}
            target="_blank"
            rel="noopener"
            className="btn btn-success"
            onClick={() => setLeft(true)}
          >
            {t('collect.remind.open', { channel: sent.channel })}
          </a>
        </p>
      ) : null}
      {sent?.channel === 'copy' ? (
        <p className="mt-3 mb-0" aria-live="polite">
          {copied ? t('collect.copied') : t('collect.remind.copyFailed')}
        </p>
      ) : null}
    </>
  );
}

/**
 * The client's promise beside the reminder (what they said they would pay, and whether the
 * day has passed), and a form to record the one they make on the call or in the chat.
 */
function PromiseInReminder({ client }: { client: Client }) {
  const t = useT();
  const [recording, setRecording] = useState(false);
  // The dialog's client is the one it opened with: a promise made here shows at once.
  const [recorded, setRecorded] = useState<PromiseToPay | null>(null);
  const shown = recorded ?? client.promise;
  return (
    <section aria-label={t('collect.promise.toPay')} className="border-top mt-3 pt-3">
      {shown ? (
        <p className="d-flex flex-wrap gap-2 align-items-baseline mb-2">
          <span>{promisedText(shown)}</span>
          {shown.status === 'open' || shown.status === 'broken' ? (
            <PromiseStatusBadge status={shown.status} />
          ) : null}
        </p>
      ) : null}
      {recording ? (
        <PromiseForm
          client={client}
          onDone={(promise) => {
            setRecorded(promise);
            setRecording(false);
          }}
          onCancel={() => setRecording(false)}
        />
      ) : (
        <Button variant="outline-secondary" size="sm" onClick={() => setRecording(true)}>
          {shown ? t('collect.promise.recordNew') : t('collect.promise.recordFirst')}
        </Button>
      )}
    </section>
  );
}

/**
 * What the operator has not set that this reminder would miss: the business the template
 * names ("a reminder from : ₹…"), and a UPI ID for the statement link to offer.
 */
function SettingsGaps({ client }: { client: Client }) {
  const t = useT();
  const settings = useCollectionSettings().data;
  if (!settings) return null;
  const template = templatesFor(settings, client.language);
  const namesBusiness = `${template.reminderMessage} ${template.reminderEmailSubject}`.includes(
    '{business}',
  );
  const gaps = [
    namesBusiness && settings.businessName === '' ? t('collect.remind.noBusinessName') : null,
    settings.upiId === '' && paiseFromAmount(client.balance) > 0n
      ? t('collect.remind.noUpiId')
      : null,
  ].filter((gap) => gap !== null);
  if (gaps.length === 0) return null;
  return (
    <Alert variant="warning" className="py-2">
      {gaps.map((gap) => (
        <p key={gap} className="mb-0">
          {gap}
        </p>
      ))}
    </Alert>
  );
}

/**
 * A reminder for one client: the message filled in (editable) and the channels the client
 * can be reached by, the others disabled with the reason. Choosing one records the reminder
 * (the server makes the statement link and the app link), then shows a link to tap: the
 * link's target is known only once the server answered, and a real link tapped by the
 * operator is never stopped by a popup blocker, which a window opened after the wait would
 * be (and opening an empty window first would leave a blank tab behind for sms: and mailto:).
 */
export function RemindDialog({
  client,
  onClose,
  sequence,
}: {
  client: Client;
  onClose(): void;
  sequence?: ReminderSequence;
}) {
  const t = useT();
  const titleId = useId();
  const preview = useReminderPreview(client.id);
  return (
    <Modal show onHide={sequence ? sequence.onStop : onClose} centered aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel={t('collect.close')}>
        <Modal.Title id={titleId}>
          {t('collect.remind.title', { name: `${client.fname} ${client.lname}` })}
          {sequence ? (
            // Heard as "Remind Asha Verma, 1 of 7", not "Remind Asha Verma1 of 7".
            <span className="ms-2 small text-body-secondary">
              <span className="visually-hidden">, </span>
              {t('collect.remind.position', {
                position: sequence.position,
                total: sequence.total,
              })}
            </span>
          ) : null}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {preview.isError ? (
          <LoadFailed
            what={t('collect.remind.loadWhat')}
            error={preview.error}
            onRetry={() => preview.refetch()}
          />
        ) : preview.data ? (
          <>
            {paiseFromAmount(client.balance) <= 0n ? (
              <Alert variant="info" className="py-2">
                {t('collect.remind.owesNothing', { name: client.fname })}
              </Alert>
            ) : null}
            <SettingsGaps client={client} />
            <ReminderForm
              key={client.id}
              client={client}
              message={preview.data.message}
              unavailable={preview.data.unavailable}
              sequence={sequence}
            />
          </>
        ) : (
          <p className="text-body-secondary">{t('collect.loading')}</p>
        )}
        <PromiseInReminder key={`promise-${client.id}`} client={client} />
      </Modal.Body>
      <Modal.Footer>
        {sequence ? (
          <>
            <Button variant="outline-secondary" onClick={sequence.onNext}>
              {sequence.position < sequence.total
                ? t('collect.remind.skip')
                : t('collect.remind.done')}
            </Button>
            <Button variant="secondary" onClick={sequence.onStop}>
              {t('collect.remind.stop')}
            </Button>
          </>
        ) : (
          <Button variant="secondary" onClick={onClose}>
            {t('collect.close')}
          </Button>
        )}
      </Modal.Footer>
    </Modal>
  );
}
