import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { hasRole } from '../../../../shared/auth/groups';
import type { ProductLine } from '../../../../shared/contracts/devices';
import { FEATURE_LABELS, MAX_TIER_DAYS, TIER_FEATURES_PARAMETER } from '../../../../shared/sensor-data/tier-features';
import { DoneNote, ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { useApi } from '../../lib/api';
import { areaKey, errorOf, routeKey, routeQuery, useChanges } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import {
  draftOf,
  type LineDraft,
  type LineSettings,
  type TierDraft,
  tableToSave,
  withCell,
} from './tier-features-rules';
import './tier-features.css';
import { PRODUCT_LINE_NAMES } from '../../../../shared/text/product-words';

type Busy = `save:${ProductLine}` | 'save:all' | 'reset';
type Drafts = Partial<Record<ProductLine, LineDraft>>;

export const TIER_SAVED = 'Saved — applies on the next read';
const RESET_DONE = 'Defaults restored — applies on the next read';

const formatDate = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * `/admin/tiers` (docs/sensor-data.md, "Tier features as data"): what each tier of each product line gives,
 * edited without a deploy. Administrators save a line or all of them (PUT /system/tier-features, which checks the
 * whole table and answers why it refuses one) or go back to the defaults (deleting the parameter); Employees see
 * the table read-only. Every screen showing tiers reads them again after a change.
 */
export const TierFeaturesPage = () => {
  const system = useApi('system');
  const { groups } = useSignedInUser();
  const canWrite = hasRole(groups, 'Administrators');
  const settingsQuery = useQuery(routeQuery('system', 'getTierFeatures', {}));
  const settings = settingsQuery.data;
  const [drafts, setDrafts] = useState<Drafts>({});
  const [done, setDone] = useState<string>();
  const { busy, error, setError, run } = useChanges<Busy>();
  // The table decides the sensor-data reads and the pricing of every device page.
  const touched = [routeKey('system', 'getTierFeatures'), areaKey('sensor-data')];

  const draftFor = (line: LineSettings) => drafts[line.productLine] ?? draftOf(line);

  const edit = (line: LineSettings, next: LineDraft) => {
    setDone(undefined);
    setDrafts((current) => ({ ...current, [line.productLine]: next }));
  };

  const save = (which: ProductLine | 'all') => {
    if (!settings) return;
    setDone(undefined);
    const sending: Drafts = which === 'all' ? drafts : { [which]: drafts[which] };
    const table = tableToSave(settings.productLines, sending);
    if (!table.ok) return setError(table.error);
    void run(
      `save:${which}`,
      async () => {
        await system.putTierFeatures({ body: table.value });
        setDrafts((current) => (which === 'all' ? {} : { ...current, [which]: undefined }));
        setDone(TIER_SAVED);
      },
      touched,
    );
  };

  const reset = () => {
    if (!window.confirm('Go back to the default tier features for every product line?')) return;
    setDone(undefined);
    void run(
      'reset',
      async () => {
        await system.deleteParameter({ params: { id: TIER_FEATURES_PARAMETER } });
        setDrafts({});
        setDone(RESET_DONE);
      },
      touched,
    );
  };

  const edited = Object.values(drafts).some(Boolean);

  return (
    <section className="page">
      <h1>Tier features</h1>
      <p className="muted">
        What each tier gives on each product line: how far back charts and reads reach, downloads, and the public API. A
        change applies on the next read of a device's data, without a deploy; a higher tier may never give less than a
        lower one.
      </p>
      {!canWrite && (
        <p className="notice" data-testid="tier-read-only">
          Only Administrators change tier features.
        </p>
      )}
      <ErrorAlert testId="tier-load-error" error={errorOf(settingsQuery)} />
      {settings && (
        <p data-testid="tier-source">
          {settings.stored && settings.updated !== undefined
            ? `Saved by an administrator on ${formatDate(settings.updated)}.`
            : 'The defaults apply (nothing saved yet).'}
        </p>
      )}
      <ErrorAlert testId="tier-error" error={error} />
      <DoneNote testId="tier-saved" text={done} />

      {settings?.productLines.map((line) => (
        <LineEditor
          key={line.productLine}
          line={line}
          draft={draftFor(line)}
          canWrite={canWrite}
          busy={busy}
          edited={drafts[line.productLine] !== undefined}
          onEdit={(next) => edit(line, next)}
          onSave={() => save(line.productLine)}
        />
      ))}

      {settings && canWrite && (
        <div className="actions">
          <button
            type="button"
            className="primary"
            data-testid="tier-save-all"
            onClick={() => save('all')}
            disabled={busy !== undefined || !edited}
          >
            {busy === 'save:all' ? 'Saving…' : 'Save all'}
          </button>
          <button
            type="button"
            className="danger"
            data-testid="tier-reset"
            onClick={reset}
            disabled={busy !== undefined || !settings.stored}
          >
            {busy === 'reset' ? 'Resetting…' : 'Reset to defaults'}
          </button>
        </div>
      )}
    </section>
  );
};

interface LineEditorProps {
  line: LineSettings;
  draft: LineDraft;
  canWrite: boolean;
  busy: Busy | undefined;
  edited: boolean;
  onEdit: (next: LineDraft) => void;
  onSave: () => void;
}

const LineEditor = ({ line, draft, canWrite, busy, edited, onEdit, onSave }: LineEditorProps) => {
  const name = PRODUCT_LINE_NAMES[line.productLine];
  const headingId = `tier-line-${line.productLine}`;
  const cell = <K extends keyof Omit<TierDraft, 'tier' | 'name'>>(
    tier: TierDraft['tier'],
    key: K,
    value: TierDraft[K],
  ) => onEdit(withCell(draft, tier, key, value));
  const id = (row: TierDraft, feature: string) => `tier-${line.productLine}-${row.tier}-${feature}`;
  const label = (row: TierDraft, feature: keyof typeof FEATURE_LABELS) =>
    `${name} ${row.name} ${FEATURE_LABELS[feature]}`;

  return (
    <section
      className="card section-card tier-line"
      aria-labelledby={headingId}
      data-testid={`tier-line-${line.productLine}`}
    >
      <h2 id={headingId}>{name}</h2>
      <ListTable
        label={`${name} tier features`}
        className="tier-table"
        rows={draft}
        rowKey={(row) => row.tier}
        columns={[
          { header: 'Tier', cell: (row) => row.name },
          {
            header: 'History days',
            cell: (row) => (
              <input
                type="number"
                inputMode="numeric"
                min={0}
                max={MAX_TIER_DAYS}
                aria-label={label(row, 'historicalDataAccessDays')}
                data-testid={id(row, 'history')}
                value={row.historicalDataAccessDays}
                onChange={(e) => cell(row.tier, 'historicalDataAccessDays', e.target.value)}
                disabled={!canWrite}
              />
            ),
          },
          ...(['manualDataDownloadPublicAccessDays', 'manualDataDownloadPermissionedAccessDays'] as const).map(
            (key) => ({
              header:
                key === 'manualDataDownloadPublicAccessDays' ? 'Public download days' : 'Permissioned download days',
              cell: (row: TierDraft) => {
                const kind = key === 'manualDataDownloadPublicAccessDays' ? 'public' : 'permissioned';
                const none = row[key] === null;
                return (
                  <>
                    <input
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={MAX_TIER_DAYS}
                      aria-label={label(row, key)}
                      data-testid={id(row, kind)}
                      value={row[key] ?? ''}
                      onChange={(e) => cell(row.tier, key, e.target.value)}
                      disabled={!canWrite || none}
                    />
                    <label className="tier-none">
                      <input
                        type="checkbox"
                        data-testid={id(row, `${kind}-none`)}
                        checked={none}
                        onChange={(e) => cell(row.tier, key, e.target.checked ? null : '0')}
                        disabled={!canWrite}
                      />{' '}
                      No downloads<span className="visually-hidden"> ({label(row, key)})</span>
                    </label>
                  </>
                );
              },
            }),
          ),
          {
            header: 'API access',
            cell: (row) => (
              <label className="tier-none">
                <input
                  type="checkbox"
                  data-testid={id(row, 'api')}
                  checked={row.apiAccess}
                  onChange={(e) => cell(row.tier, 'apiAccess', e.target.checked)}
                  disabled={!canWrite}
                />{' '}
                API
                <span className="visually-hidden">
                  {' '}
                  access of {name} {row.name}
                </span>
              </label>
            ),
          },
          {
            header: 'API requests a month',
            cell: (row) => (
              <input
                type="number"
                inputMode="numeric"
                min={0}
                aria-label={label(row, 'apiMaxRequests')}
                data-testid={id(row, 'requests')}
                value={row.apiMaxRequests}
                onChange={(e) => cell(row.tier, 'apiMaxRequests', e.target.value)}
                disabled={!canWrite || !row.apiAccess}
              />
            ),
          },
        ]}
      />
      {canWrite && (
        <p className="actions tier-line-actions">
          <button
            type="button"
            data-testid={`tier-save-${line.productLine}`}
            onClick={onSave}
            disabled={busy !== undefined || !edited}
          >
            {busy === `save:${line.productLine}` ? 'Saving…' : `Save ${name}`}
          </button>
        </p>
      )}
    </section>
  );
};
