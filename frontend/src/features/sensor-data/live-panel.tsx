import { useEffect, useMemo, useState } from 'react';
import { logAndReturnNothing } from '../../../../shared/errors/handling';
import { REALTIME_POLICY_NAME } from '../../../../shared/iot/realtime';
import { labelOf, unitOf } from '../../../../shared/sensor-data/measurements';
import { When } from '../../components/when';
import { idle } from '../../lib/after-idle';
import { apiClient, apiClientWithToken } from '../../lib/api';
import { idToken, isSigningOut, onSignOut } from '../../lib/auth';
import { errorMessage } from '../../lib/error-message';
import type { RealtimeConnection } from '../../lib/realtime';
import { type LiveReading, latestValues, mergeRecent, parseLiveMessage, renewDelay } from './live-rules';
import { feedReadings } from './reading-feed';

type LiveState = { state: 'connecting' } | { state: 'live' } | { state: 'unavailable'; reason: string };

/** The longest the live connection waits for an idle moment before MQTT.js loads (a page that never idles). */
const REALTIME_IDLE_WAIT_MS = 2_000;

/** How long after a dropped connection the panel connects again. */
const RECONNECT_MS = 5_000;

const STATE_TEXT = { connecting: 'Connecting…', live: 'Live', unavailable: 'Not live' } as const;

const formatValue = (value: number) =>
  Number.isInteger(value) ? String(value) : value.toFixed(Math.abs(value) < 10 ? 2 : 1);

/**
 * The device page's live view (docs/sensor-data.md, "Live view"): registers a watch with the API (which checks
 * view access and answers the caller's own topic), connects as the caller's realtime identity, and shows each
 * measurement's latest value and the last readings as they arrive; it also feeds them to the charts. The watch is
 * renewed before it ends and ended when the panel goes away.
 */
export const LivePanel = ({ deviceId }: { deviceId: string }) => {
  const [live, setLive] = useState<LiveState>({ state: 'connecting' });
  const [recent, setRecent] = useState<LiveReading[]>([]);

  useEffect(() => {
    const api = apiClient('sensor-data');
    let active = true;
    let connection: RealtimeConnection | undefined;
    let identityId: string | undefined;
    let renewTimer: ReturnType<typeof setTimeout> | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    // The realtime client (MQTT.js, about 93 kB of script and a long task to evaluate) loads only once the watch is
    // granted and the page is idle: the page's first view is drawn without it, a refused watch never loads it, and
    // the panel says "Connecting…" meanwhile (issue 36, decision 104).
    let realtime: Promise<typeof import('../../lib/realtime')> | undefined;
    const loadRealtime = async () => {
      await idle(REALTIME_IDLE_WAIT_MS);
      return import('../../lib/realtime');
    };

    const watch = async () => {
      const watched = await api.watchLive({ params: { id: deviceId }, body: { idToken: await idToken() } });
      identityId = watched.identityId;
      clearTimeout(renewTimer);
      if (active) renewTimer = setTimeout(() => void renew(), renewDelay(watched.expiresAt, Date.now()));
      return watched;
    };
    const fail = (error: unknown) => active && setLive({ state: 'unavailable', reason: errorMessage(error) });
    const renew = () => watch().catch(fail);

    const start = async () => {
      const watched = await watch();
      // Spec §7: the realtime policy on the caller's own identity (in the cloud; locally the API answers 'local').
      await api.attachTargetPolicy({
        params: { policyName: REALTIME_POLICY_NAME },
        body: { target: watched.identityId, idToken: await idToken() },
      });
      // A chunk that failed to load is asked for again on the next connection.
      realtime ??= loadRealtime().catch((error: unknown) => {
        realtime = undefined;
        throw error;
      });
      const client = await realtime;
      if (!active) return;
      const opened = await client.connectRealtime(watched.identityId);
      if (!active) return opened.close();
      connection = opened;
      opened.onDown((reason) => {
        if (!active) return;
        setLive({ state: 'unavailable', reason });
        // The broker went away (a restart, a network change): connect anew with a fresh token in a moment.
        retryTimer = setTimeout(() => {
          if (!active) return;
          setLive({ state: 'connecting' });
          start().catch(fail);
        }, RECONNECT_MS);
      });
      await opened.subscribe(watched.topic, (payload) => {
        const readings = parseLiveMessage(payload, deviceId);
        if (!readings || !active) return;
        setRecent((before) => mergeRecent(before, readings));
        feedReadings(deviceId, readings);
      });
      if (active) setLive({ state: 'live' });
    };
    start().catch(fail);

    const stop = (client: typeof api) => {
      const watcher = identityId;
      identityId = undefined;
      if (!watcher) return Promise.resolve(undefined);
      // Best effort: an abandoned watch ends by itself within the hour.
      return logAndReturnNothing('The live watch was not stopped', () =>
        client.unwatchLive({ params: { id: deviceId }, query: { identityId: watcher } }),
      );
    };
    // Signing out here: the watch is stopped as the person, before the page is drawn for the guest.
    const offSignOut = onSignOut((token) => stop(apiClientWithToken('sensor-data', token)));

    return () => {
      active = false;
      offSignOut();
      clearTimeout(renewTimer);
      clearTimeout(retryTimer);
      connection?.close();
      if (!isSigningOut()) void stop(api);
    };
  }, [deviceId]);

  const latest = useMemo(() => [...latestValues(recent)].sort(([a], [b]) => a.localeCompare(b)), [recent]);

  return (
    <section className="card section-card" aria-labelledby="device-live-heading" data-testid="live-panel">
      <h2 id="device-live-heading" className="title-with-badge">
        <span>Live</span>
        <span
          className={`badge ${live.state === 'live' ? 'badge-online' : 'badge-offline'}`}
          data-testid="live-status"
          data-state={live.state}
        >
          {STATE_TEXT[live.state]}
        </span>
      </h2>
      {live.state === 'unavailable' && (
        <p className="muted small" data-testid="live-unavailable">
          {live.reason}
        </p>
      )}
      {recent.length === 0 ? (
        <p className="muted" data-testid="live-waiting">
          {live.state === 'live' ? 'Waiting for the next reading…' : 'No live readings yet.'}
        </p>
      ) : (
        <>
          <p className="small">
            Last reading: <When ms={recent[0]!.timestamp} testId="live-last-reading" />
          </p>
          <dl className="facts" data-testid="live-values">
            {latest.map(([name, { value }]) => (
              <div key={name} style={{ display: 'contents' }}>
                <dt>{labelOf(name)}</dt>
                <dd data-testid={`live-value-${name}`}>
                  {formatValue(value)} {unitOf(name) ?? ''}
                </dd>
              </div>
            ))}
          </dl>
          <details>
            <summary className="small">Last {recent.length} readings</summary>
            <ul className="small mono" data-testid="live-readings">
              {recent.map((reading) => (
                <li key={reading.timestamp}>
                  {new Date(reading.timestamp).toLocaleTimeString()}{' '}
                  {Object.entries(reading.values)
                    .map(([name, value]) => `${labelOf(name)} ${formatValue(value)}`)
                    .join(' · ')}
                </li>
              ))}
            </ul>
          </details>
        </>
      )}
    </section>
  );
};
