import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { hasRole } from '../../../../shared/auth/groups';
import {
  DEVICE_UPDATE_STATES,
  type DeviceUpdateState,
  UPDATE_STATE_TEXT,
} from '../../../../shared/code-releases/rollout-rules';
import type { Rollout, RolloutDevice } from '../../../../shared/contracts/code-releases';
import { ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { ChoiceField } from '../../lib/form-fields';
import { errorOf, routeKey, routeQuery, useChanges, usePagedQuery } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { UpdateStateBadge } from './public-update-state';
import {
  abortText,
  durationText,
  finishedOf,
  haltedPreparingText,
  preparingText,
  stageStatus,
  WATCH_MS,
} from './release-rules';
import { RolloutStatusBadge } from './rollout-parts';
import './code-releases.css';

/** The columns of the counts per stage, in the order an update moves. */
const COUNTED: readonly DeviceUpdateState[] = [
  'pending',
  'offered',
  'downloading',
  'installing',
  'succeeded',
  'failed',
  'rejected',
  'timed_out',
];

/** Every read a change to this rollout touches: the rollout, its devices, and its release's list of rollouts. */
const rolloutShownKeys = (rollout: Rollout) => [
  routeKey('code-releases', 'getRollout'),
  routeKey('code-releases', 'listRolloutDevices'),
  routeKey('code-releases', 'listRollouts', { params: { id: rollout.releaseId } }),
];

/**
 * The stages as one bar: a segment per stage, as wide as its share of the devices, filled as far as its devices have
 * finished; done, running or waiting, said in words as well as in colour.
 */
const StageBar = ({ rollout }: { rollout: Rollout }) => {
  const total = Math.max(
    rollout.stages.reduce((sum, stage) => sum + stage.devices, 0),
    1,
  );
  return (
    <ol className="stage-bar" aria-label="Stages" data-testid="stage-bar">
      {rollout.stages.map((stage, index) => {
        const status = stageStatus(rollout, index);
        const { finished, own, percent } = finishedOf(stage);
        return (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: a rollout's stages never change order or number
            key={index}
            className={`stage-segment stage-${status}`}
            style={{ flexGrow: Math.max(stage.devices / total, 0.08) }}
            data-testid={`stage-segment-${index}`}
          >
            <span
              className="stage-fill"
              style={{ width: `${status === 'waiting' ? 0 : percent}%` }}
              aria-hidden="true"
            />
            <span className="stage-label">
              <strong>{stage.name}</strong>{' '}
              <span className="stage-status">
                {status === 'done'
                  ? 'done'
                  : status === 'current'
                    ? rollout.status === 'active'
                      ? 'running'
                      : 'stopped'
                    : 'waiting'}
              </span>
              <span className="block small">
                {finished} of {own} finished
              </span>
            </span>
          </li>
        );
      })}
    </ol>
  );
};

/** How many failures the halt note names; the devices list below has them all. */
const FAILURES_LISTED = 20;

/** The reads of the devices that failed or went silent, as many as the halt note names. */
const failuresRead = (rolloutId: string, state: 'failed' | 'timed_out') =>
  routeQuery('code-releases', 'listRolloutDevices', {
    params: { id: rolloutId },
    query: { limit: FAILURES_LISTED, state },
  });

/** The devices that failed or went silent, and why: what a person deciding between resume and roll back reads. */
const Failures = ({ devices }: { devices: readonly RolloutDevice[] }) => {
  if (devices.length === 0) return null;
  return (
    <>
      <p>Devices that failed or timed out:</p>
      <ul className="failures" data-testid="rollout-failures">
        {devices.map((device) => (
          <li key={device.deviceId} data-testid={`rollout-failure-${device.deviceId}`}>
            <Link className="mono" to={`/admin/devices/${encodeURIComponent(device.deviceId)}`}>
              {device.deviceId}
            </Link>
            : {device.state === 'timed_out' ? 'timed out (no report in time)' : 'failed'}
            {device.reason ? `: ${device.reason}` : ''}
          </li>
        ))}
      </ul>
    </>
  );
};

/**
 * What a rollout still assigning its devices is doing: the page reads it again every few seconds, so the count moves
 * and the note goes by itself once it is active.
 */
const PreparingNote = ({ rollout }: { rollout: Rollout }) => (
  <p className="notice" role="status" data-testid="rollout-preparing">
    {preparingText(rollout.preparing)} Nothing is offered until every device is assigned; its first stage,{' '}
    {rollout.stages[0]?.name}, starts then.
  </p>
);

/** Why and when it stopped, or what rolled it back: the first thing a person opening a stopped rollout reads. */
const StopNote = ({ rollout }: { rollout: Rollout }) => {
  // A preparing rollout has not started, so it has not stopped either: it has no failures to read.
  const stopped = rollout.status === 'halted' || rollout.status === 'rolled-back';
  const failed = useQuery({ ...failuresRead(rollout.id, 'failed'), enabled: stopped, refetchInterval: WATCH_MS });
  const timedOut = useQuery({ ...failuresRead(rollout.id, 'timed_out'), enabled: stopped, refetchInterval: WATCH_MS });
  if (!stopped) {
    return rollout.completed ? (
      <p className="notice" data-testid="rollout-completed">
        Every stage has started and soaked under the threshold (<When ms={rollout.completed} />
        ).
      </p>
    ) : null;
  }
  // Drawn with its failures, so the note grows once when the rollout stops, not again when they come.
  if (failed.isPending || timedOut.isPending) return null;
  const devices = [...(failed.data?.items ?? []), ...(timedOut.data?.items ?? [])].slice(0, FAILURES_LISTED);
  return (
    <div className="gate-closed" role="status" data-testid="rollout-halt">
      <p>
        <strong>{rollout.haltedBy === 'automatic' ? 'Halted by its abort criteria' : 'Halted'}</strong>{' '}
        {rollout.halted && <When ms={rollout.halted} />}
      </p>
      <p data-testid="rollout-halt-reason">{rollout.haltReason}</p>
      {rollout.preparing && <p data-testid="rollout-halted-preparing">{haltedPreparingText(rollout.preparing)}</p>}
      <ErrorAlert testId="rollout-failures-error" error={errorOf(failed) ?? errorOf(timedOut)} />
      <Failures devices={devices} />
      {rollout.rollback && (
        <p data-testid="rollout-rolled-back">
          Rolled back: {rollout.productLine} {rollout.rollback.version} is offered to the{' '}
          {rollout.rollback.devices === 1 ? 'device' : `${rollout.rollback.devices} devices`} that installed this
          release (
          <Link to={`/admin/rollouts/${encodeURIComponent(rollout.rollback.rolloutId)}`}>the rollback's rollout</Link>
          ).
        </p>
      )}
    </div>
  );
};

/**
 * What a person may do now: advance or halt an active rollout, halt one still assigning its devices, resume or roll
 * back a halted one (one halted while assigning resumes assigning, and has nothing to roll back).
 */
const RolloutActions = ({ rollout }: { rollout: Rollout }) => {
  const api = useApi('code-releases');
  const admin = hasRole(useSignedInUser().groups, 'Administrators');
  const [haltReason, setHaltReason] = useState('');
  const [rollbackReason, setRollbackReason] = useState('');
  const { busy, error, setError, run } = useChanges<'advance' | 'halt' | 'resume' | 'rollback'>();
  const keys = rolloutShownKeys(rollout);
  const params = { params: { id: rollout.id } };
  const last = rollout.currentStage >= rollout.stages.length - 1;
  if (rollout.status === 'rolled-back') return null;
  return (
    <section className="card section-card" aria-labelledby="rollout-actions-heading">
      <h2 id="rollout-actions-heading">Actions</h2>
      <ErrorAlert testId="rollout-action-error" error={error} />
      {rollout.status === 'preparing' && (
        <p className="muted small" data-testid="rollout-actions-later">
          Advancing comes once every device is assigned and the rollout is active.
        </p>
      )}
      {(rollout.status === 'active' || rollout.status === 'preparing') && (
        <>
          {admin && !last && rollout.status === 'active' && (
            <p className="actions">
              <button
                type="button"
                data-testid="rollout-advance"
                disabled={!!busy}
                onClick={() =>
                  void run(
                    'advance',
                    () => api.advanceRollout({ ...params, body: { fromStage: rollout.currentStage } }),
                    keys,
                  )
                }
              >
                {busy === 'advance'
                  ? 'Advancing…'
                  : `Advance now: start ${rollout.stages[rollout.currentStage + 1]!.name}`}
              </button>
            </p>
          )}
          <div className="halt-row">
            <label htmlFor="rollout-halt-reason-input">Why halt it</label>
            <input
              id="rollout-halt-reason-input"
              data-testid="rollout-halt-reason-input"
              value={haltReason}
              onChange={(event) => setHaltReason(event.target.value)}
            />
            <button
              type="button"
              className="danger"
              data-testid="rollout-halt-submit"
              disabled={!!busy}
              onClick={() => {
                if (!haltReason.trim()) return setError('Say why the rollout is halted');
                void run('halt', () => api.haltRollout({ ...params, body: { reason: haltReason } }), keys);
              }}
            >
              {busy === 'halt' ? 'Halting…' : 'Halt'}
            </button>
          </div>
        </>
      )}
      {rollout.status === 'halted' && !admin && (
        <p className="muted small" data-testid="rollout-admins-only">
          Only Administrators resume or roll back a rollout.
        </p>
      )}
      {rollout.status === 'halted' && admin && (
        <p className="actions">
          <button
            type="button"
            data-testid="rollout-resume"
            disabled={!!busy}
            onClick={() => void run('resume', () => api.resumeRollout(params), keys)}
          >
            {busy === 'resume' ? 'Resuming…' : 'Resume'}
          </button>
          <span className="muted small">
            {rollout.preparing
              ? ' Assigning its devices goes on; nothing is offered until every one is.'
              : ' Offers start again; the failures seen so far are set aside.'}
          </span>
        </p>
      )}
      {rollout.status === 'halted' && admin && !rollout.preparing && (
        <>
          <div className="halt-row">
            <label htmlFor="rollout-rollback-reason">Why roll it back</label>
            <input
              id="rollout-rollback-reason"
              data-testid="rollout-rollback-reason"
              value={rollbackReason}
              onChange={(event) => setRollbackReason(event.target.value)}
            />
            <button
              type="button"
              className="danger"
              data-testid="rollout-rollback"
              disabled={!!busy}
              onClick={() => {
                if (!rollbackReason.trim()) return setError('Say why the rollout is rolled back');
                void run('rollback', () => api.rollbackRollout({ ...params, body: { reason: rollbackReason } }), keys);
              }}
            >
              {busy === 'rollback' ? 'Rolling back…' : 'Roll back'}
            </button>
          </div>
          <p className="muted small">
            Rolling back offers the product line's previous release to the devices that installed this one.
          </p>
        </>
      )}
    </section>
  );
};

const STATE_OPTIONS = [
  ['', 'Every state'] as const,
  ...DEVICE_UPDATE_STATES.map((state) => [state, UPDATE_STATE_TEXT[state]] as const),
];

/** The rollout's devices, by stage and state, as the progress index lists them. */
const DevicesPanel = ({ rollout }: { rollout: Rollout }) => {
  const api = useApi('code-releases');
  // Read again when the counts moved (the page reads the rollout every few seconds): a device changed state.
  const moved = JSON.stringify(rollout.stages.map((stage) => stage.counts));
  const [stage, setStage] = useState('');
  const [state, setState] = useState<DeviceUpdateState | ''>('');
  const query = {
    limit: 50,
    ...(stage ? { stage: Number(stage) } : {}),
    ...(state ? { state } : {}),
  };
  const listKey = routeKey('code-releases', 'listRolloutDevices', { params: { id: rollout.id }, query });
  const list = usePagedQuery<RolloutDevice & { id: string }>(listKey, async (cursor) => {
    const page = await api.listRolloutDevices({
      params: { id: rollout.id },
      query: { ...query, ...(cursor ? { cursor } : {}) },
    });
    return { ...page, items: page.items.map((device) => ({ ...device, id: device.deviceId })) };
  });
  const client = useQueryClient();
  const seen = useRef(moved);
  useEffect(() => {
    if (seen.current === moved) return;
    seen.current = moved;
    void client.invalidateQueries({ queryKey: listKey });
  }, [moved, client, listKey]);
  const stageOptions = [
    ['', 'Every stage'] as const,
    ...rollout.stages.map((s, index) => [String(index), s.name] as const),
  ];
  return (
    <section className="card section-card" aria-labelledby="rollout-devices-heading">
      <h2 id="rollout-devices-heading">Devices</h2>
      <div className="filters">
        <ChoiceField
          id="rollout-devices-stage"
          label="Stage"
          value={stage}
          options={stageOptions}
          onChange={setStage}
        />
        <ChoiceField
          id="rollout-devices-state"
          label="State"
          value={state}
          options={STATE_OPTIONS}
          onChange={setState}
        />
      </div>
      <PagedList list={list} name="rollout-devices" empty="No device here.">
        <ListTable
          label="Devices of the rollout"
          testId="rollout-devices"
          rows={list.items}
          rowKey={(device) => device.deviceId}
          rowTestId={(device) => `rollout-device-${device.deviceId}`}
          columns={[
            {
              header: 'Device',
              cell: (device) => (
                <Link className="mono" to={`/admin/devices/${encodeURIComponent(device.deviceId)}`}>
                  {device.deviceId}
                </Link>
              ),
            },
            { header: 'Stage', cell: (device) => rollout.stages[device.stage]?.name ?? device.stage },
            {
              header: 'State',
              cell: (device) => (
                <>
                  <UpdateStateBadge state={device.state} testId="rollout-device-state" />
                  {device.superseded !== undefined && (
                    <span className="muted small block">then taken over by a later rollout</span>
                  )}
                </>
              ),
            },
            {
              header: 'Since',
              cell: (device) => <When ms={device.stateAt ?? device.offered ?? device.assigned} />,
            },
            {
              header: 'Why',
              cell: (device) =>
                device.reason ? (
                  <span data-testid="rollout-device-reason">{device.reason}</span>
                ) : (
                  <span className="muted">—</span>
                ),
            },
            {
              header: 'Reports',
              cell: (device) =>
                device.reportedVersion ? (
                  <span className="mono">{device.reportedVersion}</span>
                ) : (
                  <span className="muted">—</span>
                ),
            },
          ]}
        />
      </PagedList>
    </section>
  );
};

/**
 * `/admin/rollouts/{id}`: one rollout as it moves through its stages (docs/code-releases.md, "Stages"): why it stopped
 * if it did, a bar of its stages, its devices counted per stage and state, what a person may do now, and its devices
 * with why each failed. Read again every few seconds while it is open, so devices' reports show as they come.
 */
export const RolloutPage = () => {
  const { id = '' } = useParams();
  const rollout = useQuery({
    ...routeQuery('code-releases', 'getRollout', { params: { id } }),
    refetchInterval: WATCH_MS,
  });
  const data = rollout.data;
  return (
    <section className="page rollout-page">
      {data && (
        <p className="small">
          <Link to={`/admin/releases/${encodeURIComponent(data.releaseId)}`}>
            ← {data.productLine} {data.version}
          </Link>
        </p>
      )}
      <ErrorAlert testId="rollout-error" error={errorOf(rollout)} />
      {rollout.isPending && <p className="muted">Loading the rollout…</p>}
      {data && (
        <>
          <h1 data-testid="rollout-title">
            Rollout of {data.productLine} {data.version} <RolloutStatusBadge status={data.status} />
          </h1>
          <p className="muted small" data-testid="rollout-summary">
            To {data.targetLabel} · started <When ms={data.created} /> by {data.createdByEmail ?? data.createdBy}
            {data.note ? ` · ${data.note}` : ''}
          </p>
          {data.rollbackOf && (
            <p className="notice">
              This rollout rolls back{' '}
              <Link to={`/admin/rollouts/${encodeURIComponent(data.rollbackOf)}`}>a halted one</Link>: it offers the
              previous release to the devices that had installed it.
            </p>
          )}
          {/* The actions first: what the page's reads and the devices' reports grow is under them, never above. */}
          <RolloutActions rollout={data} />
          {data.status === 'preparing' && <PreparingNote rollout={data} />}
          <StopNote rollout={data} />
          <section className="card section-card" aria-labelledby="rollout-stages-heading">
            <h2 id="rollout-stages-heading">Stages</h2>
            <StageBar rollout={data} />
            <div className="stage-counts">
              <ListTable
                label="Devices per stage and state"
                testId="stage-counts"
                rows={data.stages.map((stage, index) => ({ ...stage, index }))}
                rowKey={(stage) => String(stage.index)}
                rowTestId={(stage) => `stage-counts-${stage.index}`}
                columns={[
                  {
                    header: 'Stage',
                    cell: (stage) => (
                      <>
                        {stage.name}
                        <span className="muted small block">
                          {stage.devices} {stage.devices === 1 ? 'device' : 'devices'} · {stage.percent} % ·{' '}
                          {durationText(stage.soakSeconds)}
                        </span>
                        {stage.started && (
                          <span className="muted small block">
                            started <When ms={stage.started} />
                          </span>
                        )}
                      </>
                    ),
                  },
                  ...COUNTED.map((state) => ({
                    header: UPDATE_STATE_TEXT[state],
                    cell: (stage: Rollout['stages'][number]) => (
                      <span data-testid={`count-${state}`} className={stage.counts[state] ? undefined : 'muted zero'}>
                        {stage.counts[state]}
                      </span>
                    ),
                  })),
                ]}
              />
            </div>
            <p className="muted small" data-testid="rollout-abort">
              {abortText(data.abort)}
            </p>
          </section>
          <DevicesPanel rollout={data} />
        </>
      )}
    </section>
  );
};
