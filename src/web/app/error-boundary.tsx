import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ApiError } from '../lib/api-client.ts';
import { NotFoundPage } from './not-found-page.tsx';
import { RouteErrorPage } from './route-error-page.tsx';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** The failure is forgotten when this changes (the next page). */
  resetKey?: string;
}

/**
 * A page that asked the API for something that is not there (a 404 it did not handle
 * itself) is a "Page not found", like an unknown address: nothing crashed.
 */
function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * What throws below it is replaced by "Page not found" when what the page showed does not
 * exist, else by "Something went wrong" (and logged): never a blank screen.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { error: unknown }> {
  override state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // A crash is a bug: the browser console (and an e2e run's log) is where it is looked for.
    if (!isNotFound(error)) console.error('The page crashed:', error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps) {
    if (this.state.error !== undefined && previous.resetKey !== this.props.resetKey) {
      this.setState({ error: undefined });
    }
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    if (isNotFound(this.state.error)) return <NotFoundPage />;
    return <RouteErrorPage error={this.state.error} />;
  }
}
