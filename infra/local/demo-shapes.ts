import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { StoredReading } from '../../functions/_shared/sensor-data/readings-store';
import { DAY_MS, HOUR_MS } from '../../shared/sensor-data/chart-files';

/**
 * What the demo devices measure and how it moves through a day (docs/devices.md, "Demo devices"): one model for the
 * seeded history and for the simulator's live readings, so a chart shows no seam where one ends and the other begins.
 * Each value is a smooth daily shape in local time, a slow drift over days (weather), and noise that carries over from
 * one reading to the next (an AR(1) process), as a real sensor's does. Local time is the time zone of the machine
 * running the demo, where its charts are read (docs/decisions/047-live-demo-devices.md).
 */
export type DemoProfile = 'air' | 'water';

const MINUTE_MS = 60_000;

/** Randomness in [0, 1): injected, so a test fixes it with a seed. */
export type Random = () => number;

/** xoroshiro128+ (pure-rand, fast-check's generator) from a seed: the same seed, the same readings. */
export const seededRandom = (seed: number): Random => {
  const generator = xoroshiro128plus(seed);
  return () => uniformFloat64(generator);
};

/** The hour of the day (0 ≤ h < 24, with minutes as a fraction) in a time zone `utcOffsetMinutes` from UTC. */
export const localHour = (time: number, utcOffsetMinutes: number): number =>
  ((((time + utcOffsetMinutes * MINUTE_MS) / HOUR_MS) % 24) + 24) % 24;

/** This machine's offset from UTC now, in minutes (east positive): the demo's local time. */
export const machineUtcOffsetMinutes = (time = Date.now()): number => -new Date(time).getTimezoneOffset();

/** 1 at `hour` and falling off over `width` hours either side: a bell on the 24-hour circle. */
const bell = (h: number, hour: number, width: number) => {
  const apart = Math.min(Math.abs(h - hour), 24 - Math.abs(h - hour));
  return Math.exp(-(apart * apart) / (2 * width * width));
};

/** A day-long wave, 1 at `hour` and −1 twelve hours later. */
const daily = (h: number, hour: number) => Math.cos((2 * Math.PI * (h - hour)) / 24);

/** A drift over several days (fronts passing), −1 to 1. */
const drift = (time: number, days: number) => Math.sin((2 * Math.PI * time) / (days * DAY_MS));

/** Morning and evening traffic, 0 at night to about 1 at 08:00 and 0.75 at 18:30. */
export const traffic = (h: number) => bell(h, 8, 1.3) + 0.75 * bell(h, 18.5, 1.8);

/** Each measurement's noise: its spread, and how long (minutes) a deviation takes to fade. */
const NOISE: Record<DemoProfile, Record<string, { sd: number; minutes: number }>> = {
  air: {
    temperature: { sd: 0.35, minutes: 40 },
    humidity: { sd: 1.8, minutes: 25 },
    // On the log scale: particles come in puffs, so their noise multiplies.
    pm2_5: { sd: 0.22, minutes: 12 },
    pm10: { sd: 1.2, minutes: 8 },
    co2: { sd: 5, minutes: 15 },
  },
  water: {
    // A lake's water changes slowly: small noise that lasts for hours.
    temperature: { sd: 0.03, minutes: 180 },
    battery: { sd: 0.4, minutes: 60 },
    rssi: { sd: 2.5, minutes: 3 },
  },
};

/** The measurements each profile sends. */
export const PROFILE_MEASUREMENTS: Record<DemoProfile, readonly string[]> = {
  air: Object.keys(NOISE.air),
  water: Object.keys(NOISE.water),
};

/** `value` to `decimals` places, as a sensor reports it. */
export const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The values at one moment from the local hour, the time and each measurement's current noise. */
const SHAPES: Record<DemoProfile, (h: number, time: number, n: Record<string, number>) => Record<string, number>> = {
  air: (h, time, n) => {
    // Warmest mid-afternoon, coldest before dawn.
    const temperature = 13 + 6 * daily(h, 15) + 2 * drift(time, 5) + n.temperature!;
    const rush = traffic(h);
    const pm2_5 = (4.5 + 11 * rush + 1.5 * drift(time, 3.3)) * Math.exp(n.pm2_5!);
    return {
      temperature: round(temperature, 1),
      // Relative humidity falls as the same air warms.
      humidity: round(clamp(68 - 2.6 * (temperature - 13) + n.humidity!, 15, 100), 1),
      pm2_5: round(pm2_5, 1),
      pm10: round(Math.max(pm2_5, pm2_5 * (1.6 + 0.3 * rush) + 2 + n.pm10!), 1),
      // Higher at night (a shallow boundary layer) and with the traffic.
      co2: Math.round(418 + 10 * daily(h, 5) + 30 * rush + n.co2!),
    };
  },
  water: (h, time, n) => ({
    // The lake lags the air by a couple of hours and moves a fraction of a degree a day.
    temperature: round(11 + 0.5 * daily(h, 17) + 0.8 * drift(time, 9) + n.temperature!, 2),
    // A solar panel: charged by mid-afternoon, drained by dawn.
    battery: Math.round(clamp(86 + 8 * daily(h, 16) + n.battery!, 0, 100)),
    rssi: Math.round(-84 + 2 * daily(h, 4) + n.rssi!),
  }),
};

/** A standard normal draw (Box–Muller); `1 - random()` keeps the logarithm's argument above 0. */
const normal = (random: Random) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/**
 * One device's readings, asked for in time order: each call advances every measurement's noise by the time since the
 * previous one (after a long silence the noise is new), so readings a minute apart or ten minutes apart both look
 * like one sensor's.
 */
export const createDemoSignal = (profile: DemoProfile, utcOffsetMinutes: number, random: Random) => {
  const noise: Record<string, number> = {};
  let previous: number | undefined;
  return (time: number): StoredReading => {
    const elapsedMinutes = previous === undefined ? Number.POSITIVE_INFINITY : Math.abs(time - previous) / MINUTE_MS;
    previous = time;
    for (const [name, { sd, minutes }] of Object.entries(NOISE[profile])) {
      const kept = Math.exp(-elapsedMinutes / minutes);
      noise[name] = kept * (noise[name] ?? 0) + sd * Math.sqrt(1 - kept * kept) * normal(random);
    }
    return { timestamp: time, values: SHAPES[profile](localHour(time, utcOffsetMinutes), time, noise) };
  };
};

export type DemoSignal = ReturnType<typeof createDemoSignal>;
