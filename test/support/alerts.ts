import path from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import type { Track } from '../../functions/_shared/alerts/alert-model';
import { startScheduler } from '../../infra/local/scheduler';
import type { Alert, AlertRuleInput } from '../../shared/contracts/alerts';
import { bannersAbout } from './notifications';
import { eventually } from './sensor-data';
import { apiAs, documentClient, stack, uniqueId } from './stack';
import { useStackEnvironment } from './stack-env';

/** The alerts area's client as a person. */
export const alertsAs = (token: string) => apiAs('alerts', token);

/**
 * Waits until a rule (or a presence webhook) saved just now applies to readings: each instance asks whether they
 * changed at most once a second (ALERT_RULES_CHECK_MS).
 */
export const inForce = () => new Promise((resolve) => setTimeout(resolve, 1_100));

/** A threshold rule's body on one device: PM2.5 above `above` (a unique name, so its banners are told apart). */
export const thresholdRule = (
  deviceId: string,
  above: number,
  extra: Partial<Extract<AlertRuleInput['condition'], { kind: 'threshold' }>> = {},
  rule: Partial<AlertRuleInput> = {},
): AlertRuleInput => ({
  name: uniqueId('PM high'),
  target: { kind: 'device', id: deviceId },
  condition: { kind: 'threshold', measurement: 'pm2_5', above, forSeconds: 0, ...extra },
  enabled: true,
  ...rule,
});

/**
 * The alerts sweep run in this process as EventBridge would run it, at the time a test chooses (the stack's own
 * runs every 10 s beside it: a test asserts on what changed, never on which run changed it). Stop it after the file.
 */
export const sweeper = () => {
  let scheduler: Awaited<ReturnType<typeof startScheduler>> | undefined;
  let restore: (() => void) | undefined;
  return {
    start: async () => {
      restore = useStackEnvironment();
      // As the stack runs its own: the job's start and end lines at info would bury the test's output.
      process.env.LOG_LEVEL ??= 'warn';
      // The job logs a line per run; the SQS client warns about the emulator's queue URL.
      jest.spyOn(console, 'log').mockImplementation(() => undefined);
      jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      scheduler = await startScheduler({
        rootDir: path.resolve(import.meta.dirname, '../..'),
        jobs: [{ name: 'AlertsSweepJob', entry: 'functions/alerts/sweep-job.ts', everyMinutes: 60 }],
      });
    },
    /** One run at `time` (default now). */
    run: (time = Date.now()) => scheduler!.run('AlertsSweepJob', new Date(time)),
    stop: async () => {
      await scheduler?.stop();
      restore?.();
      jest.restoreAllMocks();
    },
  };
};

/** A device's alerts as its owner reads them, once `match` holds (the evaluation and worker are asynchronous). */
export const alertsOf = (token: string, deviceId: string, match: (alerts: Alert[]) => boolean, timeoutMs = 20_000) =>
  eventually(async () => {
    const { items } = await alertsAs(token).listEvents({ query: { deviceId, limit: 50 } });
    return match(items) ? items : undefined;
  }, timeoutMs);

/** The titles of a person's alert banners of one rule: "{name}: firing", "{name}: resolved", … */
export const alertBanners = async (userId: string, ruleName: string, count: number) =>
  (await bannersAbout(userId, ruleName, count)).map((banner) => banner.title.slice(ruleName.length + 2)).sort();

/** The device's presence track in the alerts area's state, as the store holds it (undefined: none). */
export const presenceTrack = async (deviceId: string): Promise<Track | undefined> => {
  const item = (
    await documentClient().send(
      new GetCommand({ TableName: stack().tables.alertStates!, Key: { deviceId }, ConsistentRead: true }),
    )
  ).Item;
  return (item?.tracks as Record<string, Track> | undefined)?.presence;
};
