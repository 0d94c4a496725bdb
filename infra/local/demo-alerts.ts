import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StoredRule } from '../../functions/_shared/alerts/alert-model';
import { createAlertTable } from '../../functions/_shared/alerts/alert-table';
import { createRuleTable } from '../../functions/_shared/alerts/rule-table';
import { createStateTable } from '../../functions/_shared/alerts/state-table';
import { backtestThreshold } from '../../functions/_shared/alerts/threshold-machine';
import { createReadingsStore } from '../../functions/_shared/sensor-data/readings-store';
import { DEFAULT_PREVIEW_MS, thresholdLevels } from '../../shared/alerts/alert-rules';

/**
 * The demo's alert rules (docs/alerts.md, "Demo data"): the rooftop station's PM2.5 rule, whose history holds the
 * periods its own readings fired and resolved it, and the lake buoy's silence rule, which the sweep fires each time
 * the buoy loses its link (every 3 hours while the stack simulates it; for good with `--no-simulate`).
 */
export const DEMO_ALERT_RULES = [
  {
    id: 'demo-rule-rooftop-pm25',
    name: 'Rooftop PM2.5 over 15',
    target: { kind: 'device', id: 'demo-device-1' },
    condition: { kind: 'threshold', measurement: 'pm2_5', above: 15, forSeconds: 1800 },
    owner: 'user@example.com',
  },
  {
    id: 'demo-rule-buoy-silent',
    name: 'Lake buoy silent',
    target: { kind: 'device', id: 'demo-device-2' },
    condition: { kind: 'silence', afterSeconds: 600 },
    owner: 'approved@example.com',
  },
] as const satisfies readonly (Pick<StoredRule, 'id' | 'name' | 'target' | 'condition'> & { owner: string })[];

/**
 * Writes the demo rules and, for the threshold rule, an alert for each period its machine fires and clears over the
 * seeded readings of the last 7 days (the preview's backtest, so the history is what the rule would have said), then
 * puts both devices on the sweep's due index. Runs on the first start of a data directory, after the readings.
 */
export const seedDemoAlerts = async (
  db: DynamoDBDocumentClient,
  tables: Record<string, string>,
  subs: ReadonlyMap<string, string>,
  now = Date.now(),
) => {
  const rules = createRuleTable({ db, tableName: tables.alertRules! });
  const alerts = createAlertTable({ db, tableName: tables.alerts! });
  const states = createStateTable({ db, tableName: tables.alertStates!, devicesTable: tables.devices! });
  const readings = createReadingsStore({ db, tableName: tables.readings! });
  for (const { owner, ...demo } of DEMO_ALERT_RULES) {
    const rule: StoredRule = {
      ...demo,
      recipients: [],
      enabled: true,
      createdBy: subs.get(owner) ?? owner,
      created: now - DEFAULT_PREVIEW_MS,
      updated: now - DEFAULT_PREVIEW_MS,
    };
    await rules.create(rule);
    const deviceId = rule.target.id;
    if (rule.condition.kind === 'threshold') {
      const levels = thresholdLevels(rule.condition);
      const week = await readings.query(deviceId, {
        from: now - DEFAULT_PREVIEW_MS,
        to: now,
        order: 'asc',
        limit: 5_000,
      });
      const values = week.flatMap((r) => {
        const value = r.values[levels.measurement];
        return typeof value === 'number' ? [{ timestamp: r.timestamp, value }] : [];
      });
      const periods = backtestThreshold(levels, values).filter((period) => period.clearedAt !== undefined);
      for (const [i, period] of periods.entries()) {
        await alerts.project({
          id: `demo-alert-${deviceId}-${i}`,
          ruleId: rule.id,
          ruleName: rule.name,
          deviceId,
          target: rule.target,
          condition: 'threshold',
          state: 'resolved',
          startedAt: period.firedAt - (rule.condition.forSeconds ?? 0) * 1000,
          firedAt: period.firedAt,
          resolvedAt: period.clearedAt!,
          measurement: levels.measurement,
          direction: levels.direction,
          limit: levels.limit,
          clearLevel: levels.clear,
          ...(period.value === undefined ? {} : { value: period.value }),
          reminders: 0,
          version: 1,
          updated: period.clearedAt!,
        });
      }
    }
    await states.touch(deviceId, now);
  }
};
