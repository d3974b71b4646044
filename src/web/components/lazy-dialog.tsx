import { Component, type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';

interface LoadBoundaryProps {
  what: string;
  onRetry(): void;
  onClose(): void;
  children: ReactNode;
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
    const detail = this.state.error instanceof Error ? `: ${this.state.error.message}` : '';
    return (
      <div role="alert" className="alert alert-danger mt-2 mb-2">
        <p className="mb-2">
          Could not open the {this.props.what}
          {detail}
        </p>
        <div className="d-flex gap-2">
          <button
            type="button"
            className="btn btn-outline-danger btn-sm"
            onClick={this.props.onRetry}
          >
            Try again
          </button>
          <button
            type="button"
            className="btn btn-outline-secondary btn-sm"
            onClick={this.props.onClose}
          >
            Close
          </button>
        </div>
      </div>
    );
  }
}

/**
 * A dialog loaded with React.lazy when first opened, inside a boundary of its own. React.lazy
 * remembers a failed load for good, so "Try again" makes a new lazy component that loads the
 * module afresh.
 */
export function lazyDialog<Props extends { onClose(): void }>(
  what: string,
  load: () => Promise<ComponentType<Props>>,
): ComponentType<Props> {
  const fresh = () => lazy(() => load().then((Dialog) => ({ default: Dialog })));
  let Loaded = fresh();
  return function LazyDialog(props: Props) {
    const [attempt, setAttempt] = useState(0);
    return (
      <DialogLoadBoundary
        key={attempt}
        what={what}
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
