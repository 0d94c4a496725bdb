import { errorMessage } from '../lib/error-message';
import { UI_MESSAGES } from '../lib/ui-messages';

/** Shown when the runtime configuration cannot be loaded: without it there is no API and no sign-in. */
export const BootError = ({ error }: { error: unknown }) => (
  <main className="login">
    <section className="card login-card" role="alert" data-testid="boot-error">
      <h1>{UI_MESSAGES.bootFailed}</h1>
      <p className="error">{errorMessage(error)}</p>
      <button type="button" className="primary" onClick={() => window.location.reload()}>
        Try again
      </button>
    </section>
  </main>
);
