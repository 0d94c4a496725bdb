import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Device } from '../../../../shared/contracts/devices';
import type { ExportFormat, ExportJob } from '../../../../shared/contracts/sensor-data-exports';
import type { DataSummary } from '../../../../shared/contracts/sensor-data-readings';
import { MESSAGES } from '../../../../shared/messages';
import { grantsPurpose, unlockingTier } from '../../../../shared/sensor-data/tiers';
import { SignInPrompt } from '../../components/sign-in-prompt';
import { When } from '../../components/when';
import { apiClient, useApi } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { routeKey, routeQuery, useChanges } from '../../lib/query';
import { useOptionalUser } from '../../lib/session';
import {
  EXPORT_RANGES,
  type ExportRangeChoice,
  exportRange,
  exportStatusText,
  formatBytes,
  isFinished,
} from './export-rules';
import { RangeFields } from './range-fields';
import { customRange, formatLocal } from './range-rules';
import { TierOffer } from './tier-offer';
import './sensor-data.css';
import { ErrorAlert } from '../../components/form-parts';

const POLL_MS = 1_000;
const RECENT = 5;

/** A short-lived signed URL of a finished export's file (spec §7 `POST /api/aws` getSignedS3Url). */
const signedFile = async (job: ExportJob) => {
  if (!job.file) throw new Error('This export has no file yet');
  const { url } = await apiClient('api').aws({
    body: { action: 'getSignedS3Url', params: { bucket: job.file.bucket, key: job.file.key } },
  });
  return url;
};

/**
 * Why this caller cannot download at all under the device's tier, with the tier that unlocks downloads (the API's
 * 403 in the same words), or undefined when the tier offers downloads.
 */
const downloadLock = (summary: DataSummary) => {
  if (summary.windows.download.days !== null) return undefined;
  // The caller's window is the public one unless they reach the device through a relation, a campaign or staff.
  const unlocks = unlockingTier(summary.tiers, grantsPurpose('download', summary.route !== 'public', 1));
  return {
    text: MESSAGES.tierLacksPurpose('download', summary.tier.name, summary.productLine, unlocks?.name),
    unlocks,
  };
};

/** The signed link lives 5 minutes: a cached one is used for 4 at most. */
const LINK_FRESH_MS = 4 * 60_000;

/**
 * The device page's downloads (docs/sensor-data.md "Downloads"): a range and a format start a background export,
 * whose progress is polled every second; when it is done, a signed link (5 minutes) fetches the file. The API's
 * 403 says which tier unlocks a range. Below, a signed-in caller's recent exports, each fetched again on demand.
 */
export const ExportPanel = ({ device }: { device: Pick<Device, 'id' | 'productLine' | 'access'> }) => {
  const sensorData = useApi('sensor-data');
  const user = useOptionalUser();
  // The charts' summary (one read for both panels): a tier without downloads shows them locked, never offered and
  // then refused. Until it answers, Download waits; if it fails, the API's answer to Download says what applies.
  const summaryQuery = useQuery(routeQuery('sensor-data', 'dataSummary', { params: { id: device.id } }));
  const lock = summaryQuery.data && downloadLock(summaryQuery.data);
  const summaryPending = summaryQuery.data === undefined && !summaryQuery.error;
  const [choice, setChoice] = useState<ExportRangeChoice>('24h');
  const [custom, setCustom] = useState(() => ({
    from: formatLocal(Date.now() - 86_400_000),
    to: formatLocal(Date.now()),
  }));
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [started, setStarted] = useState<ExportJob>();
  const { busy, error, setError, run } = useChanges<'start' | `file:${string}`>();
  const recentRequest = { query: { limit: RECENT } };
  const recent = useQuery({
    ...routeQuery('sensor-data', 'listMyExports', recentRequest),
    // A guest has no downloads of their own to list (the route is for signed-in callers).
    enabled: user !== undefined,
  });
  const polled = useQuery({
    ...routeQuery('sensor-data', 'getExport', { params: { exportId: started?.id ?? '' } }),
    enabled: started !== undefined,
    initialData: started,
    refetchInterval: (query) => (query.state.data && !isFinished(query.state.data) ? POLL_MS : false),
  });
  const job = started && polled.data;
  const finished = job ? isFinished(job) : true;
  const link = useQuery({
    queryKey: ['api', 'aws', job?.file],
    queryFn: () => signedFile(job!),
    enabled: job?.status === 'done',
    staleTime: LINK_FRESH_MS,
    refetchInterval: false,
  });
  const queries = useQueryClient();
  const done = job?.status === 'done';
  useEffect(() => {
    // A finished export joins the recent list.
    if (done) void queries.invalidateQueries({ queryKey: routeKey('sensor-data', 'listMyExports') });
  }, [done, queries]);
  const pollError = polled.error ?? link.error;

  const start = () =>
    void run('start', async () => {
      let range: { from?: number; to?: number };
      if (choice === 'custom') {
        const chosen = customRange(custom);
        if (typeof chosen === 'string') return setError(chosen);
        range = chosen;
      } else {
        range = exportRange(choice, Date.now());
      }
      setStarted(await sensorData.createExport({ params: { id: device.id }, body: { ...range, format } }));
    });

  const fetchAgain = (earlier: ExportJob) =>
    void run(`file:${earlier.id}`, async () => {
      window.location.assign(await signedFile(earlier));
    });

  return (
    <section className="card section-card" aria-labelledby="export-heading" data-testid="export-panel">
      <h2 id="export-heading">Download data</h2>
      <p className="muted small">
        A file of this device's readings, written in the background. How far back it reaches depends on the device's
        tier.
      </p>
      {lock ? (
        <div className="tier-lock">
          <p data-testid="export-tier-lock">{lock.text}</p>
          <TierOffer device={device} unlocks={lock.unlocks} testIdPrefix="export-lock" />
        </div>
      ) : (
        <>
          <fieldset className="range-picker" aria-label="Download range">
            {EXPORT_RANGES.map((r) => (
              <button
                type="button"
                key={r.id}
                aria-pressed={choice === r.id}
                data-testid={`export-range-${r.id}`}
                onClick={() => setChoice(r.id)}
              >
                {r.label}
              </button>
            ))}
            <button
              type="button"
              aria-pressed={choice === 'custom'}
              data-testid="export-range-custom"
              onClick={() => setChoice('custom')}
            >
              Custom
            </button>
            {choice === 'custom' && <RangeFields value={custom} onChange={setCustom} testIdPrefix="export" />}
          </fieldset>
          <div className="actions">
            <label>
              Format{' '}
              <select
                data-testid="export-format"
                value={format}
                onChange={(e) => setFormat(e.target.value as ExportFormat)}
              >
                <option value="csv">CSV</option>
                <option value="json">JSON</option>
                <option value="parquet">Parquet</option>
              </select>
            </label>
            <button
              type="button"
              className="primary"
              data-testid="export-start"
              onClick={start}
              disabled={busy !== undefined || !finished || summaryPending}
            >
              {busy === 'start' ? 'Starting…' : 'Download'}
            </button>
          </div>
        </>
      )}
      <ErrorAlert testId="export-error" error={error ?? (pollError ? errorMessage(pollError) : undefined)} />
      {job && (
        <div className="upload-progress" data-testid="export-progress-box">
          <progress
            max={100}
            value={job.progress}
            data-testid="export-progress"
            aria-label="Export progress"
            aria-valuetext={`${job.progress} %`}
          />
          <span data-testid="export-percent">{job.progress} %</span>
          <span className="muted small" data-testid="export-status">
            {exportStatusText(job)}
          </span>
          {link.data && job.file && (
            <a href={link.data} download={job.file.name} data-testid="export-link">
              Save {job.file.name}
            </a>
          )}
        </div>
      )}
      <h3>My recent downloads</h3>
      {!user && <SignInPrompt what="your recent downloads, each ready to fetch again" />}
      <ErrorAlert testId="export-recent-error" error={recent.error ? errorMessage(recent.error) : undefined} />
      {recent.data && recent.data.items.length === 0 && (
        <p className="muted" data-testid="export-recent-empty">
          None in the last 7 days.
        </p>
      )}
      {recent.data && recent.data.items.length > 0 && (
        <ul data-testid="export-recent">
          {recent.data.items.map((earlier) => (
            <li key={earlier.id} data-testid={`export-recent-${earlier.id}`}>
              <When ms={earlier.created} /> · {earlier.deviceName || earlier.deviceId} · {earlier.format.toUpperCase()}{' '}
              · {exportStatusText(earlier)}
              {earlier.status === 'done' && (
                <>
                  {' '}
                  <button
                    type="button"
                    className="link-button small"
                    onClick={() => fetchAgain(earlier)}
                    disabled={busy === `file:${earlier.id}`}
                  >
                    Get file ({formatBytes(earlier.bytes)})
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};
