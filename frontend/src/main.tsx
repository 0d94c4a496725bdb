import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { BootError } from './app/boot-error';
import { preloadRoute } from './app/router';
import { configureAuth } from './lib/auth';
import { loadRuntimeConfig } from './lib/runtime-config';
import './app/app.css';
import './app/registry.css';

const root = createRoot(document.getElementById('root')!);
// The page's own chunks download while the runtime configuration is fetched, not after it.
preloadRoute(window.location.pathname);

/** Boot: runtime configuration first (API URLs, user pool, auth flow), then Amplify's configuration, then the app. */
const boot = async () => {
  const config = await loadRuntimeConfig();
  configureAuth(config);
};

boot().then(
  () =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  (error: unknown) => {
    console.error('Boot failed', error);
    root.render(<BootError error={error} />);
  },
);
