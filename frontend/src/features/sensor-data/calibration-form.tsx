import { type QueryKey, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CalibrationBody } from '../../../../shared/contracts/sensor-data-quality';
import type { Series } from '../../../../shared/contracts/sensor-data-readings';
import { CALIBRATION_PRESETS, formulaText } from '../../../../shared/sensor-data/calibration';
import { EditForm } from '../../components/edit-form';
import { ErrorAlert } from '../../components/form-parts';
import { checkWith, problem } from '../../lib/form-check';
import { ChoiceField, TextField } from '../../lib/form-fields';
import { errorOf, routeQuery } from '../../lib/query';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import {
  type CalibrationForm,
  EMPTY_CALIBRATION_FORM,
  formulaOf,
  PREVIEW_COLOURS,
  periodOf,
  previewLines,
} from './calibration-rules';
import './sensor-data.css';

/**
 * A new calibration version's form (docs/data-quality.md "Screens"), the device's and the campaign's: the formula
 * (linear, polynomial, piecewise, a preset such as the US EPA's linear-multi correction, or none: an end of the
 * calibration), its period, note and source, and a preview drawing the corrected line over the raw one of
 * `previewDeviceId` over `range` before saving. On the form kit; `send` makes the change and answers what it did. A
 * file of its own, so the campaign's chunk takes the form without the device page's charts.
 */
export const CalibrationEditor = ({
  name,
  title,
  intro,
  measurement,
  previewDeviceId,
  range,
  width,
  start,
  children,
  send,
  invalidates,
}: {
  /** Names the form's parts: `{name}-form`, `{name}-kind`, `{name}-a`, …, `{name}-preview`, `{name}-saved`. */
  name: string;
  title: string;
  intro?: ReactNode;
  measurement: string;
  /** The device whose raw line the preview draws; none: no preview. */
  previewDeviceId: string | undefined;
  range: { from: number; to: number };
  width: number;
  /** The fields to start from (a blank form's otherwise). */
  start: Partial<CalibrationForm>;
  /** Shown above the preview, e.g. which device's line it draws. */
  children?: ReactNode;
  /** Makes the change; answers what it did ("Saved as version 2."). */
  send: (body: CalibrationBody) => Promise<string>;
  invalidates: readonly QueryKey[];
}) => {
  const [form, setForm] = useState<CalibrationForm>(() => ({ ...EMPTY_CALIBRATION_FORM, ...start }));
  const formula = formulaOf(form);
  const period = periodOf(form);
  const preset = CALIBRATION_PRESETS.find((p) => p.id === form.kind);
  const source = form.source || preset?.source;
  const save = useCheckedSubmit(
    () => {
      if (typeof formula === 'string') return problem('formula', formula);
      if (typeof period === 'string') return problem('effectiveFrom', period);
      return checkWith(CalibrationBody, {
        measurement,
        formula,
        ...period,
        note: form.note,
        ...(source ? { source } : {}),
      });
    },
    async (body) => {
      const said = await send(body);
      setForm({ ...EMPTY_CALIBRATION_FORM, effectiveFrom: form.effectiveFrom });
      return said;
    },
    invalidates,
  );
  const set = (field: keyof CalibrationForm) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const id = (field: string) => `${name}-${field}`;
  const formulaError = save.fields.formula;
  const kinds: (readonly [string, string])[] = [
    ['linear', 'Linear: a·x + b'],
    ['polynomial', 'Polynomial'],
    ['piecewise', 'Piecewise over the raw value'],
    ['none', 'None: end the calibration (the values as sent)'],
    ...CALIBRATION_PRESETS.filter((p) => p.measurement === measurement).map((p) => [p.id, p.label] as const),
  ];

  return (
    <EditForm
      name={name}
      testId={id('form')}
      title={title}
      level={4}
      intro={intro}
      className="calibration-form"
      form={save}
      submitText={form.kind === 'none' ? 'Save the end' : 'Save calibration'}
      busyText="Saving…"
      long
    >
      <div className="field-row">
        <ChoiceField id={id('kind')} label="Formula" value={form.kind} options={kinds} onChange={set('kind')} />
        {form.kind === 'linear' && (
          <>
            <TextField id={id('a')} label="a" value={form.a} onChange={set('a')} />
            <TextField id={id('b')} label="b" value={form.b} onChange={set('b')} error={formulaError} />
          </>
        )}
        {form.kind === 'polynomial' && (
          <TextField
            id={id('coefficients')}
            label="Coefficients (x⁰, x¹, …)"
            value={form.coefficients}
            onChange={set('coefficients')}
            error={formulaError}
          />
        )}
        {form.kind === 'piecewise' && (
          <TextField
            id={id('points')}
            label="Points (raw:corrected, …)"
            value={form.points}
            onChange={set('points')}
            error={formulaError}
          />
        )}
      </div>
      {preset && (
        <p className="small muted" data-testid={id('preset')}>
          {formulaText(preset.formula, measurement)}
        </p>
      )}
      {form.kind === 'none' && (
        <p className="small muted" data-testid={id('ends')}>
          From then on, charts, downloads and the API show the values as the device sent them and name no calibration
          version; earlier readings keep theirs.
        </p>
      )}
      <div className="field-row">
        <TextField
          id={id('from')}
          label="Effective from"
          type="datetime-local"
          value={form.effectiveFrom}
          onChange={set('effectiveFrom')}
          error={save.fields.effectiveFrom}
        />
        <TextField
          id={id('to')}
          label="Until (optional)"
          type="datetime-local"
          value={form.effectiveTo}
          onChange={set('effectiveTo')}
          error={save.fields.effectiveTo}
        />
      </div>
      <div className="field-row">
        <TextField id={id('note')} label="Note" value={form.note} onChange={set('note')} error={save.fields.note} />
        <TextField
          id={id('source')}
          label="Source (optional)"
          value={form.source}
          onChange={set('source')}
          error={save.fields.source}
          placeholder={preset?.source ?? 'collocation with reference monitor X, R² 0.93'}
        />
      </div>
      {children}
      <Preview
        name={name}
        measurement={measurement}
        deviceId={previewDeviceId}
        range={range}
        width={width}
        formula={formula}
        period={period}
      />
    </EditForm>
  );
};

/** The preview under the form: what the formula would make of the raw line, or what stops it from being drawn. */
const Preview = ({
  name,
  measurement,
  deviceId,
  range,
  width,
  formula,
  period,
}: {
  name: string;
  measurement: string;
  deviceId: string | undefined;
  range: { from: number; to: number };
  width: number;
  formula: ReturnType<typeof formulaOf>;
  period: ReturnType<typeof periodOf>;
}) => {
  const request = {
    params: { id: deviceId ?? '' },
    query: { from: range.from, to: range.to, width, values: 'raw' as const },
  };
  const raw = useQuery({
    ...routeQuery('sensor-data', 'series', request),
    enabled: deviceId !== undefined && width > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const problem = typeof formula === 'string' ? formula : typeof period === 'string' ? period : undefined;
  // One key for what the preview draws, so a render that changes neither draws it again.
  const drawn = JSON.stringify([formula, period]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `drawn` stands for the formula and period
  const lines = useMemo(
    () =>
      raw.data && typeof formula !== 'string' && typeof period !== 'string'
        ? previewLines(raw.data, measurement, formula, period)
        : undefined,
    [raw.data, measurement, drawn],
  );
  return (
    <div className="calibration-preview-area">
      <ErrorAlert testId={`${name}-preview-error`} error={errorOf(raw)} />
      {problem && (
        <p className="muted small" data-testid={`${name}-problem`}>
          {problem}
        </p>
      )}
      {!problem && raw.data && lines && (
        <CalibrationPreview testId={`${name}-preview`} lines={lines} series={raw.data} width={width} />
      )}
    </div>
  );
};

/** The raw line and the corrected one the form would make, on one chart, with a legend naming them. */
const CalibrationPreview = ({
  testId,
  lines,
  series,
  width,
}: {
  testId: string;
  lines: ReturnType<typeof previewLines>;
  series: Series;
  width: number;
}) => {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    delete element.dataset.painted;
    const made = new uPlot(
      {
        width,
        height: 160,
        scales: { x: { time: true, range: [series.from / 1000, series.to / 1000] } },
        legend: { show: true },
        series: [
          {},
          { label: 'raw', stroke: PREVIEW_COLOURS.raw, width: 2, points: { show: false } },
          { label: 'corrected (preview)', stroke: PREVIEW_COLOURS.corrected, width: 2, points: { show: false } },
        ],
        hooks: { draw: [() => (element.dataset.painted = 'true')] },
      },
      [Float64Array.from(lines.x, (x) => x / 1000), lines.raw, lines.corrected] as uPlot.AlignedData,
      element,
    );
    return () => made.destroy();
  }, [lines, series, width]);
  return <div ref={container} className="sensor-chart" data-testid={testId} />;
};
