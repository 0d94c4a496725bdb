import { HOUR_MS, hourStart, periodOf, periodRange } from '../../../shared/sensor-data/chart-files';
import type { Log } from '../../_shared/logger';
import type { QueueSender } from '../../_shared/queue/queue-sender';
import type { StoredProfile } from '../../_shared/sensor-data/quality-profile';
import type { SensorDataMessage } from '../../_shared/sensor-data/queue-messages';
import type { QualityStore, ReprocessJob } from './ports';
import type { RollupDeps, RollupStore } from './rollups-recompute';
import { recomputeRollups } from './rollups-recompute';

/**
 * A run left `running` this long without a step has lost its message (a send that failed after its step was
 * recorded, or a message dead-lettered): the reprocessing route wakes it.
 */
export const STALLED_MS = 15 * 60_000;
/** Tries of taking finished changes off the profile: each fails only when another change came first. */
const PROFILE_TRIES = 8;

export interface ReprocessDeps {
  store: Pick<QualityStore, 'profile' | 'saveProfile' | 'job' | 'saveJob'>;
  rollup: RollupDeps & { rollups: Pick<RollupStore, 'range'> };
  /**
   * The sensor-data queue: the device's next reprocessing message (its FIFO group keeps it behind the device's
   * roll-ups), the run's next step at a cursor, or without one a wake-up that starts a new run.
   */
  work: Pick<QueueSender<SensorDataMessage>, 'send'>;
  log: Log;
  now: () => number;
}

/** Ranges, hour-aligned, sorted and joined where they touch. */
export const mergeRanges = (ranges: readonly { from: number; to: number }[]) => {
  const sorted = ranges
    .map((r) => ({ from: hourStart(r.from), to: hourStart(r.to) + HOUR_MS - 1 }))
    .sort((a, b) => a.from - b.from);
  const merged: { from: number; to: number }[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.from <= last.to + 1) last.to = Math.max(last.to, range.to);
    else merged.push({ ...range });
  }
  return merged;
};

/** The next chunk of a run from `cursor`: to the end of its calendar month or of its range, whichever comes first. */
const chunkFrom = (job: ReprocessJob) => {
  const range = job.ranges.find((r) => r.to >= job.cursor);
  if (!range) return undefined;
  const from = Math.max(job.cursor, range.from);
  const to = Math.min(range.to, periodRange(periodOf('hour', from)).to);
  return { from, to };
};

/**
 * A device's reprocessing (docs/data-quality.md "Reprocessing"): after calibrations or exclusions changed, its roll-ups
 * and chart objects over the changed ranges are computed again from the readings, a calendar month per message, so each
 * month object is written once and each step fits the worker's timeout. The run (data-quality table, `job`) holds the
 * merged ranges of the profile's pending changes up to a version and a cursor: a step recomputes the month at the
 * cursor and moves it on only if no other delivery did (`saveJob`'s condition), then sends the next message. A killed
 * worker's message comes back and does its month again (a recompute writes the same result): resumable and
 * idempotent. A wake-up (a change was made) starts a run, or carries on the one under way at its cursor, so a chain
 * whose message was lost is taken up again by the next change (or the reprocessing route); the old chain's message, if
 * there still is one, then finds the cursor moved and stops. When the cursor has passed every range, the run's changes
 * leave the profile's pending list and, if more came meanwhile, a new run starts.
 */
export const createReprocessJob = ({ store, rollup, work, log, now }: ReprocessDeps) => {
  const next = (deviceId: string, cursor?: number) =>
    work.send([{ kind: 'reprocess', deviceId, ...(cursor === undefined ? {} : { cursor }) }]);

  /** A new run over every pending change of the profile, or undefined when nothing is pending. */
  const newRun = (deviceId: string, profile: StoredProfile | undefined, at: number): ReprocessJob | undefined => {
    const pending = profile?.pending ?? [];
    if (pending.length === 0) return undefined;
    const ranges = mergeRanges(pending);
    return {
      deviceId,
      status: 'running',
      through: Math.max(...pending.map((p) => p.v)),
      ranges,
      cursor: ranges[0]!.from,
      done: 0,
      total: ranges.reduce((sum, r) => sum + r.to - r.from + 1, 0),
      started: at,
      updated: at,
    };
  };

  /** Takes the run's changes (versions up to `through`) off the profile's pending list; the version stays. */
  const settle = async (deviceId: string, through: number) => {
    for (let attempt = 0; attempt < PROFILE_TRIES; attempt++) {
      const profile = await store.profile(deviceId);
      if (!profile?.pending?.some((p) => p.v <= through)) return profile;
      const pending = profile.pending.filter((p) => p.v > through);
      const { pending: _all, ...rest } = profile;
      if (await store.saveProfile(pending.length ? { ...rest, pending } : rest, profile.version)) {
        return { ...rest, pending };
      }
    }
    throw new Error(`The profile of ${deviceId} kept changing; its reprocessing will settle on the next message`);
  };

  return {
    /**
     * One step. `cursor` is where the message's sender left the run (absent: a change woke it): a message whose cursor
     * the run has moved past is a repeat and does nothing.
     */
    step: async (deviceId: string, cursor?: number): Promise<'idle' | 'step' | 'done' | 'skipped'> => {
      const at = now();
      let job = await store.job(deviceId);
      const running = job?.status === 'running';
      if (cursor !== undefined && (!running || job!.cursor !== cursor)) return 'skipped';
      if (!running) {
        const run = newRun(deviceId, await store.profile(deviceId), at);
        if (!run) return 'idle';
        if (!(await store.saveJob(run))) return 'skipped';
        job = run;
      }
      const current = job!;
      const chunk = chunkFrom(current);
      if (chunk) {
        // A month without roll-ups had no readings rolled up: nothing there to compute again.
        const hoursThere = await rollup.rollups.range(deviceId, 'hour', hourStart(chunk.from), chunk.to);
        if (hoursThere.length > 0) {
          const hours: number[] = [];
          for (let hour = hourStart(chunk.from); hour <= chunk.to; hour += HOUR_MS) hours.push(hour);
          await recomputeRollups({ deviceId, hours }, rollup);
        }
      }
      const moved: ReprocessJob = {
        ...current,
        cursor: chunk ? chunk.to + 1 : Number.MAX_SAFE_INTEGER,
        done: Math.min(current.total, current.done + (chunk ? chunk.to - chunk.from + 1 : 0)),
        updated: now(),
      };
      const finished = !chunkFrom(moved);
      if (finished) moved.status = 'done';
      if (!(await store.saveJob(moved, { started: current.started, cursor: current.cursor }))) return 'skipped';
      if (!finished) {
        await next(deviceId, moved.cursor);
        return 'step';
      }
      const left = await settle(deviceId, current.through);
      log('info', 'Reprocessing done', { deviceId, through: current.through, ms: moved.updated - current.started });
      if (left?.pending?.length) await next(deviceId);
      return 'done';
    },
  };
};

export type ReprocessJobRunner = ReturnType<typeof createReprocessJob>;
