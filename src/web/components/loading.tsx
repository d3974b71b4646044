import { errorText } from '../i18n/errors.ts';
import { useT } from '../i18n/translate.tsx';

// Bootstrap's classes rather than react-bootstrap's components: the guards show these before
// the sign-in page (decision 0013).

export function Loading() {
  const t = useT();
  return (
    <p role="status" className="text-muted">
      {t('shell.loading')}
    </p>
  );
}

/** A load that failed says what failed and offers to try again. */
export function LoadFailed({
  what,
  error,
  onRetry,
}: {
  /** What did not load, in the chosen language ("the settings"). */
  what: string;
  error: Error;
  onRetry(): void;
}) {
  const t = useT();
  return (
    <div role="alert" className="alert alert-danger">
      <p className="mb-2">{t('shell.loadFailed', { what, why: errorText(error) })}</p>
      <button type="button" className="btn btn-outline-danger btn-sm" onClick={onRetry}>
        {t('shell.tryAgain')}
      </button>
    </div>
  );
}
