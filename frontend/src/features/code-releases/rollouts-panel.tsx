import { useState } from 'react';
import { hasRole } from '../../../../shared/auth/groups';
import { NewRollout, type ReleaseDetail, type Rollout } from '../../../../shared/contracts/code-releases';
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
  type RolloutForm,
  rolloutBody,
  skippedText,
  type TargetKind,
} from './release-rules';
import { rolloutKeys } from './releases-api';

const KIND_OPTIONS = [
  ['devices', 'Chosen devices'],
  ['campaign', 'A campaign'],
  ['organization', 'An organization'],
] as const satisfies readonly (readonly [TargetKind, string])[];

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
          intro={`Devices of the ${release.productLine} line in the target are assigned ${release.version}; others are skipped and counted.`}
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
          </fieldset>
        </EditForm>
      )}
    </>
  );
};

/** One rollout's adoption as a bar and in words, what it skipped, and Halt with a reason while it is active. */
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
      {rollout.status === 'halted' ? (
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
  const list = useRoutePages('code-releases', 'listRollouts', { params: { id: release.id }, query: { limit: 20 } });
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
                  {rollout.targetLabel}
                  <span className="muted small block">
                    {rollout.target.kind}
                    {rollout.note ? ` · ${rollout.note}` : ''}
                  </span>
                </>
              ),
            },
            {
              header: 'Status',
              cell: (rollout) => (
                <span className={`badge rollout-${rollout.status}`} data-testid="rollout-status">
                  {rollout.status === 'active' ? 'Active' : 'Halted'}
                </span>
              ),
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
