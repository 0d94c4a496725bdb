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

/** Where a rule's condition stands for one device. `clearing`: firing, and the value is back but not long enough. */
export type Phase = 'ok' | 'pending' | 'firing' | 'clearing';

/** The alert a track holds open (pending or firing): what its record and its notifications say. */
export interface OpenAlert {
  id: string;
  startedAt: number;
  firedAt?: number;
  /** Threshold: the value that fired it (or, pending, the first value past the limit). */
  value?: number;
  /** Silence: the device's last reading when it fired. */
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

/** One rule's state on one device. */
export interface Track {
  kind: ConditionKind;
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
