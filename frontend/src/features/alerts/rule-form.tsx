import { useQuery } from '@tanstack/react-query';
import { Suspense, useId, useState } from 'react';
import type { AlertPreview, AlertRule, RecipientRole } from '../../../../shared/contracts/alerts';
import { labelOf, MEASUREMENTS } from '../../../../shared/sensor-data/measurements';
import { EditForm } from '../../components/edit-form';
import { ErrorAlert } from '../../components/form-parts';
import { PersonName } from '../../components/person-name';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { CheckField, ChoiceField, fieldBinder, TextField, toggled } from '../../lib/form-fields';
import { routeQuery } from '../../lib/query';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { OverlayChart } from '../sensor-data/public-overlay-chart';
import {
  clearHint,
  fieldsOf,
  NEW_RULE,
  previewOverlay,
  previewSummary,
  type RuleFields,
  ruleInputOf,
} from './alert-rules';
import { alertKeys } from './alerts-api';

const KINDS = [
  ['threshold', 'A measurement crosses a limit'],
  ['silence', 'The device goes silent'],
  ['subscription', 'Its plan lapses or its trial ends'],
] as const;

const DIRECTIONS = [
  ['above', 'above'],
  ['below', 'below'],
] as const;

const ROLES: { role: RecipientRole; label: string }[] = [
  { role: 'device-owners', label: 'Its owners' },
  { role: 'device-administrators', label: 'Its administrators' },
];

/** The people a device's relations name: who may be a recipient (the API checks again). */
const PEOPLE_TYPES = new Set(['device-owner', 'device-administrator', 'device-user']);

/**
 * A device's alert rule, new or changed (docs/alerts.md, "Screens"): the condition with its defaults said beside each
 * field, the recipients picked from the people who hold the device (never an id typed), and a preview that runs the
 * rule over the last 7 days of the device's readings and draws where it would have fired on the measurement's chart.
 */
export const RuleForm = ({
  deviceId,
  rule,
  onDone,
  onCancel,
}: {
  deviceId: string;
  rule?: AlertRule;
  onDone: (rule: AlertRule) => void;
  onCancel: () => void;
}) => {
  const alerts = useApi('alerts');
  const id = useId().replace(/:/g, '');
  const [fields, setFields] = useState<RuleFields>(() => (rule ? fieldsOf(rule) : NEW_RULE));
  const set = <K extends keyof RuleFields>(key: K, value: RuleFields[K]) => setFields((f) => ({ ...f, [key]: value }));
  const [preview, setPreview] = useState<AlertPreview>();
  const [previewError, setPreviewError] = useState<string>();
  const [previewing, setPreviewing] = useState(false);
  const summary = useQuery(routeQuery('sensor-data', 'dataSummary', { params: { id: deviceId } }));
  const people = useQuery(routeQuery('relations', 'listByReferrerId', { params: { id: deviceId, x: 100 } }));
  const personIds = [
    ...new Set((people.data?.items ?? []).filter((r) => PEOPLE_TYPES.has(r.type)).map((r) => r.referentId)),
  ];
  const measurements = [
    ...new Set([...(summary.data?.measurements.map((m) => m.name) ?? []), ...Object.keys(MEASUREMENTS)]),
  ];

  const form = useCheckedSubmit(
    () => ruleInputOf(fields, deviceId),
    async (body) => {
      const saved = rule
        ? await alerts.updateRule({ params: { id: rule.id }, body })
        : await alerts.createRule({ body });
      onDone(saved);
      return 'Saved.';
    },
    alertKeys,
  );

  const runPreview = async () => {
    setPreviewError(undefined);
    const checked = ruleInputOf({ ...fields, name: fields.name || 'Preview' }, deviceId);
    if (!checked.ok) return setPreviewError(checked.message);
    setPreviewing(true);
    try {
      setPreview(await alerts.previewRule({ body: checked.value }));
    } catch (error) {
      setPreview(undefined);
      setPreviewError(errorMessage(error));
    } finally {
      setPreviewing(false);
    }
  };

  const bind = fieldBinder(id, fields, set, form.fields);
  const chartOf = fields.kind === 'threshold' ? fields.measurement : summary.data?.measurements[0]?.name;

  return (
    <div className="rule-form">
      <EditForm
        name="rule-form"
        level={3}
        long
        className="card create-form"
        title={rule ? `Change “${rule.name}”` : 'New alert rule'}
        intro="Tells the people you choose once when it fires and once when it resolves, by banner and e-mail."
        form={form}
        submitText={rule ? 'Save rule' : 'Create rule'}
        busyText="Saving…"
        onCancel={onCancel}
      >
        <TextField {...bind('name')} label="Name" />
        <ChoiceField
          {...bind('kind')}
          label="Fires when"
          options={KINDS}
          onChange={(v) => {
            set('kind', v);
            setPreview(undefined);
          }}
        />
        {fields.kind === 'threshold' && (
          <div className="rule-form-grid">
            <ChoiceField
              {...bind('measurement')}
              label="Measurement"
              options={measurements.map((name) => [name, labelOf(name)] as const)}
            />
            <ChoiceField {...bind('direction')} label="Is" options={DIRECTIONS} />
            <TextField {...bind('limit')} label="Limit" type="number" />
            <TextField {...bind('forMinutes')} label="For at least (minutes)" type="number" hint="0: at once." />
            <TextField
              {...bind('clearLevel')}
              label={fields.direction === 'above' ? 'Clears below' : 'Clears above'}
              type="number"
              hint={clearHint(fields)}
            />
            <TextField
              {...bind('clearForMinutes')}
              label="Cleared for (minutes)"
              type="number"
              hint="Empty: as long as it must hold to fire."
            />
          </div>
        )}
        {fields.kind === 'silence' && (
          <TextField
            {...bind('afterMinutes')}
            label="No reading for (minutes)"
            type="number"
            hint="Empty: twice the device's usual interval, learned from its batches, and at least 5 minutes."
          />
        )}
        {fields.kind === 'subscription' && <TextField {...bind('daysBefore')} label="Days before" type="number" />}
        <TextField
          {...bind('remindMinutes')}
          label="Remind every (minutes)"
          type="number"
          hint="While it fires and nobody has acknowledged it. Empty: no reminders."
        />
        <fieldset data-testid="rule-form-recipients">
          <legend>Who is told</legend>
          <p className="muted small">Nobody chosen: the device's owners and administrators.</p>
          {ROLES.map(({ role, label }) => (
            <CheckField
              key={role}
              testId={`rule-form-role-${role}`}
              checked={fields.roles.includes(role)}
              onChange={(on) => set('roles', toggled(fields.roles, role, on))}
            >
              {label}
            </CheckField>
          ))}
          {personIds.map((personId) => (
            <CheckField
              key={personId}
              testId={`rule-form-person-${personId}`}
              checked={fields.people.includes(personId)}
              onChange={(on) => set('people', toggled(fields.people, personId, on))}
            >
              <PersonName id={personId} withEmail={false} />
            </CheckField>
          ))}
        </fieldset>
        <CheckField testId="rule-form-enabled" checked={fields.enabled} onChange={(on) => set('enabled', on)}>
          On
        </CheckField>
        {fields.kind !== 'subscription' && (
          <div className="rule-preview" data-testid="rule-preview">
            <button
              type="button"
              data-testid="rule-form-preview"
              onClick={() => void runPreview()}
              disabled={previewing}
            >
              {previewing ? 'Trying it…' : 'Try it on the last 7 days'}
            </button>
            <ErrorAlert testId="rule-preview-error" error={previewError} />
            {preview && (
              <>
                <p data-testid="rule-preview-summary" role="status">
                  {previewSummary(preview)}
                </p>
                {preview.periods.length > 0 && (
                  <ol data-testid="rule-preview-periods">
                    {preview.periods.map((period) => (
                      <li key={period.firedAt}>
                        <When ms={period.firedAt} /> –{' '}
                        {period.clearedAt ? <When ms={period.clearedAt} /> : 'still firing'}
                        {period.peak !== undefined && <span className="muted"> (peak {period.peak})</span>}
                      </li>
                    ))}
                  </ol>
                )}
                {chartOf && (
                  <Suspense fallback={<p className="muted">Loading the chart…</p>}>
                    <OverlayChart
                      deviceId={deviceId}
                      measurement={chartOf}
                      from={preview.from}
                      to={preview.to}
                      overlay={previewOverlay(preview)}
                      testId="rule-preview-chart"
                    />
                  </Suspense>
                )}
              </>
            )}
          </div>
        )}
      </EditForm>
    </div>
  );
};
