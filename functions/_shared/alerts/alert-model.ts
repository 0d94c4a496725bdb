import type { Alert, AlertCondition, AlertTarget, ConditionKind, Recipient } from '../../../shared/contracts/alerts';

/**
 * What the alerts area stores and what evaluation passes between its steps (docs/alerts.md). The ingest hook
 * (data-ingress) and the alerts area's API and sweep all work on these, so they live beside the shared evaluator.
 */

/** A rule as stored: the rule's JSON, who made it and when. */
export interface StoredRule {
  id: string;
  name: string;
  target: AlertTarget;
  condition: AlertCondition;
  recipients: Recipient[];
  remindEverySeconds?: number;
  enabled: boolean;
  createdBy: string;
  created: number;
  updated: number;
}

/**
 * The device's presence as the webhooks that take device.online or device.offline see it (docs/integrations.md,
 * "Presence"; decision 105): not a rule anyone made, but a track of the device's state like a silence rule's, with
 * `afterMs` = ONLINE_WINDOW_MS (the device page's window). The rule caches add it to a device's rules while such a
 * webhook watches the device, its campaign or its organization; it has no alert record and tells no person.
 */
export interface PresenceWatch {
  id: typeof PRESENCE_ID;
  condition: { kind: 'presence' };
}

/** The presence track's key among the device's tracks (no rule id is this short). */
export const PRESENCE_ID = 'presence';

export const PRESENCE_WATCH: PresenceWatch = { id: PRESENCE_ID, condition: { kind: 'presence' } };

/** What watches a device: its alert rules, and its presence while a webhook takes device.online or device.offline. */
export type DeviceRule = StoredRule | PresenceWatch;

export const isPresence = (rule: DeviceRule): rule is PresenceWatch => rule.condition.kind === 'presence';

/** Where a rule's condition stands for one device. `clearing`: firing, and the value is back but not long enough. */
export type Phase = 'ok' | 'pending' | 'firing' | 'clearing';

/** The alert a track holds open (pending or firing): what its record and its notifications say. */
export interface OpenAlert {
  id: string;
  startedAt: number;
  firedAt?: number;
  /** Threshold: the value that fired it (or, pending, the first value past the limit). */
  value?: number;
  /** Silence: the device's last reading when it fired; presence: its last reading when it went offline (absent: never seen). */
  lastSeen?: number;
  /** Subscription: when the tier lapses or the trial ends, and which of the two. */
  endsAt?: number;
  reason?: 'trial' | 'lapse';
  acknowledgedBy?: string;
  acknowledgedAt?: number;
  /** When the next reminder is due (wall clock, ms); absent: none (no reminders, or acknowledged). */
  remindAt?: number;
  reminders: number;
}

/** One rule's state on one device (or the device's presence: `ok` online, `firing` offline). */
export interface Track {
  kind: ConditionKind | 'presence';
  phase: Phase;
  /** Pending: the first reading past the limit; clearing: the first reading back past the clear level. */
  since?: number;
  /** Threshold: the newest reading the last change of this track counted (older ones change nothing). */
  lastAt?: number;
  /** Silence: how long this rule waits for this device (ms), as last worked out. */
  afterMs?: number;
  /** Subscription: when the sweep looks at the device's plan next. */
  checkAt?: number;
  alert?: OpenAlert;
}

/** An alert's notification, as the outbox holds it until the jobs queue has taken it. */
export interface AlertNotice {
  change: 'fired' | 'resolved' | 'reminder';
  eventId: string;
  /** When it fired, resolved or reminded (data time for a threshold, wall time for the sweep's changes). */
  at: number;
  recipients: Recipient[];
  target: AlertTarget;
  createdBy: string;
}

/**
 * One thing a state change still has to do after its write: project the alert's record (`record`), take back a
 * pending alert that never fired (`remove`), close one whose rule went (`close`), and send its notification
 * (`notice`). Kept in the device's state item
 * (the outbox) by the same write as the change, done right after it, and again by the sweep if that was cut short:
 * every step is idempotent (a record is written only over an older version; a notification's id is its event's).
 */
export interface AlertEffect {
  id: string;
  alertId: string;
  /** The order effects are done in (the outbox is a map, which keeps none): the change's version, then its place. */
  order: number;
  record?: AlertRecord;
  /** A pending alert that never fired: its record goes. */
  remove?: boolean;
  /** The alert of a rule deleted or switched off: its record is marked resolved at this time, nobody told. */
  close?: number;
  notice?: AlertNotice;
  /** The device went offline or came online: device.online / device.offline for its webhooks, under this effect's id. */
  presence?: PresenceChange;
}

/** A presence change as its webhook event tells it (PresenceData: the device's last reading, the window). */
export interface PresenceChange {
  online: boolean;
  lastSeen: number;
  at: number;
}

/** A device's alert state: one item per device, every rule's track on it, written only on a conditional version. */
export interface DeviceAlertState {
  deviceId: string;
  /** 0 when the device has no item yet. */
  version: number;
  tracks: Record<string, Track>;
  /** Silence: the device's last reading as the last look saw it. */
  seen?: number;
  /** The device's usual interval between batches (ms), learned from its recent batches, and when. */
  interval?: number;
  learnedAt?: number;
  outbox: Record<string, AlertEffect>;
  /** When the sweep must look at the device next (the index of next-expected times); absent: not until it reports. */
  dueAt?: number;
}

/** An alert's record (GET /alerts/events), with the version of the state it was projected from. */
export type AlertRecord = Alert & { version: number; target: AlertTarget };

export const emptyState = (deviceId: string): DeviceAlertState => ({ deviceId, version: 0, tracks: {}, outbox: {} });

/** Is the track's alert open and firing (a clearing alert still fires)? */
export const isFiring = (track: Track | undefined): boolean => track?.phase === 'firing' || track?.phase === 'clearing';
