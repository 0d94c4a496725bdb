// First: zod's configuration must precede every schema (lib/zod-config.ts).
import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { BootError } from './app/boot-error';
import { preloadRoute } from './app/router';
import { configureAuth } from './lib/auth';
import { browserSignals, measurementsState } from './lib/measurements';
import { loadRuntimeConfig } from './lib/runtime-config';
import './app/app.css';
import './app/registry.css';

const root = createRoot(document.getElementById('root')!);
// The page's own chunks download while the runtime configuration is fetched, not after it. They are asked for in a task
// of their own: inserting their preload links was about a fifth of the entry's evaluation, a long task (decision 109).
setTimeout(() => preloadRoute(window.location.pathname), 0);

/** Boot: runtime configuration first (API URLs, user pool, auth flow), then Amplify's configuration, then the app. */
const boot = async () => {
  const config = await loadRuntimeConfig();
  configureAuth(config);
  return config;
};

/**
 * After the page has loaded and the browser is idle (or 3 s on, where a page never idles: the dashboard's map
 * draws on): nothing the visitor waits for shares the network with it.
 */
const whenIdleAfterLoad = (run: () => void) => {
  const idle = () =>
    window.requestIdleCallback ? window.requestIdleCallback(run, { timeout: 3000 }) : setTimeout(run, 0);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
};

boot().then(
  (config) => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
    // Real-user monitoring, only where the visitor switched it on: its client is loaded only then (lib/measurements.ts).
    if (measurementsState(config, localStorage, browserSignals()) === 'on') {
      whenIdleAfterLoad(
        () => void import('./lib/measurements-client').then((m) => m.startClient(config)).catch(() => undefined),
      );
    }
  },
  (error: unknown) => {
    console.error('Boot failed', error);
    root.render(<BootError error={error} />);
  },
);
