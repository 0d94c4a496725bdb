import { useState } from 'react';
import { isStaff } from '../../../../shared/auth/groups';
import type { Alert, AlertRule } from '../../../../shared/contracts/alerts';
import type { Device } from '../../../../shared/contracts/devices';
import { ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { PersonName } from '../../components/person-name';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { mayManage } from '../../lib/device-access';
import { useFirstReads } from '../../lib/first-reads';
import { errorOf, queryList, useChanges } from '../../lib/query';
import { useOptionalUser } from '../../lib/session';
import { conditionText, lastFiredFirst, ruleStatus, STATUS_TEXT } from './alert-rules';
import { alertKeys, deviceAlertsRead, deviceRulesRead, useDeviceAlerts, useDeviceRules } from './alerts-api';
import { RuleForm } from './rule-form';
import './alerts.css';

type Busy = `ack:${string}` | `delete:${string}`;

/** An alert's or a rule's state as a badge: the word and its colour. */
export const AlertBadge = ({ state, testId }: { state: keyof typeof STATUS_TEXT; testId?: string }) => (
  <span className={`badge badge-alert-${state}`} data-testid={testId} data-state={state}>
    {STATUS_TEXT[state]}
  </span>
);

/** Acknowledged by whom and when, or the button that does it. */
export const Acknowledgement = ({
  alert,
  busy,
  onAcknowledge,
}: {
  alert: Alert;
  busy: boolean;
  onAcknowledge: () => void;
}) =>
  alert.acknowledgedBy ? (
    <span data-testid={`alert-acknowledged-${alert.id}`}>
      <PersonName id={alert.acknowledgedBy} withEmail={false} />, <When ms={alert.acknowledgedAt} />
    </span>
  ) : alert.state === 'resolved' ? (
    <span className="muted">—</span>
  ) : (
    <button type="button" data-testid={`alert-acknowledge-${alert.id}`} onClick={onAcknowledge} disabled={busy}>
      {busy ? 'Acknowledging…' : 'Acknowledge'}
    </button>
  );

/**
 * The device page's Alerts panel (docs/alerts.md, "Screens"): what fires now (with Acknowledge), the rules that watch
 * the device with their state, and its alerts' history. Those who may manage the device add, change and delete its
 * rules; its campaigns' and organization's rules show here too, set where they belong.
 */
export const AlertsPanel = ({ device }: { device: Pick<Device, 'id' | 'access'> }) => {
  const user = useOptionalUser();
  const alerts = useApi('alerts');
  // What fires sits above the rules and their New rule button: the panel is drawn with both reads.
  useFirstReads(deviceRulesRead(device.id), deviceAlertsRead(device.id));
  const rules = useDeviceRules(device.id);
  const history = useDeviceAlerts(device.id);
  const manage = mayManage(device) || isStaff(user?.groups ?? []);
  const [editing, setEditing] = useState<'new' | AlertRule>();
  const { busy, error, run } = useChanges<Busy>();
  const items = history.data?.items ?? [];
  const firing = lastFiredFirst(items.filter((a) => a.state === 'firing'));

  const acknowledge = (alert: Alert) =>
    void run(`ack:${alert.id}`, () => alerts.acknowledgeEvent({ params: { id: alert.id } }), alertKeys);
  const remove = (rule: AlertRule) => {
    if (!window.confirm(`Delete the rule “${rule.name}”? Its alerts stay in the history.`)) return;
    void run(`delete:${rule.id}`, () => alerts.deleteRule({ params: { id: rule.id } }), alertKeys);
  };

  return (
    <section className="card section-card" aria-labelledby="alerts-heading" data-testid="alerts">
      <h2 id="alerts-heading">Alerts</h2>
      <p className="muted small">
        Rules that watch this device tell people once when an alert fires and once when it resolves.
      </p>
      <ErrorAlert testId="alerts-error" error={error ?? errorOf(rules) ?? errorOf(history)} />
      {firing.length > 0 && (
        <ul className="alerts-firing" aria-label="Firing now" data-testid="alerts-firing">
          {firing.map((alert) => (
            <li key={alert.id} data-testid={`alerts-firing-${alert.id}`}>
              <AlertBadge state="firing" />
              <span>
                <strong>{alert.ruleName}</strong> since <When ms={alert.firedAt} />
                {alert.value !== undefined && <> (value {alert.value})</>}
              </span>
              <Acknowledgement
                alert={alert}
                busy={busy === `ack:${alert.id}`}
                onAcknowledge={() => acknowledge(alert)}
              />
            </li>
          ))}
        </ul>
      )}

      <h3>Rules</h3>
      <PagedList
        list={queryList(rules, rules.data?.items)}
        name="alert-rules"
        errorShownAbove
        empty="No rule watches this device yet."
      >
        <ListTable
          label="Alert rules"
          testId="alert-rules"
          rows={rules.data?.items ?? []}
          rowKey={(rule) => rule.id}
          rowTestId={(rule) => `alert-rule-${rule.id}`}
          columns={[
            { header: 'Rule', cell: (rule) => rule.name },
            { header: 'Fires when', cell: (rule) => conditionText(rule) },
            {
              header: 'State',
              cell: (rule) => <AlertBadge state={ruleStatus(rule, items)} testId={`alert-rule-state-${rule.id}`} />,
            },
            {
              header: 'Actions',
              cell: (rule) =>
                manage && rule.target.kind === 'device' ? (
                  <span className="actions">
                    <button type="button" data-testid={`alert-rule-edit-${rule.id}`} onClick={() => setEditing(rule)}>
                      Change
                    </button>
                    <button
                      type="button"
                      className="danger"
                      data-testid={`alert-rule-delete-${rule.id}`}
                      onClick={() => remove(rule)}
                      disabled={busy === `delete:${rule.id}`}
                    >
                      Delete
                    </button>
                  </span>
                ) : (
                  <span className="muted small">
                    {rule.target.kind === 'device' ? '—' : `Set on its ${rule.target.kind}`}
                  </span>
                ),
            },
          ]}
        />
      </PagedList>
      {manage && !editing && (
        <div className="actions">
          <button type="button" className="primary" data-testid="alert-rule-new" onClick={() => setEditing('new')}>
            New rule
          </button>
        </div>
      )}
      {editing && (
        <RuleForm
          key={editing === 'new' ? 'new' : editing.id}
          deviceId={device.id}
          rule={editing === 'new' ? undefined : editing}
          onDone={() => setEditing(undefined)}
          onCancel={() => setEditing(undefined)}
        />
      )}

      <h3>History</h3>
      <PagedList
        list={queryList(history, history.data?.items)}
        name="alert-history"
        errorShownAbove
        empty="No alert has fired on this device."
      >
        <ListTable
          label="Alert history"
          testId="alert-history"
          rows={items}
          rowKey={(alert) => alert.id}
          rowTestId={(alert) => `alert-${alert.id}`}
          columns={[
            { header: 'Rule', cell: (alert) => alert.ruleName },
            { header: 'State', cell: (alert) => <AlertBadge state={alert.state} testId={`alert-state-${alert.id}`} /> },
            { header: 'Fired', cell: (alert) => <When ms={alert.firedAt ?? alert.startedAt} /> },
            { header: 'Resolved', cell: (alert) => <When ms={alert.resolvedAt} /> },
            {
              header: 'Acknowledged',
              cell: (alert) => (
                <Acknowledgement
                  alert={alert}
                  busy={busy === `ack:${alert.id}`}
                  onAcknowledge={() => acknowledge(alert)}
                />
              ),
            },
          ]}
        />
      </PagedList>
    </section>
  );
};
