import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { hasRole } from '../../../../shared/auth/groups';
import type { CacheEviction, CacheRebuild } from '../../../../shared/contracts/system';
import { DoneNote, ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { useApi } from '../../lib/api';
import { TextField } from '../../lib/form-fields';
import { errorOf, queryList, useChanges } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { cacheFileKeys, useCacheFiles } from './cache-api';
import {
  awaitsRebuild,
  CACHE_TEXT,
  dateOf,
  fileLabel,
  rangeOfDates,
  rebuildProgress,
  rebuildText,
  sizeText,
} from './cache-rules';
import './cache.css';

const DAY_MS = 24 * 60 * 60 * 1000;

const formatTime = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

const evictionText = (result: CacheEviction): string => {
  const parts = [`Evicted ${result.deleted.length} file${result.deleted.length === 1 ? '' : 's'}.`];
  if (result.notFound.length > 0) parts.push(`${result.notFound.length} path(s) named no file.`);
  for (const rebuild of result.rebuilds) parts.push(rebuildText(rebuild));
  return parts.join(' ');
};

/**
 * `/admin/cache` (docs/system.md, "Cache files"): a device's chart-data files, what each holds and when it was last
 * written; staff rebuild them from the raw readings for a range (POST /load-cache-files) and watch each file arrive;
 * Administrators evict files (POST /delete-items-from-cache), optionally rebuilding them at once.
 */
export const CachePage = () => {
  const system = useApi('system');
  const canEvict = hasRole(useSignedInUser().groups, 'Administrators');
  const [search, setSearch] = useSearchParams();
  const deviceId = search.get('device')?.trim() || undefined;
  const [typed, setTyped] = useState(deviceId ?? '');
  const [from, setFrom] = useState(() => dateOf(Date.now() - 7 * DAY_MS));
  const [to, setTo] = useState(() => dateOf(Date.now()));
  const [rebuild, setRebuild] = useState<CacheRebuild>();
  const [evicted, setEvicted] = useState<string>();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [rebuildAfter, setRebuildAfter] = useState(true);
  const { busy, error, setError, run } = useChanges<'load' | 'evict'>();

  const list = useCacheFiles(deviceId, rebuild);
  const files = list.data?.files ?? [];
  const progress = rebuild && rebuild.deviceId === deviceId ? rebuildProgress(rebuild, files) : undefined;

  const show = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = typed.trim();
    if (!id) return;
    setRebuild(undefined);
    setEvicted(undefined);
    setSelected(new Set());
    setSearch({ device: id });
  };

  const load = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!deviceId) return;
    const range = rangeOfDates(from, to, Date.now());
    if (!range.ok) return setError(range.error);
    setEvicted(undefined);
    void run(
      'load',
      async () =>
        setRebuild(await system.loadCacheFiles({ body: { options: { deviceId, from: range.from, to: range.to } } })),
      cacheFileKeys(deviceId),
    );
  };

  const evict = () => {
    if (!deviceId || selected.size === 0) return;
    if (!window.confirm(CACHE_TEXT.evictConfirm(selected.size))) return;
    const chosen = files.filter((file) => selected.has(file.key));
    // A file that is no chart-data file has no period to name: it goes with its device's whole prefix.
    const paths = chosen.every((file) => file.resolution && file.period)
      ? chosen.map((file) => ({ deviceId, resolution: file.resolution!, period: file.period! }))
      : [{ deviceId }];
    void run(
      'evict',
      async () => {
        const result = await system.deleteItemsFromCache({
          body: { pathObjectsArray: paths, options: { rebuild: rebuildAfter } },
        });
        setEvicted(evictionText(result));
        setRebuild(result.rebuilds[0]);
        setSelected(new Set());
      },
      cacheFileKeys(deviceId),
    );
  };

  const toggle = (key: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  return (
    <section className="page cache-page">
      <h1>Cache</h1>
      <p className="muted">
        The cache files are each device's chart-data files: a month of hourly roll-ups or a year of daily ones, made
        from its raw readings by the sensor-data worker. Charts longer than two days read them. Rebuild them after
        readings were repaired; evict a file that must not be charted.
      </p>

      <form className="card create-form" onSubmit={show} aria-labelledby="cache-device-heading">
        <h2 id="cache-device-heading">Device</h2>
        <TextField
          id="cache-device"
          label="Device id"
          value={typed}
          onChange={setTyped}
          mono
          placeholder="e.g. demo-device-1"
        />
        <div className="actions">
          <button type="submit" className="primary" data-testid="cache-show">
            Show files
          </button>
        </div>
      </form>

      {deviceId && (
        <>
          <section className="card" aria-labelledby="cache-files-heading" data-testid="cache-files">
            <h2 id="cache-files-heading">
              Files of <code>{deviceId}</code>
            </h2>
            <ErrorAlert testId="cache-error" error={error ?? errorOf(list)} />
            <DoneNote text={evicted} testId="cache-evicted" />
            {rebuild && rebuild.deviceId === deviceId && (
              <p
                className={progress?.done ? 'notice' : 'notice cache-pending'}
                role="status"
                data-testid="cache-rebuild"
              >
                {rebuildText(rebuild)}{' '}
                {progress?.done
                  ? `All ${progress.total} written.`
                  : `Written so far: ${progress?.written ?? 0} of ${rebuild.files.length}.`}
              </p>
            )}
            <PagedList
              list={queryList(
                list,
                files.map((file) => ({ ...file, id: file.key })),
              )}
              name="cache"
              errorShownAbove
              empty={CACHE_TEXT.noFiles}
            >
              <ListTable
                label={`Cache files of ${deviceId}`}
                rows={files}
                rowKey={(file) => file.key}
                rowTestId={(file) => `cache-file-${file.resolution}-${file.period}`}
                columns={[
                  canEvict && {
                    header: 'Select',
                    hideHeader: true,
                    cell: (file) => (
                      <input
                        type="checkbox"
                        className="cache-select"
                        aria-label={`Select ${fileLabel(file)}`}
                        checked={selected.has(file.key)}
                        onChange={(event) => toggle(file.key, event.target.checked)}
                      />
                    ),
                  },
                  { header: 'Holds', rowHeader: true, cell: (file) => fileLabel(file) },
                  { header: 'File', cell: (file) => <code className="cache-key">{file.key}</code> },
                  { header: 'Size', cell: (file) => sizeText(file.bytes) },
                  {
                    header: 'Last written',
                    cell: (file) => (
                      <>
                        <time dateTime={new Date(file.lastModified).toISOString()}>
                          {formatTime(file.lastModified)}
                        </time>
                        {awaitsRebuild(rebuild, file) && <span className="muted small"> · rebuild pending</span>}
                      </>
                    ),
                  },
                ]}
              />
            </PagedList>
            {canEvict ? (
              files.length > 0 && (
                <div className="actions cache-evict">
                  <label className="cache-check">
                    <input
                      type="checkbox"
                      data-testid="cache-rebuild-after"
                      checked={rebuildAfter}
                      onChange={(event) => setRebuildAfter(event.target.checked)}
                    />
                    Rebuild them afterwards
                  </label>
                  <button
                    type="button"
                    className="danger"
                    data-testid="cache-evict"
                    disabled={selected.size === 0 || busy === 'evict'}
                    onClick={evict}
                  >
                    {busy === 'evict' ? 'Evicting…' : `Evict selected (${selected.size})`}
                  </button>
                </div>
              )
            ) : (
              <p className="muted small" data-testid="cache-evict-staff-only">
                {CACHE_TEXT.evictStaffOnly}
              </p>
            )}
          </section>

          <form className="card create-form" onSubmit={load} aria-labelledby="cache-load-heading">
            <h2 id="cache-load-heading">Rebuild from the readings</h2>
            <p className="muted small">
              Recomputes the hourly and daily roll-ups of every hour in the range from the raw readings, then writes the
              files of the months and years they fall in (at most 366 days at a time). The device's new readings keep
              their order with it.
            </p>
            <div className="field-row">
              <TextField id="cache-from" label="From (UTC day)" type="date" value={from} onChange={setFrom} />
              <TextField id="cache-to" label="To (UTC day, up to now)" type="date" value={to} onChange={setTo} />
            </div>
            <div className="actions">
              <button type="submit" className="primary" data-testid="cache-load" disabled={busy === 'load'}>
                {busy === 'load' ? 'Queueing…' : 'Rebuild'}
              </button>
            </div>
          </form>
        </>
      )}
    </section>
  );
};
