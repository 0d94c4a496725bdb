import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type Calibration, type Exclusion, ExclusionBody } from '../../../../shared/contracts/sensor-data-quality';
import { formulaText, isEnd } from '../../../../shared/sensor-data/calibration';
import { DoneNote, ErrorAlert, SubmitButton } from '../../components/form-parts';
import { PersonName } from '../../components/person-name';
import { apiClient } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { ChoiceField, TextField } from '../../lib/form-fields';
import { errorOf, routeKey, routeQuery, useChanges } from '../../lib/query';
import { CalibrationEditor } from './calibration-form';
import type { CalibrationForm } from './calibration-rules';
import { ExcludedRanges } from './excluded-ranges';
import { exclusionFields, exclusionRange } from './exclusion-rules';
import { reprocessingText } from './quality-rules';
import { formatLocal } from './range-rules';

const when = (ms: number) => new Date(ms).toLocaleString();

/** How often a run under way is read again. */
const POLL_MS = 1_000;

/** The queries a calibration or exclusion touches: its list, the charts, and the reprocessing it starts. */
const touchedBy = (list: 'listCalibrations' | 'listExclusions') => [
  routeKey('sensor-data', list),
  routeKey('sensor-data', 'series'),
  routeKey('sensor-data', 'reprocessing'),
];

/** A measurement's choice, labelled as the charts' titles name it. */
const measurementOptions = (names: readonly string[], labels: Readonly<Record<string, string>>) =>
  names.map((name) => [name, labels[name] ?? name] as const);

/**
 * A device's data quality under its charts (docs/data-quality.md "Screens"): each measurement's calibration history,
 * and for those who may change it a form whose preview draws the corrected line over the raw one before saving; the
 * excluded ranges, and a form to exclude one (filled by dragging across a chart, or typed: the keyboard's way).
 */
export const QualityPanel = ({
  deviceId,
  names,
  labels,
  range,
  width,
  mayChange,
  dragged,
}: {
  deviceId: string;
  names: readonly string[];
  /** Each measurement's label ("PM2.5"), as the charts' titles show it. */
  labels: Readonly<Record<string, string>>;
  range: { from: number; to: number };
  width: number;
  mayChange: boolean;
  /** The last range dragged across a chart, with its measurement. */
  dragged?: { from: number; to: number; measurement: string; at: number };
}) => {
  const [measurement, setMeasurement] = useState(names[0] ?? '');
  // A change made here starts a reprocessing: the line then says when it is done, however fast it was.
  const [changedAt, setChangedAt] = useState<number>();
  const onChanged = () => setChangedAt(Date.now());
  const calibrations = useQuery(routeQuery('sensor-data', 'listCalibrations', { params: { id: deviceId } }));
  const exclusions = useQuery(routeQuery('sensor-data', 'listExclusions', { params: { id: deviceId } }));
  const shown = names.includes(measurement) ? measurement : (names[0] ?? '');
  const history = (calibrations.data?.items ?? []).filter((c) => c.measurement === shown);
  // "End…" starts the form anew as an end from now on (decision 103), and takes the person there.
  const [start, setStart] = useState<{ fields: Partial<CalibrationForm>; at: number }>({ fields: {}, at: 0 });
  useEffect(() => {
    if (start.at > 0) document.getElementById('calibration-kind')?.focus();
  }, [start.at]);
  const endOf = (c: Calibration) =>
    setStart({
      fields: {
        kind: 'none',
        effectiveFrom: formatLocal(Math.max(c.effectiveFrom, Date.now())),
        note: `Ends version ${c.version}`,
      },
      at: Date.now(),
    });

  return (
    <section className="quality-panel" aria-labelledby="quality-heading" data-testid="quality-panel">
      <h3 id="quality-heading">Data quality</h3>
      <ReprocessingLine deviceId={deviceId} changedAt={changedAt} />
      <ChoiceField
        id="quality-measurement"
        label="Measurement"
        value={shown}
        options={measurementOptions(names, labels)}
        onChange={setMeasurement}
      />
      <div>
        <h4>Calibration history</h4>
        <ErrorAlert testId="calibrations-error" error={errorOf(calibrations)} />
        {history.length === 0 ? (
          <p className="muted small" data-testid="calibrations-empty">
            No calibration: charts, downloads and the API show the values as the device sent them.
          </p>
        ) : (
          <ol className="quality-history" data-testid="calibration-history" reversed>
            {history.map((c, i) => (
              <CalibrationItem
                key={c.id}
                calibration={c}
                onEnd={mayChange && i === 0 && !isEnd(c.formula) ? () => endOf(c) : undefined}
              />
            ))}
          </ol>
        )}
      </div>
      {mayChange && shown && (
        <CalibrationEditor
          key={`${shown}-${start.at}`}
          name="calibration"
          title={`New calibration of ${labels[shown] ?? shown}`}
          measurement={shown}
          previewDeviceId={deviceId}
          range={range}
          width={width}
          start={{ effectiveFrom: formatLocal(range.from), ...start.fields }}
          send={async (body) => {
            const made = await apiClient('sensor-data').addCalibration({ params: { id: deviceId }, body });
            onChanged();
            return `Saved as version ${made.version}${isEnd(made.formula) ? ', the end' : ''}. The charts are being computed again.`;
          }}
          invalidates={touchedBy('listCalibrations')}
        />
      )}
      <ExclusionsPart
        deviceId={deviceId}
        names={names}
        items={exclusions.data?.items ?? []}
        error={errorOf(exclusions)}
        labels={labels}
        mayChange={mayChange}
        dragged={dragged}
        onChanged={onChanged}
      />
    </section>
  );
};

/**
 * How far the device's reprocessing is (docs/data-quality.md "Screens"): "Reprocessing: 37 % — 3 of 8 days", read
 * again each second while a run is under way, then that it is done, and the charts read again for what it recomputed.
 * One line whose space is kept whatever it says, so the forms under it never move.
 */
const ReprocessingLine = ({ deviceId, changedAt }: { deviceId: string; changedAt: number | undefined }) => {
  const queries = useQueryClient();
  const state = useQuery({
    ...routeQuery('sensor-data', 'reprocessing', { params: { id: deviceId } }),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? POLL_MS : false),
  });
  const [seenRunning, setSeenRunning] = useState(false);
  const running = state.data?.status === 'running';
  useEffect(() => {
    if (running) setSeenRunning(true);
  }, [running]);
  // An answer read before the change was made says nothing of the run it started: the line waits for the next.
  const stale = changedAt !== undefined && state.dataUpdatedAt <= changedAt;
  const shown = stale ? undefined : state.data;
  const watched = seenRunning || changedAt !== undefined;
  const finished = watched && shown?.status === 'idle';
  useEffect(() => {
    // The roll-ups a run recomputed: an answer equal to the one on screen draws nothing new.
    if (finished) void queries.invalidateQueries({ queryKey: routeKey('sensor-data', 'series') });
  }, [finished, queries]);
  return (
    <div className="reprocessing-line">
      <ErrorAlert testId="reprocessing-error" error={errorOf(state)} />
      <p className="small" role="status" data-testid="reprocessing-status">
        {shown?.status === 'running' && (
          <progress max={100} value={shown.progress} aria-hidden="true" data-testid="reprocessing-progress" />
        )}{' '}
        {reprocessingText(shown, watched)}
      </p>
    </div>
  );
};

/**
 * One version in a measurement's history; an end says so, with who saved it and when (decision 103). `onEnd`: the
 * newest version, not itself an end, for those who may change it.
 */
const CalibrationItem = ({ calibration: c, onEnd }: { calibration: Calibration; onEnd?: () => void }) => (
  <li data-testid="calibration-version">
    <strong>Version {c.version}</strong>:{' '}
    {isEnd(c.formula) ? 'calibration ended, the values as sent' : formulaText(c.formula, c.measurement)}, from{' '}
    {when(c.effectiveFrom)}
    {c.effectiveTo !== undefined ? ` to ${when(c.effectiveTo)}` : ''}
    {isEnd(c.formula) && (
      <>
        ; by <PersonName id={c.createdBy} withEmail={false} /> on {when(c.created)}
      </>
    )}
    . {c.note}
    {c.source ? ` Source: ${c.source}.` : ''}
    {onEnd && (
      <>
        {' '}
        <button type="button" data-testid="calibration-end" onClick={onEnd}>
          End…
        </button>
      </>
    )}
  </li>
);

const ExclusionsPart = ({
  deviceId,
  names,
  labels,
  items,
  error,
  mayChange,
  dragged,
  onChanged,
}: {
  deviceId: string;
  names: readonly string[];
  labels: Readonly<Record<string, string>>;
  items: readonly Exclusion[];
  error: string | undefined;
  mayChange: boolean;
  dragged?: { from: number; to: number; measurement: string; at: number };
  onChanged: () => void;
}) => {
  const [fields, setFields] = useState({ from: '', to: '', measurement: '', reason: '' });
  const [done, setDone] = useState<string>();
  const changes = useChanges<'add' | `remove-${string}`>();
  const invalidates = touchedBy('listExclusions');
  const set = (field: keyof typeof fields) => (value: string) => setFields((f) => ({ ...f, [field]: value }));

  // A drag fills the form and puts the focus on the reason: what is left to say. The fields are set while rendering
  // (each drag, told by its time, once) so the focus arrives with the range already in From and To, never before it.
  const [filledAt, setFilledAt] = useState<number>();
  if (dragged && dragged.at !== filledAt) {
    setFilledAt(dragged.at);
    setFields((f) => ({ ...f, ...exclusionFields(dragged.from, dragged.to), measurement: dragged.measurement }));
    setDone(undefined);
  }
  useEffect(() => {
    if (filledAt !== undefined) document.getElementById('exclusion-reason')?.focus();
  }, [filledAt]);

  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    setDone(undefined);
    const range = exclusionRange(fields);
    if (typeof range === 'string') return changes.setError(range);
    const checked = checkWith(ExclusionBody, {
      ...range,
      ...(fields.measurement ? { measurements: [fields.measurement] } : {}),
      reason: fields.reason,
    });
    if (!checked.ok) return changes.setError(checked.message);
    await changes.run(
      'add',
      async () => {
        await apiClient('sensor-data').addExclusion({ params: { id: deviceId }, body: checked.value });
        setDone('Excluded. The charts leave the range out within seconds; nothing is deleted.');
        setFields({ from: '', to: '', measurement: '', reason: '' });
        onChanged();
      },
      invalidates,
    );
  };

  const active = items.filter((e) => e.status === 'active');
  return (
    <div>
      <h4>Excluded ranges</h4>
      <ErrorAlert testId="exclusions-error" error={error} />
      <ExcludedRanges
        testId="exclusion"
        items={active}
        covers={(e) => e.measurements?.map((m) => labels[m] ?? m).join(', ') ?? 'all measurements'}
        busy={changes.busy?.replace(/^remove-/, '')}
        onBringBack={
          mayChange
            ? (e) =>
                changes.run(
                  `remove-${e.id}`,
                  async () => {
                    await apiClient('sensor-data').removeExclusion({ params: { id: deviceId, exclusionId: e.id } });
                    onChanged();
                  },
                  invalidates,
                )
            : undefined
        }
      />
      {mayChange && (
        <form onSubmit={add} data-testid="exclusion-form" aria-labelledby="exclusion-form-heading">
          <h4 id="exclusion-form-heading" style={{ flexBasis: '100%', margin: 0 }}>
            Exclude this range
          </h4>
          <p className="muted small" style={{ flexBasis: '100%', margin: 0 }}>
            Drag across a chart to choose the range, or type it.
          </p>
          <TextField
            id="exclusion-from"
            label="From"
            type="datetime-local"
            value={fields.from}
            onChange={set('from')}
          />
          <TextField id="exclusion-to" label="To" type="datetime-local" value={fields.to} onChange={set('to')} />
          <ChoiceField
            id="exclusion-measurement"
            label="Measurements"
            value={fields.measurement}
            options={[['', 'All'], ...measurementOptions(names, labels)]}
            onChange={set('measurement')}
          />
          <TextField id="exclusion-reason" label="Reason" value={fields.reason} onChange={set('reason')} />
          <SubmitButton testId="exclusion-save" busy={changes.busy === 'add'} busyText="Excluding…">
            Exclude
          </SubmitButton>
          <ErrorAlert testId="exclusion-error" error={changes.error} />
          <DoneNote testId="exclusion-done" text={done} />
        </form>
      )}
    </div>
  );
};
