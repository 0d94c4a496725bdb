import type { Caller } from '../../../shared/auth/verify-token';
import {
  CACHE_LOAD_MAX_DAYS,
  type CacheEviction,
  type CacheFile,
  type CachePath,
  type CacheRebuild,
} from '../../../shared/contracts/system';
import { MESSAGES } from '../../../shared/messages';
import { chartObjectKey, DAY_MS, HOUR_MS, periodOf, periodRange } from '../../../shared/sensor-data/chart-files';
import { EARLIEST_READING_MS } from '../../../shared/sensor-data/measurements';
import { BadRequest, NotFound } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import type { RollupMessage } from '../../_shared/sensor-data/queue-messages';
import { SYSTEM_MESSAGES } from './system-messages';

/** The chart-data bucket, as far as the cache tools need it: a device's files, and removing some. */
export interface ChartFileStore {
  list(deviceId: string): Promise<CacheFile[]>;
  remove(keys: readonly string[]): Promise<void>;
}

/** The sensor-data queue: the worker recomputes the listed hours, then the files they fall in. */
export interface RollupQueue {
  send(messages: readonly RollupMessage[]): Promise<void>;
}

export interface DeviceRecords {
  exists(deviceId: string): Promise<boolean>;
}

export interface CacheFilesDeps {
  log: Log;
  files: ChartFileStore;
  queue: RollupQueue;
  devices: DeviceRecords;
  /** Milliseconds since the epoch. */
  now: () => number;
}

const hourStart = (time: number) => Math.floor(time / HOUR_MS) * HOUR_MS;

const byMonth = (hours: readonly number[]): number[][] => {
  const months = new Map<string, number[]>();
  for (const hour of hours) {
    const month = periodOf('hour', hour);
    months.set(month, [...(months.get(month) ?? []), hour]);
  }
  return [...months.values()];
};

/**
 * What rebuilding a device's hours takes: one roll-up message per UTC month, oldest first (the worker reads a day of
 * readings at a time), and the files the worker then writes: the months' hour files and the years' day files.
 */
const planOf = (deviceId: string, hours: readonly number[], requestedAt: number) => {
  const sorted = [...new Set(hours)].sort((a, b) => a - b);
  const messages: RollupMessage[] = byMonth(sorted).map((monthHours) => ({
    kind: 'rollup',
    deviceId,
    hours: monthHours,
  }));
  const files = (['hour', 'day'] as const).flatMap((resolution) =>
    [...new Set(sorted.map((hour) => periodOf(resolution, hour)))].map((period) => ({
      key: chartObjectKey(deviceId, resolution, period),
      resolution,
      period,
    })),
  );
  const rebuild: CacheRebuild = {
    deviceId,
    from: sorted[0]!,
    to: sorted[sorted.length - 1]! + HOUR_MS - 1,
    hours: sorted.length,
    messages: messages.length,
    files,
    requestedAt,
  };
  return { rebuild, messages };
};

/** Every hour start of `[from, to]`, no earlier than the first possible reading and no later than now. */
const hoursBetween = (from: number, to: number, now: number): number[] => {
  const hours: number[] = [];
  for (let hour = hourStart(Math.max(from, EARLIEST_READING_MS)); hour <= Math.min(to, now); hour += HOUR_MS) {
    hours.push(hour);
  }
  return hours;
};

const matches = (file: CacheFile, path: CachePath) =>
  (path.resolution === undefined || file.resolution === path.resolution) &&
  (path.period === undefined || file.period === path.period);

/**
 * The cache tools (docs/system.md, "Cache files"): a device's chart-data files, listed, rebuilt from its raw readings
 * (through the sensor-data worker, so a rebuild is ordered with the device's own roll-ups) and evicted. Each use case
 * takes the caller, so every staff action passes one place where it is recorded.
 */
export const createCacheFiles = ({ files, queue, devices, now, log }: CacheFilesDeps) => {
  const queueRebuild = async (caller: Caller, deviceId: string, hours: readonly number[]): Promise<CacheRebuild> => {
    const { rebuild, messages } = planOf(deviceId, hours, now());
    await queue.send(messages);
    log('info', 'Cache files rebuild queued', {
      actor: caller.sub,
      deviceId,
      from: rebuild.from,
      to: rebuild.to,
      hours: rebuild.hours,
      messages: rebuild.messages,
    });
    return rebuild;
  };

  return {
    list: async (deviceId: string): Promise<{ deviceId: string; files: CacheFile[] }> => ({
      deviceId,
      files: (await files.list(deviceId)).sort((a, b) => a.key.localeCompare(b.key)),
    }),

    /** Spec §7 load-cache-files: rebuild a device's files over a range, e.g. after its readings were repaired. */
    load: async (caller: Caller, options: { deviceId: string; from: number; to?: number }): Promise<CacheRebuild> => {
      const at = now();
      const to = Math.min(options.to ?? at, at);
      if (options.from > to) throw new BadRequest(SYSTEM_MESSAGES.cacheRangeOrder);
      if (to - options.from > CACHE_LOAD_MAX_DAYS * DAY_MS) {
        throw new BadRequest(SYSTEM_MESSAGES.cacheRangeTooLong(CACHE_LOAD_MAX_DAYS));
      }
      if (!(await devices.exists(options.deviceId))) throw new NotFound(MESSAGES.deviceNotFound(options.deviceId));
      const hours = hoursBetween(options.from, to, at);
      if (hours.length === 0) throw new BadRequest(SYSTEM_MESSAGES.cacheRangeOrder);
      return queueRebuild(caller, options.deviceId, hours);
    },

    /**
     * Spec §7 delete-items-from-cache: removes the files the paths name. With `rebuild`, each device's evicted periods
     * are queued for a rebuild at once (the files come back from the readings; empty where there are none).
     */
    evict: async (
      caller: Caller,
      paths: readonly CachePath[],
      { rebuild }: { rebuild: boolean },
    ): Promise<CacheEviction> => {
      const deviceIds = [...new Set(paths.map((path) => path.deviceId))];
      const listed = new Map(await Promise.all(deviceIds.map(async (id) => [id, await files.list(id)] as const)));
      const chosen = new Map<string, CacheFile & { deviceId: string }>();
      const notFound: CachePath[] = [];
      for (const path of paths) {
        const hits = listed.get(path.deviceId)!.filter((file) => matches(file, path));
        if (hits.length === 0) notFound.push(path);
        for (const file of hits) chosen.set(file.key, { ...file, deviceId: path.deviceId });
      }
      const deleted = [...chosen.values()].sort((a, b) => a.key.localeCompare(b.key));
      await files.remove(deleted.map((file) => file.key));
      const evictedAt = now();
      log('info', 'Cache files evicted', { actor: caller.sub, keys: deleted.map((file) => file.key), rebuild });

      const rebuilds: CacheRebuild[] = [];
      if (rebuild) {
        for (const deviceId of deviceIds) {
          const hours = deleted
            .filter((file) => file.deviceId === deviceId && file.resolution && file.period)
            .flatMap((file) => {
              const { from, to } = periodRange(file.period!);
              return hoursBetween(from, to, evictedAt);
            });
          if (hours.length > 0) rebuilds.push(await queueRebuild(caller, deviceId, hours));
        }
      }
      return {
        deleted: deleted.map(({ key, resolution, period }) => ({ key, resolution, period })),
        notFound,
        rebuilds,
        evictedAt,
      };
    },
  };
};

export type CacheFiles = ReturnType<typeof createCacheFiles>;
