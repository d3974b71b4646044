import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';

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
    <Alert variant="danger" role="alert">
      <p className="mb-2">
        Could not load {what}: {error.message}
      </p>
      <Button variant="outline-danger" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}
