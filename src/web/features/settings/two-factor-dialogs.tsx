import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import { renderSVG } from 'uqr';
import {
  type TwoFactorConfirmInput,
  type TwoFactorSetup,
  twoFactorConfirmSchema,
} from '../../../shared/two-factor-schema.ts';
import { FormField } from '../../components/form-field.tsx';
import { errorText } from '../../i18n/errors.ts';
import { useT } from '../../i18n/translate.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { copyText } from '../../lib/clipboard.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { Failure, GuardedModal, PasswordStep, StepTitle } from './password-step.tsx';
import {
  useBeginTwoFactorSetup,
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useNewBackupCodes,
} from './two-factor-api.ts';

/** What the dialogs have in common: shown, closed, and told when they have faded out. */
interface DialogProps {
  show: boolean;
  email: string;
  /** False when something else than the button that opened it is to take the focus. */
  restoreFocus?: boolean;
  onCancel(): void;
  /** Once it has faded out: what it showed (a secret, backup codes) goes with it. */
  onExited(): void;
}

const BACKUP_CODES_FILE = 'client-panel-backup-codes.txt';

/** Backup codes, shown once: to copy, download or write down. */
function BackupCodes({ codes, step = '' }: { codes: readonly string[]; step?: string }) {
  const t = useT();
  const listId = useId();
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const text = `${codes.join('\n')}\n`;

  async function copy() {
    setCopied((await copyText(text)) ? 'copied' : 'failed');
  }

  return (
    <>
      <p id={listId}>{t('settings.codes.about', { step })}</p>
      <ul className="list-unstyled row row-cols-1 row-cols-sm-2 mb-2" aria-labelledby={listId}>
        {codes.map((code) => (
          <li key={code} className="col">
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="d-flex flex-wrap gap-2">
        <Button size="sm" variant="outline-secondary" onClick={() => void copy()}>
          {t('settings.codes.copy')}
        </Button>
        <a
          className="btn btn-sm btn-outline-secondary"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download={BACKUP_CODES_FILE}
        >
          {t('settings.codes.download')}
        </a>
      </div>
      <p className="mt-2 mb-0" aria-live="polite">
        {copied === 'copied' ? t('settings.codes.copied') : null}
        {copied === 'failed' ? t('settings.codes.notCopied') : null}
      </p>
    </>
  );
}

/** The secret as the app takes it: a QR code of its otpauth:// URI, drawn here as an SVG. */
function QrCode({ uri }: { uri: string }) {
  const t = useT();
  // A quiet zone of 4 modules, as the standard asks, for cameras to find the code.
  const src = useMemo(
    () => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(uri, { border: 4 }))}`,
    [uri],
  );
  return (
    <img
      src={src}
      alt={t('settings.two-factor.qrCode')}
      width={200}
      height={200}
      className="d-block mx-auto mb-3"
    />
  );
}

/** The setup begun: the app gets the secret, the operator keeps the backup codes, a code confirms. */
function ConfirmStep({
  titleId,
  setup,
  onCancel,
  onConfirmed,
}: {
  titleId: string;
  setup: TwoFactorSetup;
  onCancel(): void;
  onConfirmed(): void;
}) {
  const t = useT();
  const confirm = useConfirmTwoFactor();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TwoFactorConfirmInput>({
    resolver: zodResolver(twoFactorConfirmSchema),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await confirm.mutateAsync(values);
      onConfirmed();
    } catch (error) {
      applyServerErrors(error, form.setError, ['code']);
      if (!(error instanceof ApiError && error.fieldErrors.code)) setFailure(errorText(error));
    }
  });

  return (
    <Form noValidate onSubmit={submit} aria-labelledby={titleId}>
      <Modal.Header closeButton={!isSubmitting} closeLabel={t('settings.close')}>
        <StepTitle id={titleId}>{t('settings.two-factor.turnOn')}</StepTitle>
      </Modal.Header>
      <Modal.Body>
        <p>{t('settings.two-factor.scan')}</p>
        <QrCode uri={setup.uri} />
        <Form.Group className="mb-3" controlId="two-factor-secret">
          <Form.Label>{t('settings.two-factor.typeKey')}</Form.Label>
          <Form.Control
            readOnly
            value={setup.secret}
            onFocus={(event) => event.currentTarget.select()}
          />
        </Form.Group>
        <BackupCodes codes={setup.backupCodes} step="2. " />
        <hr />
        <p>{t('settings.two-factor.enterCode')}</p>
        <FormField
          id="two-factor-confirm-code"
          label={t('settings.two-factor.codeLabel')}
          autoComplete="one-time-code"
          inputMode="numeric"
          registration={form.register('code')}
          error={errors.code?.message}
        />
        <Failure text={failure} />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          {t('settings.cancel')}
        </Button>
        <Button type="submit" variant="primary" disabled={isSubmitting}>
          {t('settings.two-factor.confirm')}
        </Button>
      </Modal.Footer>
    </Form>
  );
}

/**
 * Turning two-factor sign-in on: the password, then the secret for the app and the backup
 * codes, then a code from the app. Cancelled before the code, nothing changes.
 */
export function SetupDialog({ onTurnedOn, ...dialog }: DialogProps & { onTurnedOn(): void }) {
  const t = useT();
  const titleId = useId();
  const begin = useBeginTwoFactorSetup();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  // Once the secret and the codes are shown, neither a stray click beside the dialog nor
  // Escape may close it (they are shown once): only Cancel or the close button.
  const guarded = setup !== null || begin.isPending;
  return (
    <GuardedModal
      show={dialog.show}
      restoreFocus={dialog.restoreFocus}
      busy={begin.isPending}
      guarded={guarded}
      onHide={dialog.onCancel}
      onExited={() => {
        setSetup(null);
        dialog.onExited();
      }}
      // Wide enough for the backup codes in two columns.
      size={setup ? 'lg' : undefined}
      aria-labelledby={titleId}
    >
      {setup ? (
        <ConfirmStep
          titleId={titleId}
          setup={setup}
          onCancel={dialog.onCancel}
          onConfirmed={onTurnedOn}
        />
      ) : (
        <PasswordStep
          id="two-factor-setup-password"
          titleId={titleId}
          title={t('settings.two-factor.turnOn')}
          email={dialog.email}
          submitLabel={t('settings.two-factor.continue')}
          onCancel={dialog.onCancel}
          onSubmit={async (input) => setSetup(await begin.mutateAsync(input))}
        >
          <p>{t('settings.two-factor.setupIntro')}</p>
        </PasswordStep>
      )}
    </GuardedModal>
  );
}

/** New backup codes, with the password: the old ones stop working, the new ones are shown once. */
export function NewBackupCodesDialog(dialog: DialogProps) {
  const t = useT();
  const titleId = useId();
  const newCodes = useNewBackupCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const guarded = codes !== null || newCodes.isPending;
  return (
    <GuardedModal
      show={dialog.show}
      restoreFocus={dialog.restoreFocus}
      busy={newCodes.isPending}
      guarded={guarded}
      onHide={dialog.onCancel}
      onExited={() => {
        setCodes(null);
        dialog.onExited();
      }}
      size={codes ? 'lg' : undefined}
      aria-labelledby={titleId}
    >
      {codes ? (
        <>
          <Modal.Header closeButton closeLabel={t('settings.close')}>
            <StepTitle id={titleId}>{t('settings.codes.newTitle')}</StepTitle>
          </Modal.Header>
          <Modal.Body>
            <BackupCodes codes={codes} />
          </Modal.Body>
          <Modal.Footer>
            <Button variant="primary" onClick={dialog.onCancel}>
              {t('settings.done')}
            </Button>
          </Modal.Footer>
        </>
      ) : (
        <PasswordStep
          id="two-factor-codes-password"
          titleId={titleId}
          title={t('settings.codes.askTitle')}
          email={dialog.email}
          submitLabel={t('settings.codes.make')}
          onCancel={dialog.onCancel}
          onSubmit={async (input) => setCodes((await newCodes.mutateAsync(input)).backupCodes)}
        >
          <p>{t('settings.codes.makeIntro')}</p>
        </PasswordStep>
      )}
    </GuardedModal>
  );
}

/** Turning two-factor sign-in off, with the password. */
export function TurnOffDialog({ onTurnedOff, ...dialog }: DialogProps & { onTurnedOff(): void }) {
  const t = useT();
  const titleId = useId();
  const disable = useDisableTwoFactor();
  return (
    <GuardedModal
      show={dialog.show}
      restoreFocus={dialog.restoreFocus}
      busy={disable.isPending}
      onHide={dialog.onCancel}
      onExited={dialog.onExited}
      aria-labelledby={titleId}
    >
      <PasswordStep
        id="two-factor-off-password"
        titleId={titleId}
        title={t('settings.two-factor.turnOffTitle')}
        email={dialog.email}
        submitLabel={t('settings.two-factor.turnOffSubmit')}
        danger
        onCancel={dialog.onCancel}
        onSubmit={async (input) => {
          await disable.mutateAsync(input);
          onTurnedOff();
        }}
      >
        <p>{t('settings.two-factor.turnOffIntro')}</p>
      </PasswordStep>
    </GuardedModal>
  );
}
