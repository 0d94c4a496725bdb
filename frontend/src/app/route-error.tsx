import { Component, type ReactNode } from 'react';
import { errorMessage } from '../lib/error-message';
import { UI_MESSAGES } from '../lib/ui-messages';

/**
 * A page that could not load or draw: most often its chunk did not arrive (the network dropped, or the tab runs
 * a build older than the deployed one); a reload fetches the current build.
 */
export const RouteError = ({ error }: { error: unknown }) => (
  <main className="login">
    <section className="card login-card" role="alert" data-testid="route-error">
      <h1>{UI_MESSAGES.pageFailed}</h1>
      <p className="error">{errorMessage(error)}</p>
      <button type="button" className="primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </section>
  </main>
);

interface BoundaryProps {
  /** Going to another page clears the error: that page may well load. */
  pathname: string;
  children: ReactNode;
}

interface BoundaryState {
  error?: unknown;
  pathname: string;
}

/** Catches what a page throws while loading or drawing, instead of leaving a blank window. */
export class PageErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.pathname === state.pathname ? null : { error: undefined, pathname: props.pathname };
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <RouteError error={this.state.error} />;
  }
}
