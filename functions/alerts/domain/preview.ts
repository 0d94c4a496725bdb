import {
  DEFAULT_PREVIEW_MS,
  MAX_PREVIEW_READINGS,
  silenceAfterMs,
  thresholdLevels,
} from '../../../shared/alerts/alert-rules';
import type { Caller } from '../../../shared/auth/verify-token';
import type { AlertCondition, AlertPreview, AlertTarget } from '../../../shared/contracts/alerts';
import { MESSAGES } from '../../../shared/messages';
import { MEASUREMENTS } from '../../../shared/sensor-data/measurements';
import { backtestSilence, backtestThreshold } from '../../_shared/alerts/threshold-machine';
import { BadRequest, Forbidden } from '../../_shared/errors';
import { type DataAccess, readableRanges, windowStart } from '../../_shared/sensor-data/data-access';
import { medianGap } from './batch-interval';
import type { PreviewReadings, TargetReader } from './ports';

export interface PreviewDeps {
  /** Who may read the device's data and how far back (the chart's own rule: tier window, campaign windows). */
  dataAccess: { resolve: (caller: Caller, deviceId: string) => Promise<DataAccess> };
  /** Whether the caller may set rules on the target (a preview is for whoever tunes the rule). */
  mayManage: (caller: Caller, target: AlertTarget) => Promise<boolean>;
  targets: Pick<TargetReader, 'holds'>;
  readings: PreviewReadings;
  now: () => number;
}

export interface PreviewRequest {
  target: AlertTarget;
  condition: AlertCondition;
  from?: number;
  to?: number;
  deviceId?: string;
}

const invalid = (path: string, message: string) =>
  new BadRequest(`Invalid body: ${path}: ${message}`, [{ path: `body.${path}`, message }]);

/**
 * The rule form's backtest (POST /alerts/rules/preview): the periods in which the rule would have fired and cleared
 * over the device's readings in `[from, to]` (default the last 7 days), run through the same machine as the live
 * evaluation. The range is the one the person's chart may show (the tier's window, a campaign's windows): a preview
 * tells nothing the chart would not.
 */
export const createPreview = ({ dataAccess, mayManage, targets, readings, now }: PreviewDeps) => ({
  preview: async (caller: Caller, request: PreviewRequest): Promise<AlertPreview> => {
    const { target, condition } = request;
    if (!(await mayManage(caller, target))) throw new Forbidden(MESSAGES.alertManageRequired(target.kind));
    if (condition.kind === 'subscription') throw invalid('condition.kind', MESSAGES.alertPreviewKind);
    let deviceId = target.id;
    if (target.kind !== 'device') {
      if (request.deviceId === undefined) throw invalid('deviceId', MESSAGES.alertPreviewDevice);
      if (!(await targets.holds(target, request.deviceId))) {
        throw invalid('deviceId', MESSAGES.alertPreviewDeviceOutside(target.kind));
      }
      deviceId = request.deviceId;
    }
    const access = await dataAccess.resolve(caller, deviceId);
    if (condition.kind === 'threshold') {
      const known =
        condition.measurement in MEASUREMENTS || access.device.measurementNames?.includes(condition.measurement);
      if (!known) throw invalid('condition.measurement', MESSAGES.alertUnknownMeasurement(condition.measurement));
    }
    const at = now();
    const to = Math.min(request.to ?? at, at);
    // A range reaching back before the window is read from the window's start: the answer says where it began.
    const from = Math.max(request.from ?? to - DEFAULT_PREVIEW_MS, windowStart(access, 'view', at));
    const { parts } = readableRanges(access, 'view', { from, to }, at);
    const read: { timestamp: number; values: Record<string, number> }[] = [];
    for (const part of parts) {
      if (read.length >= MAX_PREVIEW_READINGS) break;
      read.push(...(await readings.readings(deviceId, part, MAX_PREVIEW_READINGS - read.length)));
    }
    const truncated = read.length >= MAX_PREVIEW_READINGS;
    const base = { deviceId, from, to, readings: read.length, truncated };
    if (condition.kind === 'threshold') {
      const levels = thresholdLevels(condition);
      const values = read.flatMap((r) => {
        const value = r.values[levels.measurement];
        return typeof value === 'number' ? [{ timestamp: r.timestamp, value }] : [];
      });
      return { ...base, periods: backtestThreshold(levels, values), limit: levels.limit, clearLevel: levels.clear };
    }
    const times = read.map((r) => r.timestamp);
    const afterMs = silenceAfterMs(condition.afterSeconds, medianGap(times));
    return { ...base, periods: backtestSilence(afterMs, times, to), afterSeconds: Math.round(afterMs / 1000) };
  },
});

export type Preview = ReturnType<typeof createPreview>;
