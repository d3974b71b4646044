import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { REQUIRE_OWN_FIRST_MESSAGE } from '../../../shared/two-factor-schema.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { LoadFailed } from '../../components/loading.tsx';
import { errorText } from '../../i18n/errors.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { messages } from '../../lib/messages.ts';
import { useChangeSecurityPolicy, useSecurityPolicy } from './settings-api.ts';
import { useTwoFactorStatus } from './two-factor-api.ts';

/**
 * The administrator's policy: two-factor sign-in required of every operator, or not. The
 * switch saves at once; a refusal (their own two-factor sign-in is off) stays beside it.
 */
export function SecurityPanel() {
  const t = useT();
  const policy = useSecurityPolicy();
  const change = useChangeSecurityPolicy();
  const flash = useFlash();
  const explanationId = useId();
  const refusalId = useId();
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  // The account section below is where they turn their own on: once it is, that refusal is past.
  const ownOn = useTwoFactorStatus().data?.enabled === true;
  const ownFirst =
    failure?.error instanceof Error && failure.error.message === REQUIRE_OWN_FIRST_MESSAGE;
  const refusal = failure === null || (ownFirst && ownOn) ? null : errorText(failure.error);

  async function save(requireTwoFactor: boolean) {
    setFailure(null);
    try {
      await change.mutateAsync({ requireTwoFactor });
      flash.success(
        translate(
          requireTwoFactor ? 'settings.security.nowRequired' : 'settings.security.noLongerRequired',
        ),
        messages.settingsSaved.seconds,
      );
    } catch (error) {
      setFailure({ error });
    }
  }

  // While it saves, the switch shows what was asked for.
  const required = change.isPending
    ? change.variables.requireTwoFactor
    : policy.data?.requireTwoFactor;
  return (
    <Card className="mt-4">
      <Card.Header as="h2" className="h5">
        {t('settings.security.heading')}
      </Card.Header>
      <Card.Body>
        {/* A plain line, not a status region: the flash messages are the page's one status region. */}
        {policy.isPending ? <p className="text-body-secondary">{t('settings.loading')}</p> : null}
        {policy.isError ? (
          <LoadFailed
            what={t('settings.security.load')}
            error={policy.error}
            onRetry={() => void policy.refetch()}
          />
        ) : null}
        {required === undefined ? null : (
          <>
            <Form.Check
              type="switch"
              // Said as the on/off it is, not as a checkbox.
              role="switch"
              id="require-two-factor"
              label={t('settings.security.require')}
              checked={required}
              disabled={change.isPending}
              onChange={(event) => void save(event.currentTarget.checked)}
              aria-describedby={refusal ? `${explanationId} ${refusalId}` : explanationId}
            />
            <p className="form-text" id={explanationId}>
              {t('settings.security.explanation')}
            </p>
            {refusal ? (
              <Alert variant="danger" role="alert" id={refusalId} className="mb-0">
                {refusal}
              </Alert>
            ) : null}
          </>
        )}
      </Card.Body>
    </Card>
  );
}
