import type { AlertTarget, Recipient } from '../../../shared/contracts/alerts';
import type { AlertChanged } from '../../../shared/contracts/events';
import type { AlertData } from '../../../shared/contracts/webhook-events';
import { managersOf, relationAudience } from '../../../shared/notifications/audience';
import { unitOf } from '../../../shared/sensor-data/measurements';
import type { Log } from '../logger';
import type { AlertEffect, AlertNotice, AlertRecord, PresenceChange } from './alert-model';
import type { AlertTable } from './alert-table';
import type { DeviceFacts } from './device-reader';
import type { StateTable } from './state-table';

export interface EffectDeps {
  alerts: Pick<AlertTable, 'project' | 'remove' | 'close'>;
  states: Pick<StateTable, 'clearOutbox'>;
  devices: { facts: (deviceId: string) => Promise<DeviceFacts | undefined> };
  /** May this person see the rule's target now? (A recipient who lost access hears nothing more of it.) */
  mayView: (userId: string, target: AlertTarget) => Promise<boolean>;
  /** Puts alert events on the jobs queue (all or nothing). */
  send: (events: AlertChanged[]) => Promise<void>;
  /**
   * Hands a fired or resolved alert to the webhooks of its device, the device's campaigns and organization that take
   * alert.fired / alert.resolved (docs/integrations.md), under the alert event's id: publishing it again stores
   * nothing twice. A failure throws.
   */
  webhooks: {
    alertChanged: (change: 'fired' | 'resolved', data: AlertData, at: number, eventId: string) => Promise<unknown>;
    /**
     * Hands a device's presence change to the webhooks that take device.online / device.offline, under the effect's
     * id (decision 105): publishing it again stores nothing twice. A failure throws.
     */
    presenceChanged: (deviceId: string, change: PresenceChange, eventId: string) => Promise<unknown>;
  };
  log: Log;
}

/** With no recipient given: the device's owners and administrators, or the campaign's or organization's managers. */
export const defaultRecipients = (target: AlertTarget): Recipient[] =>
  target.kind === 'device'
    ? [
        { kind: 'role', role: 'device-owners' },
        { kind: 'role', role: 'device-administrators' },
      ]
    : [{ kind: 'role', role: 'managers' }];

/**
 * The notification's audience (docs/notifications.md selectors): each person who may still see the target, and each
 * role as the relation of the device that fired (owners, administrators) or of the target (managers).
 */
export const audienceOf = async (
  notice: Pick<AlertNotice, 'recipients' | 'target'>,
  deviceId: string,
  mayView: EffectDeps['mayView'],
): Promise<string[]> => {
  const recipients = notice.recipients.length ? notice.recipients : defaultRecipients(notice.target);
  const selectors = await Promise.all(
    recipients.map(async (recipient): Promise<string[]> => {
      if (recipient.kind === 'person') {
        return (await mayView(recipient.userId, notice.target)) ? [`user:userId=${recipient.userId}`] : [];
      }
      if (recipient.role === 'device-owners') return [relationAudience('device-owner', deviceId)];
      if (recipient.role === 'device-administrators') return [relationAudience('device-administrator', deviceId)];
      // A device's managers are its owners and administrators, which the two roles above name.
      return notice.target.kind === 'device' ? [] : managersOf(notice.target);
    }),
  );
  return [...new Set(selectors.flat())];
};

const eventOf = (
  record: AlertRecord,
  notice: AlertNotice,
  audience: string[],
  device: DeviceFacts | undefined,
): AlertChanged => {
  const unit = record.measurement ? unitOf(record.measurement, device?.measurementUnits) : undefined;
  const value = notice.change === 'resolved' ? (record.resolvedValue ?? record.value) : record.value;
  return {
    kind: 'alert.changed',
    eventId: notice.eventId,
    change: notice.change,
    alertId: record.id,
    ruleId: record.ruleId,
    ruleName: record.ruleName,
    deviceId: record.deviceId,
    ...(device?.name ? { deviceName: device.name } : {}),
    condition: record.condition,
    ...(record.measurement ? { measurement: record.measurement } : {}),
    ...(unit ? { unit } : {}),
    ...(record.direction ? { direction: record.direction } : {}),
    ...(record.limit === undefined ? {} : { limit: record.limit }),
    ...(record.clearLevel === undefined ? {} : { clearLevel: record.clearLevel }),
    ...(value === undefined ? {} : { value }),
    ...(record.afterSeconds === undefined ? {} : { afterSeconds: record.afterSeconds }),
    ...(record.daysBefore === undefined ? {} : { daysBefore: record.daysBefore }),
    ...(record.endsAt === undefined ? {} : { endsAt: record.endsAt }),
    at: notice.at,
    firedAt: record.firedAt ?? notice.at,
    audience,
    actorId: notice.createdBy,
  };
};

/** A fired or resolved alert as its webhooks' event carries it (AlertData, the OpenAPI document's `webhooks`). */
export const webhookDataOf = (record: AlertRecord, notice: Pick<AlertNotice, 'change' | 'at'>): AlertData => {
  const resolved = notice.change === 'resolved';
  const value = resolved ? (record.resolvedValue ?? record.value) : record.value;
  return {
    alertId: record.id,
    ruleId: record.ruleId,
    ruleName: record.ruleName,
    deviceId: record.deviceId,
    condition: record.condition,
    ...(record.measurement ? { measurement: record.measurement } : {}),
    ...(value === undefined ? {} : { value }),
    ...(record.limit === undefined ? {} : { limit: record.limit }),
    firedAt: record.firedAt ?? notice.at,
    ...(resolved ? { resolvedAt: record.resolvedAt ?? notice.at } : {}),
  };
};

/**
 * Does what a state change left in its outbox, in order: each alert's record projected (or taken back, or closed),
 * then its notifications put on the jobs queue and its fired or resolved events handed to the webhooks, the device's
 * presence changes handed to theirs, then the effects taken out of the outbox. A failure leaves them there for the sweep, which does them again: a record is
 * written over an older version only, and a notification's and a webhook event's id is the alert event's, so doing
 * one twice changes nothing.
 */
export const createEffects = (deps: EffectDeps) => ({
  deliver: async (deviceId: string, given: readonly AlertEffect[]): Promise<void> => {
    if (given.length === 0) return;
    const effects = [...given].sort((a, b) => a.order - b.order);
    const records = new Map<string, AlertRecord>();
    for (const effect of effects) {
      if (effect.record) {
        records.set(effect.alertId, effect.record);
        await deps.alerts.project(effect.record);
      }
      if (effect.remove) await deps.alerts.remove(effect.alertId);
      if (effect.close !== undefined) await deps.alerts.close(effect.alertId, effect.close);
    }
    const noticed = effects.filter((effect) => effect.notice);
    if (noticed.length) {
      const device = await deps.devices.facts(deviceId);
      const events: AlertChanged[] = [];
      const hooked: { change: 'fired' | 'resolved'; data: AlertData; at: number; eventId: string }[] = [];
      for (const effect of noticed) {
        // An effect without its record shares the change with a later effect of the same alert, which has it.
        const record = effect.record ?? records.get(effect.alertId) ?? lastRecordOf(effects, effect.alertId);
        if (!record) continue;
        const notice = effect.notice!;
        // Webhooks hear of every firing and resolution, whoever the notification reaches (reminders are people's).
        if (notice.change !== 'reminder') {
          hooked.push({
            change: notice.change,
            data: webhookDataOf(record, notice),
            at: notice.at,
            eventId: notice.eventId,
          });
        }
        const audience = await audienceOf(effect.notice!, deviceId, deps.mayView);
        if (audience.length === 0) {
          deps.log('warn', 'Alert notification has nobody to tell', { alertId: effect.alertId, deviceId });
          continue;
        }
        events.push(eventOf(record, effect.notice!, audience, device));
      }
      await deps.send(events);
      for (const { change, data, at, eventId } of hooked) await deps.webhooks.alertChanged(change, data, at, eventId);
    }
    for (const effect of effects) {
      if (effect.presence) await deps.webhooks.presenceChanged(deviceId, effect.presence, effect.id);
    }
    await deps.states.clearOutbox(
      deviceId,
      effects.map((effect) => effect.id),
    );
  },
});

const lastRecordOf = (effects: readonly AlertEffect[], alertId: string) =>
  effects.filter((effect) => effect.alertId === alertId && effect.record).at(-1)?.record;

export type Effects = ReturnType<typeof createEffects>;
