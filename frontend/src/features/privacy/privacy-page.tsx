import { useState } from 'react';
import type { MeasurementsState } from '../../lib/measurements';
import { currentMeasurementsState, setMeasurementsConsent } from '../../lib/measurements-client';
import { runtimeConfig } from '../../lib/runtime-config';

const STATE_TEXT: Record<MeasurementsState, string> = {
  unavailable: 'This environment records no measurements.',
  'refused-by-browser':
    'Your browser asks sites not to track you (Global Privacy Control or Do Not Track), so nothing is measured.',
  on: 'On: this browser sends measurements of its visits.',
  off: 'Off: nothing is measured.',
};

/**
 * /privacy, open to everyone: what the app keeps about a visit, and the switch for real-user monitoring
 * (docs/decisions/040-real-user-monitoring.md). The switch is off until the visitor turns it on, and only this
 * browser's choice.
 */
export const PrivacyPage = () => {
  const config = runtimeConfig();
  const [state, setState] = useState(() => currentMeasurementsState(config));
  const [busy, setBusy] = useState(false);
  const available = state === 'on' || state === 'off';

  const toggle = async () => {
    setBusy(true);
    await setMeasurementsConsent(config, state !== 'on').catch(() => undefined);
    setState(currentMeasurementsState(config));
    setBusy(false);
  };

  return (
    <div className="page" data-testid="privacy-page">
      <section className="card section-card" aria-labelledby="privacy-heading">
        <h1 id="privacy-heading">Privacy</h1>
        <p>
          Signing in keeps your session in this browser's cookies for up to 7 days. Your account, devices and their data
          are kept by the platform as long as you keep them.
        </p>
        <h2 id="measurements-heading">Performance measurements</h2>
        <p>
          With your permission, this browser reports how fast each screen loads and responds (the Core Web Vitals), and
          errors in the app, so we can find slow and broken screens. A report names the screen (for example “a device
          page”), never the device, organization or person you look at. No cookie is set for it.
        </p>
        <label className="switch-row">
          <input
            type="checkbox"
            role="switch"
            aria-checked={state === 'on'}
            data-testid="measurements-switch"
            aria-describedby="measurements-state"
            checked={state === 'on'}
            disabled={!available || busy}
            onChange={() => void toggle()}
          />
          Share performance measurements
        </label>
        <p id="measurements-state" className="muted" role="status" data-testid="measurements-state">
          {STATE_TEXT[state]}
        </p>
      </section>
    </div>
  );
};
