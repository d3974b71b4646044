import { Component, type ReactNode } from 'react';
import { RouteErrorPage } from './route-error-page.tsx';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** The failure is forgotten when this changes (the next page). */
  resetKey?: string;
}

/** What throws below it is replaced by "Something went wrong", never a blank screen. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { error: unknown }> {
  override state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidUpdate(previous: ErrorBoundaryProps) {
    if (this.state.error !== undefined && previous.resetKey !== this.props.resetKey) {
      this.setState({ error: undefined });
    }
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return <RouteErrorPage error={this.state.error} />;
  }
}
