import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { hasRole } from '../../../../shared/auth/groups';
import { HALT_CONFIDENCE_PERCENT, stageNameOf } from '../../../../shared/code-releases/rollout-rules';
import { NewRollout, type ReleaseDetail, type Rollout } from '../../../../shared/contracts/code-releases';
import { PRODUCT_LINE_NAMES } from '../../../../shared/text/product-words';
import { EditForm } from '../../components/edit-form';
import { ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { useApi } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { ChoiceField, TextField } from '../../lib/form-fields';
import { useChanges, useRoutePages } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import {
  adoption,
  EMPTY_ROLLOUT_FORM,
  preparingText,
  type RolloutForm,
  rolloutBody,
  type StageRow,
  skippedText,
  stageRowKey,
  stagesText,
  type TargetKind,
  WATCH_MS,
} from './release-rules';
import { rolloutKeys } from './releases-api';
import { RolloutStatusBadge } from './rollout-parts';

const KIND_OPTIONS = [
  ['devices', 'Chosen devices'],
  ['campaign', 'A campaign'],
  ['organization', 'An organization'],
] as const satisfies readonly (readonly [TargetKind, string])[];

/**
 * The stages and the abort criteria, under one disclosure: the defaults read in one line, and a person who wants a
 * canary of their own names its devices (or changes any stage) there.
 */
const StagesFields = ({
  form,
  setForm,
  fields,
}: {
  form: RolloutForm;
  setForm: (change: (form: RolloutForm) => RolloutForm) => void;
  fields: Record<string, string>;
}) => {
  const setRow = (index: number, field: keyof StageRow) => (value: string) =>
    setForm((f) => ({ ...f, stages: f.stages.map((row, i) => (i === index ? { ...row, [field]: value } : row)) }));
  const setAbort = (field: 'failureThresholdPercent' | 'minFinished' | 'timeoutHours') => (value: string) =>
    setForm((f) => ({ ...f, [field]: value }));
  const planned = rolloutBody(form);
  return (
    <details className="rollout-stages" open={Boolean(fields.stages || fields.abort)}>
      <summary data-testid="rollout-stages-summary">
        Stages:{' '}
        {stagesText(
          planned.stages.map((stage, i) => ({ ...stage, name: stageNameOf(stage, i, planned.stages.length) })),
        )}
      </summary>
      <p className="muted small">
        Each stage is a share of the targeted devices, chosen at random once and kept; it starts when the one before has
        soaked with its failures under the threshold, or when an administrator advances it. The last stage is 100 %.
      </p>
      <ErrorAlert testId="rollout-stages-error" error={fields.stages ?? fields.abort} />
      <ol className="stage-rows">
        {form.stages.map((row, index) => (
          <li key={row.key} className="stage-row" data-testid={`rollout-stage-${index}`}>
            <TextField
              id={`rollout-stage-${index}-name`}
              label="Name"
              value={row.name}
              onChange={setRow(index, 'name')}
            />
            <TextField
              id={`rollout-stage-${index}-percent`}
              label="Share (%)"
              type="number"
              value={row.percent}
              onChange={setRow(index, 'percent')}
            />
            <TextField
              id={`rollout-stage-${index}-soak`}
              label="Soak (hours)"
              type="number"
              step="any"
              value={row.soakHours}
              onChange={setRow(index, 'soakHours')}
            />
            <TextField
              id={`rollout-stage-${index}-devices`}
              label="Devices named for it (optional)"
              value={row.deviceIds}
              onChange={setRow(index, 'deviceIds')}
              mono
            />
            {form.stages.length > 1 && (
              <button
                type="button"
                className="link-button"
                data-testid={`rollout-stage-${index}-remove`}
                onClick={() => setForm((f) => ({ ...f, stages: f.stages.filter((_, i) => i !== index) }))}
              >
                Remove stage {index + 1}
              </button>
            )}
          </li>
        ))}
      </ol>
      <p className="actions">
        <button
          type="button"
          data-testid="rollout-stage-add"
          onClick={() =>
            setForm((f) => ({
              ...f,
              stages: [...f.stages, { key: stageRowKey(), name: '', percent: '100', soakHours: '24', deviceIds: '' }],
            }))
          }
        >
          Add a stage
        </button>
      </p>
      <fieldset className="plain abort-fields">
        <legend>Abort criteria</legend>
        <TextField
          id="rollout-abort-threshold"
          label={`Halt when ${HALT_CONFIDENCE_PERCENT} % sure that failures reach (% of devices)`}
          type="number"
          value={form.failureThresholdPercent}
          onChange={setAbort('failureThresholdPercent')}
        />
        <TextField
          id="rollout-abort-min"
          label="After at least (devices finished)"
          type="number"
          value={form.minFinished}
          onChange={setAbort('minFinished')}
        />
        <TextField
          id="rollout-abort-timeout"
          label="Timed out after (hours without finishing)"
          type="number"
          step="any"
          value={form.timeoutHours}
          onChange={setAbort('timeoutHours')}
        />
      </fieldset>
    </details>
  );
};

/**
 * Why a rollout cannot start yet, said before anyone presses a button (the API refuses it with the same words), or
 * the form to start one: Administrators only, since it changes what runs on customers' devices.
 */
const StartRollout = ({ release }: { release: ReleaseDetail }) => {
  const api = useApi('code-releases');
  const admin = hasRole(useSignedInUser().groups, 'Administrators');
  const [form, setForm] = useState<RolloutForm>(EMPTY_ROLLOUT_FORM);
  const set = (field: keyof RolloutForm) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const submit = useCheckedSubmit(
    () => checkWith(NewRollout, rolloutBody(form)),
    async (body) => {
      const rollout = await api.createRollout({ params: { id: release.id }, body });
      setForm(EMPTY_ROLLOUT_FORM);
      if (rollout.status === 'preparing') {
        const devices = rollout.preparing ? `${rollout.preparing.of.toLocaleString('en')} devices` : 'devices';
        return `Rollout started: its ${devices} are being assigned; nothing is offered until every one is.`;
      }
      return `Rollout started: ${rollout.counts.targeted} ${rollout.counts.targeted === 1 ? 'device' : 'devices'} assigned.`;
    },
    rolloutKeys(release.id),
  );
  const gate = release.gate;
  return (
    <>
      {gate.open ? (
        <p className="notice" role="status" data-testid="rollout-gate">
          The latest test run passed: this release may roll out.
        </p>
      ) : (
        <p className="gate-closed" role="status" data-testid="rollout-gate">
          <strong>Rollout not possible yet.</strong> {gate.reason}
        </p>
      )}
      {!admin && (
        <p className="muted small" data-testid="rollout-admins-only">
          Only Administrators start rollouts; any staff member may halt one.
        </p>
      )}
      {admin && (
        <EditForm
          name="rollout"
          title="Start a rollout"
          intro={`Devices of the ${PRODUCT_LINE_NAMES[release.productLine]} line in the target are assigned ${release.version}; others are skipped and counted.`}
          form={submit}
          submitText="Start rollout"
          busyText="Assigning devices…"
          disabled={!gate.open}
        >
          <fieldset disabled={!gate.open} className="plain">
            <ChoiceField
              id="rollout-kind"
              label="Target"
              value={form.kind}
              options={KIND_OPTIONS}
              onChange={(kind) => setForm((f) => ({ ...f, kind }))}
            />
            {form.kind === 'devices' && (
              <TextField
                id="rollout-devices"
                label="Device ids"
                value={form.deviceIds}
                onChange={set('deviceIds')}
                multiline
                mono
                hint="One per line, or separated by commas."
                error={submit.fields.target}
              />
            )}
            {form.kind === 'campaign' && (
              <TextField
                id="rollout-campaign"
                label="Campaign id"
                value={form.campaignId}
                onChange={set('campaignId')}
                mono
                error={submit.fields.target}
              />
            )}
            {form.kind === 'organization' && (
              <TextField
                id="rollout-organization"
                label="Organization id"
                value={form.organizationId}
                onChange={set('organizationId')}
                mono
                error={submit.fields.target}
              />
            )}
            <TextField id="rollout-note" label="Note (optional)" value={form.note} onChange={set('note')} />
            <StagesFields form={form} setForm={setForm} fields={submit.fields} />
          </fieldset>
        </EditForm>
      )}
    </>
  );
};

/**
 * One rollout's adoption as a bar and in words, what it skipped, and Halt with a reason while it is active or still
 * assigning its devices.
 */
const RolloutRow = ({ rollout, releaseId }: { rollout: Rollout; releaseId: string }) => {
  const api = useApi('code-releases');
  const [reason, setReason] = useState('');
  const { busy, error, setError, run } = useChanges<'halt'>();
  const { percent, text } = adoption(rollout.counts);
  const halt = () => {
    if (!reason.trim()) return setError('Say why the rollout is halted');
    void run('halt', () => api.haltRollout({ params: { id: rollout.id }, body: { reason } }), rolloutKeys(releaseId));
  };
  return (
    <div className="rollout" data-testid={`rollout-${rollout.id}`}>
      <p className="rollout-adoption" data-testid="rollout-adoption">
        <span className="meter" aria-hidden="true">
          <span className="meter-fill" style={{ width: `${percent}%` }} />
        </span>
        {text}
      </p>
      {skippedText(rollout.skipped) && <p className="muted small">{skippedText(rollout.skipped)}</p>}
      {rollout.status === 'preparing' && (
        <p className="muted small" data-testid="rollout-preparing">
          {preparingText(rollout.preparing)} Nothing is offered until every one is.
        </p>
      )}
      {rollout.status === 'halted' || rollout.status === 'rolled-back' ? (
        <p className="muted small" data-testid="rollout-halt-reason">
          Halted {rollout.halted ? new Date(rollout.halted).toLocaleString() : ''}: {rollout.haltReason}
        </p>
      ) : (
        <div className="halt-row">
          <ErrorAlert testId="rollout-halt-error" error={error} />
          <label className="visually-hidden" htmlFor={`halt-${rollout.id}`}>
            Why halt it
          </label>
          <input
            id={`halt-${rollout.id}`}
            data-testid="rollout-halt-reason-input"
            value={reason}
            placeholder="Why halt it"
            onChange={(event) => setReason(event.target.value)}
          />
          <button type="button" className="danger" data-testid="rollout-halt" disabled={!!busy} onClick={halt}>
            {busy ? 'Halting…' : 'Halt'}
          </button>
        </div>
      )}
    </div>
  );
};

export const RolloutsPanel = ({ release }: { release: ReleaseDetail }) => {
  // Read as often as a rollout's page while one assigns its devices, so it turns active here by itself too.
  const [watching, setWatching] = useState(false);
  const list = useRoutePages(
    'code-releases',
    'listRollouts',
    { params: { id: release.id }, query: { limit: 20 } },
    watching ? { refetchInterval: WATCH_MS } : {},
  );
  const preparing = list.items.some((rollout) => rollout.status === 'preparing');
  useEffect(() => setWatching(preparing), [preparing]);
  return (
    <section className="card" aria-labelledby="rollouts-heading">
      <h2 id="rollouts-heading">Rollouts</h2>
      <StartRollout release={release} />
      <PagedList list={list} name="rollouts" empty="Not rolled out yet.">
        <ListTable
          label="Rollouts"
          testId="rollouts"
          rows={list.items}
          rowKey={(rollout) => rollout.id}
          rowTestId={(rollout) => `rollout-row-${rollout.id}`}
          columns={[
            {
              header: 'Target',
              cell: (rollout) => (
                <>
                  <Link to={`/admin/rollouts/${encodeURIComponent(rollout.id)}`} data-testid="rollout-link">
                    {rollout.targetLabel}
                  </Link>
                  <span className="muted small block">
                    {rollout.target.kind}
                    {rollout.note ? ` · ${rollout.note}` : ''}
                  </span>
                  <span className="small block" data-testid="rollout-stage">
                    Stage {rollout.currentStage + 1} of {rollout.stages.length}:{' '}
                    {rollout.stages[rollout.currentStage]?.name}
                    {rollout.completed ? ' (completed)' : ''}
                    {rollout.status === 'preparing' ? ' (starts once every device is assigned)' : ''}
                  </span>
                </>
              ),
            },
            {
              header: 'Status',
              cell: (rollout) => <RolloutStatusBadge status={rollout.status} />,
            },
            { header: 'Adoption', cell: (rollout) => <RolloutRow rollout={rollout} releaseId={release.id} /> },
            {
              header: 'Started',
              cell: (rollout) => (
                <span className="small">
                  {new Date(rollout.created).toLocaleString()}
                  <span className="muted block">{rollout.createdByEmail ?? rollout.createdBy}</span>
                </span>
              ),
            },
          ]}
        />
      </PagedList>
    </section>
  );
};
