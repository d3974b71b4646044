import { Component, type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';
import type { MessageId } from '../i18n/catalogues.ts';
import { errorText } from '../i18n/errors.ts';
import { useT } from '../i18n/translate.tsx';

interface LoadBoundaryProps {
  /** The dialog's name in English, for the log. */
  what: string;
  /** Its name in the chosen language, for the page. */
  name: MessageId | undefined;
  onRetry(): void;
  onClose(): void;
  children: ReactNode;
}

function DialogLoadFailed({
  what,
  name,
  error,
  onRetry,
  onClose,
}: Omit<LoadBoundaryProps, 'children'> & { error: unknown }) {
  const t = useT();
  return (
    <div role="alert" className="alert alert-danger mt-2 mb-2">
      <p className="mb-2">
        {t('shell.dialogFailed', { what: name ? t(name) : what, why: errorText(error) })}
      </p>
      <div className="d-flex gap-2">
        <button type="button" className="btn btn-outline-danger btn-sm" onClick={onRetry}>
          {t('shell.tryAgain')}
        </button>
        <button type="button" className="btn btn-outline-secondary btn-sm" onClick={onClose}>
          {t('shell.close')}
        </button>
      </div>
    </div>
  );
}

/**
 * A dialog whose code did not load (a dropped connection, a deploy that removed the old
 * chunk) says so where the dialog would be, with Try again and Close; the page around it
 * keeps working. Bootstrap's classes rather than react-bootstrap's Modal: the page's chunk
 * does not carry the modal code the dialog's own chunk brings (decision 0013).
 */
class DialogLoadBoundary extends Component<LoadBoundaryProps, { error: unknown }> {
  override state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    console.error(`The ${this.props.what} could not be loaded:`, error);
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    const { children: _children, ...props } = this.props;
    return <DialogLoadFailed {...props} error={this.state.error} />;
  }
}

/**
 * A dialog loaded with React.lazy when first opened, inside a boundary of its own. React.lazy
 * remembers a failed load for good, so "Try again" makes a new lazy component that loads the
 * module afresh. `what` names the dialog in the log; `name`, on the page (its message id).
 */
export function lazyDialog<Props extends { onClose(): void }>(
  what: string,
  load: () => Promise<ComponentType<Props>>,
  name?: MessageId,
): ComponentType<Props> {
  const fresh = () => lazy(() => load().then((Dialog) => ({ default: Dialog })));
  let Loaded = fresh();
  return function LazyDialog(props: Props) {
    const [attempt, setAttempt] = useState(0);
    return (
      <DialogLoadBoundary
        key={attempt}
        what={what}
        name={name}
        onRetry={() => {
          Loaded = fresh();
          setAttempt((n) => n + 1);
        }}
        onClose={props.onClose}
      >
        <Suspense fallback={null}>
          <Loaded {...props} />
        </Suspense>
      </DialogLoadBoundary>
    );
  };
}
