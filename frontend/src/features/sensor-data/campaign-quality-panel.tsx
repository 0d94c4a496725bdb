import { type QueryState, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Campaign } from '../../../../shared/contracts/campaigns';
import type { CampaignSeries } from '../../../../shared/contracts/sensor-data-campaigns';
import { ExclusionBody } from '../../../../shared/contracts/sensor-data-quality';
import { formulaText, isEnd } from '../../../../shared/sensor-data/calibration';
import { EditForm } from '../../components/edit-form';
import { ErrorAlert } from '../../components/form-parts';
import { apiClient } from '../../lib/api';
import { checkWith, problem } from '../../lib/form-check';
import { ChoiceField, TextField } from '../../lib/form-fields';
import { errorOf, routeKey, routeQuery, useChanges } from '../../lib/query';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { CalibrationEditor } from './calibration-form';
import type { CalibrationForm } from './calibration-rules';
import {
  type CampaignCalibration,
  campaignCalibrationsOf,
  campaignPreviewRange,
  formFieldsOf,
} from './campaign-calibration-rules';
import { ExcludedRanges } from './excluded-ranges';
import { campaignExclusionsOf, exclusionRange } from './exclusion-rules';
import { formatLocal } from './range-rules';
import { useWidth } from './use-width';

const EMPTY = { from: '', to: '', reason: '' };

const when = (ms: number) => new Date(ms).toLocaleString();

/**
 * A campaign's data quality for its managers and staff (docs/data-quality.md "Screens"): the calibrations made for
 * every device of the campaign at once, with which version each device got, and a form (the device page's, with its
 * preview) to add one, replace one or end one; the ranges excluded from every device at once, each with "Bring back",
 * and a form to exclude one more within the campaign's window (each device's charts, downloads and API leave it out
 * within seconds; nothing is deleted).
 */
export const CampaignQualityPanel = ({ campaign }: { campaign: Pick<Campaign, 'id' | 'endsAt'> }) => (
  <section className="card section-card" aria-labelledby="campaign-quality-heading" data-testid="campaign-quality">
    <h2 id="campaign-quality-heading">Data quality</h2>
    <CampaignCalibrations campaign={campaign} />
    <CampaignExclusions campaignId={campaign.id} />
  </section>
);

/** What a change of a campaign's calibrations makes read again: its list, each device's, and every chart. */
const CALIBRATION_TOUCHES = [
  routeKey('sensor-data', 'listCampaignCalibrations'),
  routeKey('sensor-data', 'listCalibrations'),
  routeKey('sensor-data', 'series'),
  routeKey('sensor-data', 'campaignSeries'),
  routeKey('sensor-data', 'reprocessing'),
];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The answer of the campaign's comparison on this page (campaign-comparison.tsx reads it at its charts' width): the
 * devices the viewer may see, their names, measurements and where each may be charted from. Read from the cache, not
 * asked again: a second read of every device's series would double the page's heaviest request.
 */
const useComparison = (campaignId: string): QueryState<CampaignSeries> | undefined => {
  const client = useQueryClient();
  const subscribe = useCallback((changed: () => void) => client.getQueryCache().subscribe(changed), [client]);
  // The query's state object is replaced on each change and kept otherwise: a snapshot React may compare.
  const snapshot = useCallback(
    () =>
      client
        .getQueryCache()
        .findAll({ queryKey: routeKey('sensor-data', 'campaignSeries') })
        .find((query) => (query.state.data as CampaignSeries | undefined)?.campaignId === campaignId)?.state as
        | QueryState<CampaignSeries>
        | undefined,
    [client, campaignId],
  );
  return useSyncExternalStore(subscribe, snapshot);
};

/**
 * The campaign-wide calibrations: each with its devices and their versions, "Replace…" and "End…" (the API keeps
 * every version: a newer one overrides the older where their periods overlap, and ending one is a version of kind
 * `none`, after which readers answer the values as sent and no version; decisions 099 and 103), and the form, once
 * the comparison above has answered; the preview draws one device's raw line over the campaign's window.
 */
const CampaignCalibrations = ({ campaign }: { campaign: Pick<Campaign, 'id' | 'endsAt'> }) => {
  const list = useQuery(routeQuery('sensor-data', 'listCampaignCalibrations', { params: { id: campaign.id } }));
  const compared = useComparison(campaign.id);
  const answer = compared?.data;
  const answeredAt = compared?.dataUpdatedAt ?? 0;
  const { ref, width } = useWidth();
  const devices = (answer?.devices ?? []).filter((d) => d.status === 'shown');
  const names = new Map(devices.map((d) => [d.deviceId, d.name ?? d.deviceId]));
  const measurements = answer?.measurements ?? [];
  const labels = Object.fromEntries(measurements.map((m) => [m.name, m.label]));
  const [picked, setPicked] = useState('');
  const measurement = measurements.some((m) => m.name === picked) ? picked : (measurements[0]?.name ?? '');
  const holding = devices.filter((d) => d.series[measurement]);
  const [previewOn, setPreviewOn] = useState('');
  const previewDevice = holding.some((d) => d.deviceId === previewOn) ? previewOn : holding[0]?.deviceId;
  // "Replace…" and "End…" start the form anew from the fields they fill, and take the person there.
  const [start, setStart] = useState<{ fields: Partial<CalibrationForm>; at: number }>({ fields: {}, at: 0 });
  useEffect(() => {
    if (start.at > 0) document.getElementById('campaign-calibration-kind')?.focus();
  }, [start.at]);
  const entries = campaignCalibrationsOf(list.data?.items ?? []);
  const range = useMemo(
    () =>
      answer &&
      campaignPreviewRange(
        answer,
        answer.devices.find((d) => d.deviceId === previewDevice),
        answeredAt,
        Date.now(),
      ),
    [answer, answeredAt, previewDevice],
  );
  const from = (c: CampaignCalibration) =>
    formatLocal(Math.max(c.effectiveFrom, Math.min(Date.now(), campaign.endsAt)));
  const restart = (c: CampaignCalibration, fields: Partial<CalibrationForm>) => {
    setPicked(c.measurement);
    setStart({ fields: { effectiveFrom: from(c), ...fields }, at: Date.now() });
  };

  return (
    <div ref={ref}>
      <h3>Calibrations of every device</h3>
      <p className="muted small">
        Made for every device of the campaign that has sent the measurement, within the campaign's window. A device's
        own page lists its versions too.
      </p>
      <ErrorAlert testId="campaign-calibrations-error" error={errorOf(list)} />
      {entries.length === 0 ? (
        <p className="muted small" data-testid="campaign-calibrations-empty">
          No calibration made for the whole campaign.
        </p>
      ) : (
        <ul className="quality-history" data-testid="campaign-calibration-list">
          {entries.map((c) => (
            <li key={c.key} data-testid="campaign-calibration-item">
              <strong>{labels[c.measurement] ?? c.measurement}</strong>:{' '}
              {isEnd(c.formula) ? 'calibration ended, the values as sent' : formulaText(c.formula, c.measurement)}, from{' '}
              {when(c.effectiveFrom)}
              {c.effectiveTo !== undefined ? ` to ${when(c.effectiveTo)}` : ''}, on{' '}
              <span data-testid="campaign-calibration-devices">
                {plural(c.devices.length, 'device')}:{' '}
                {c.devices.map((d) => `${names.get(d.deviceId) ?? d.deviceId} (version ${d.version})`).join(', ')}
              </span>
              . {c.note}
              {c.source ? ` Source: ${c.source}.` : ''}{' '}
              {!isEnd(c.formula) && (
                <EndOrReplace
                  onReplace={() => restart(c, { ...formFieldsOf(c.formula), source: c.source ?? '', note: '' })}
                  onEnd={() =>
                    restart(c, { kind: 'none', note: `Ends the calibration of ${when(c.effectiveFrom)}`, source: '' })
                  }
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {answer && measurements.length === 0 && (
        <p className="muted small" data-testid="campaign-calibration-nothing">
          No device of the campaign has sent a value you may see yet: there is nothing to calibrate.
        </p>
      )}
      {range && measurement && (
        <div className="calibration-part">
          <ChoiceField
            id="campaign-calibration-measurement"
            label="Measurement"
            value={measurement}
            options={measurements.map((m) => [m.name, m.label] as const)}
            onChange={setPicked}
          />
          <CalibrationEditor
            key={`${measurement}-${start.at}`}
            name="campaign-calibration"
            title={`New calibration of ${labels[measurement] ?? measurement} on every device`}
            intro="A newer version overrides older ones, the devices' own too, where their periods overlap. To end one, save the formula None from then on: End… fills that in, and the devices' readings from then on name no calibration."
            measurement={measurement}
            previewDeviceId={previewDevice}
            range={range}
            width={width}
            start={{ effectiveFrom: formatLocal(answer!.from), ...start.fields }}
            send={async (body) => {
              const made = await apiClient('sensor-data').addCampaignCalibration({ params: { id: campaign.id }, body });
              const left = made.skipped.map((s) => `${names.get(s.deviceId) ?? s.deviceId} (${s.reason})`);
              return `Saved on ${plural(made.items.length, 'device')}.${left.length ? ` Left out: ${left.join('; ')}.` : ''} Their charts are being computed again.`;
            }}
            invalidates={CALIBRATION_TOUCHES}
          >
            <ChoiceField
              id="campaign-calibration-device"
              label="Preview on"
              value={previewDevice ?? ''}
              options={holding.map((d) => [d.deviceId, d.name ?? d.deviceId] as const)}
              onChange={setPreviewOn}
              hint="The raw line of this device over the campaign's window"
            />
          </CalibrationEditor>
        </div>
      )}
    </div>
  );
};

/** A campaign-wide calibration's actions: "Replace…" starts the form from its formula, "End…" from an end. */
const EndOrReplace = ({ onReplace, onEnd }: { onReplace: () => void; onEnd: () => void }) => (
  <>
    <button type="button" data-testid="campaign-calibration-replace" onClick={onReplace}>
      Replace…
    </button>{' '}
    <button type="button" data-testid="campaign-calibration-end" onClick={onEnd}>
      End…
    </button>
  </>
);

/** The campaign-wide exclusions: the list, each with "Bring back", and the form to exclude one more. */
const CampaignExclusions = ({ campaignId }: { campaignId: string }) => {
  const list = useQuery(routeQuery('sensor-data', 'listCampaignExclusions', { params: { id: campaignId } }));
  const [fields, setFields] = useState(EMPTY);
  const removals = useChanges<string>();
  const touched = [
    routeKey('sensor-data', 'listCampaignExclusions'),
    routeKey('sensor-data', 'listExclusions'),
    routeKey('sensor-data', 'series'),
    routeKey('sensor-data', 'campaignSeries'),
  ];
  const exclude = useCheckedSubmit(
    () => {
      const range = exclusionRange(fields);
      if (typeof range === 'string') return problem('from', range);
      return checkWith(ExclusionBody, { ...range, reason: fields.reason });
    },
    async (body) => {
      const made = await apiClient('sensor-data').addCampaignExclusion({ params: { id: campaignId }, body });
      setFields(EMPTY);
      return `Excluded from ${made.items.length} ${made.items.length === 1 ? 'device' : 'devices'}. Their charts leave the range out within seconds; nothing is deleted.`;
    },
    touched,
  );
  const set = (field: keyof typeof EMPTY) => (value: string) => setFields((f) => ({ ...f, [field]: value }));
  const active = campaignExclusionsOf(list.data?.items ?? []);

  return (
    <div>
      <h3>Excluded ranges</h3>
      <p className="muted small">
        Ranges excluded from every device of the campaign at once. A device's own page lists them too.
      </p>
      <ErrorAlert testId="campaign-exclusions-error" error={errorOf(list) ?? removals.error} />
      <ExcludedRanges
        testId="campaign-exclusion"
        items={active}
        covers={(e) => `${e.devices} ${e.devices === 1 ? 'device' : 'devices'}`}
        busy={removals.busy}
        onBringBack={(e) =>
          removals.run(
            e.id,
            () => apiClient('sensor-data').removeCampaignExclusion({ params: { id: campaignId, exclusionId: e.id } }),
            touched,
          )
        }
      />
      <EditForm
        name="campaign-exclusion"
        title="Exclude a range of every device"
        level={4}
        className="create-form"
        form={exclude}
        submitText="Exclude"
        busyText="Excluding…"
      >
        <div className="field-row">
          <TextField
            id="campaign-exclusion-from"
            label="From"
            type="datetime-local"
            value={fields.from}
            onChange={set('from')}
            error={exclude.fields.from}
          />
          <TextField
            id="campaign-exclusion-to"
            label="To"
            type="datetime-local"
            value={fields.to}
            onChange={set('to')}
            error={exclude.fields.to}
            hint="Within the campaign's window"
          />
        </div>
        <TextField
          id="campaign-exclusion-reason"
          label="Reason"
          value={fields.reason}
          onChange={set('reason')}
          error={exclude.fields.reason}
        />
      </EditForm>
    </div>
  );
};
