import type { StoredReading } from '../../functions/_shared/sensor-data/readings-store';
import { HOUR_MS } from '../../shared/sensor-data/chart-files';
import { createDemoSignal, type DemoProfile, type Random } from './demo-shapes';

/**
 * The demo devices while `npm start` runs (docs/decisions/047-live-demo-devices.md): each measures every minute and
 * sends what it has through its own link (HTTPS or MQTT, with its own credential) as a real device does. On start it
 * first resends what it "measured" since its newest stored reading, at most a day of it, in batches, as a device that
 * was offline resends its buffer; what a link does not take stays buffered for the next minute. Time, randomness,
 * the links and the newest stored reading are passed in, so a test runs it on a fixed clock with a seed.
 */

export const DEMO_INTERVAL_MS = 60_000;
/** How far back the start fills a device's gap: a day of readings is what a device buffers, and what "24 h" charts. */
export const DEMO_BACKFILL_MS = 24 * HOUR_MS;
/** Readings per batch: an hour of them, one item of the readings table (decision 044). */
export const DEMO_BATCH_READINGS = 60;
/** Each minute's reading is sent a second after the minute it was measured at. */
const SEND_DELAY_MS = 1_000;

/**
 * What a link made of a batch: `sent` (taken), `retry` (not now: a 5xx, a timeout, no connection; sent again with the
 * next minute's), `dropped` (refused as it is: resending it unchanged cannot help) or `refused` (the credential or
 * the device is refused: the device stops until the next start).
 */
export type LinkOutcome = { outcome: 'sent' | 'retry' | 'dropped' | 'refused'; detail?: string };

export interface DeviceLink {
  readonly kind: 'https' | 'mqtt';
  send: (readings: readonly StoredReading[]) => Promise<LinkOutcome>;
  close: () => Promise<void>;
}

/** A window in which a device says nothing: every `everyMs`, from `offsetMs` after the epoch, for `lengthMs`. */
export interface SilenceSchedule {
  everyMs: number;
  lengthMs: number;
  offsetMs: number;
}

/** The silent window that holds `time`, if one does. */
export const silentWindowAt = ({ everyMs, lengthMs, offsetMs }: SilenceSchedule, time: number) => {
  const start = Math.floor((time - offsetMs) / everyMs) * everyMs + offsetMs;
  return time < start + lengthMs ? { start, end: start + lengthMs } : undefined;
};

/**
 * Whether a device is silent at `time`. A window the simulator starts in ends at the start: a device just switched
 * on reports, so a fresh `npm start` shows every device online; the part of that window before the start stays a gap.
 */
export const isSilent = (schedule: SilenceSchedule | undefined, time: number, startedAt: number): boolean => {
  const window = schedule && silentWindowAt(schedule, time);
  if (!window) return false;
  return !(window.start <= startedAt && startedAt < window.end && time >= startedAt);
};

export interface SimulatedDevice {
  deviceId: string;
  profile: DemoProfile;
  /** The time zone of the device's day (its daily shapes). */
  utcOffsetMinutes: number;
  link: DeviceLink;
  silence?: SilenceSchedule;
}

export interface DemoClock {
  now: () => number;
  /** Runs `run` once after `ms`; answers what cancels it. */
  after: (ms: number, run: () => void) => () => void;
}

/** The real clock, its timers not keeping the process alive. */
export const systemClock: DemoClock = {
  now: Date.now,
  after: (ms, run) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface DemoSimulatorOptions {
  devices: readonly SimulatedDevice[];
  clock: DemoClock;
  random: Random;
  /** The newest stored reading's time at or after `since`, if there is one: where the start's backfill begins. */
  newestReading: (deviceId: string, since: number) => Promise<number | undefined>;
  log: (line: string) => void;
  intervalMs?: number;
  backfillMs?: number;
  batchReadings?: number;
}

export interface DeviceReport {
  deviceId: string;
  link: DeviceLink['kind'];
  /** Readings the link has taken since the start. */
  sent: number;
  /** Measured and not yet taken. */
  waiting: number;
  /** Stopped until the next start: the link was refused. */
  stopped: boolean;
}

export const createDemoSimulator = ({
  devices,
  clock,
  random,
  newestReading,
  log,
  intervalMs = DEMO_INTERVAL_MS,
  backfillMs = DEMO_BACKFILL_MS,
  batchReadings = DEMO_BATCH_READINGS,
}: DemoSimulatorOptions) => {
  const startedAt = clock.now();
  const maxWaiting = Math.ceil(backfillMs / intervalMs);
  const states = devices.map((device) => ({
    device,
    signal: createDemoSignal(device.profile, device.utcOffsetMinutes, random),
    /** The last minute measured (or the newest stored reading, before the first tick). */
    last: undefined as number | undefined,
    waiting: [] as StoredReading[],
    sent: 0,
    stopped: false,
    retrying: false,
  }));
  type State = (typeof states)[number];
  const name = ({ device }: State) => `${device.deviceId} (${device.link.kind.toUpperCase()})`;

  /** Every minute due since the last one measured; the first time, since the newest stored reading. */
  const measure = async (state: State) => {
    const latest = Math.floor(clock.now() / intervalMs) * intervalMs;
    const floor = latest - backfillMs;
    if (state.last === undefined) state.last = (await newestReading(state.device.deviceId, floor)) ?? floor;
    const from = Math.max(state.last, floor);
    for (let time = (Math.floor(from / intervalMs) + 1) * intervalMs; time <= latest; time += intervalMs) {
      if (!isSilent(state.device.silence, time, startedAt)) state.waiting.push(state.signal(time));
    }
    state.last = Math.max(state.last, latest);
    // A device's buffer is finite: past a day, the oldest readings go.
    if (state.waiting.length > maxWaiting) state.waiting.splice(0, state.waiting.length - maxWaiting);
  };

  /** Sends what is waiting, oldest first, a batch at a time, until it is all taken or the link says not now. */
  const send = async (state: State) => {
    while (state.waiting.length > 0 && !state.stopped) {
      const batch = state.waiting.slice(0, batchReadings);
      const { outcome, detail = '' } = await state.device.link.send(batch);
      if (outcome === 'retry') {
        if (!state.retrying) log(`demo device ${name(state)}: not sent, kept for the next minute (${detail})`);
        state.retrying = true;
        return;
      }
      if (state.retrying) log(`demo device ${name(state)}: sending again`);
      state.retrying = false;
      state.waiting.splice(0, batch.length);
      if (outcome === 'sent') {
        state.sent += batch.length;
        if (detail) log(`demo device ${name(state)}: ${detail}`);
      } else if (outcome === 'dropped') {
        log(`demo device ${name(state)}: ${batch.length} readings refused (${detail})`);
      } else {
        state.stopped = true;
        state.waiting.length = 0;
        log(`demo device ${name(state)}: refused (${detail}); it stops until the next start`);
      }
    }
  };

  let first = true;
  /** One minute: every device measures what is due and sends what waits. */
  const tick = async () => {
    const backfill = first;
    first = false;
    await Promise.all(
      states
        .filter((state) => !state.stopped)
        .map(async (state) => {
          try {
            await measure(state);
            await send(state);
          } catch (error) {
            log(`demo device ${name(state)}: ${error instanceof Error ? error.message : String(error)}`);
          }
          if (backfill && !state.stopped) {
            log(
              `demo device ${name(state)}: reporting every minute, ${state.sent} readings sent since its newest stored one`,
            );
          }
        }),
    );
  };

  let cancel: (() => void) | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    const now = clock.now();
    cancel = clock.after(intervalMs - (now % intervalMs) + SEND_DELAY_MS, () => {
      running = tick().finally(next);
    });
  };

  return {
    /** The first tick (the backfill, then the current minute), then one every minute after the minute turns. */
    start: async () => {
      running = tick();
      await running;
      next();
    },
    tick,
    report: (): DeviceReport[] =>
      states.map((state) => ({
        deviceId: state.device.deviceId,
        link: state.device.link.kind,
        sent: state.sent,
        waiting: state.waiting.length,
        stopped: state.stopped,
      })),
    stop: async () => {
      stopped = true;
      cancel?.();
      await running?.catch(() => undefined);
      await Promise.all(devices.map((device) => device.link.close()));
    },
  };
};

export type DemoSimulator = ReturnType<typeof createDemoSimulator>;
