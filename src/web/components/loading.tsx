// Bootstrap's classes rather than react-bootstrap's components: the guards show these before
// the sign-in page (decision 0013).

export function Loading() {
  return (
    <p role="status" className="text-muted">
      Loading...
    </p>
  );
}

/** A load that failed says what failed and offers to try again. */
export function LoadFailed({
  what,
  error,
  onRetry,
}: {
  what: string;
  error: Error;
  onRetry(): void;
}) {
  return (
    <div role="alert" className="alert alert-danger">
      <p className="mb-2">
        Could not load {what}: {error.message}
      </p>
      <button type="button" className="btn btn-outline-danger btn-sm" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
