import { MESSAGES } from '../messages';

/**
 * Spec §8 and §9: how the product finds the endpoints it calls, and the configurations it refuses. The Lambdas'
 * AWS SDK clients (`functions/_shared/clients.ts`) and the web app's area clients and runtime configuration
 * (`frontend/src/lib/api.ts`, `runtime-config.ts`) check their settings here, so a bad configuration fails at
 * start, naming what is wrong, instead of on the first call.
 */

/** Spec §9: at most this many resolved endpoints are kept; the least recently used leaves first. */
export const ENDPOINT_CACHE_SIZE = 50;

export type EndpointProblem =
  | 'missingRegion'
  | 'fipsWithCustomEndpoint'
  | 'dualstackWithCustomEndpoint'
  | 'fipsWithDualstack';

const PROBLEM_MESSAGES: Record<EndpointProblem, string> = {
  missingRegion: MESSAGES.endpointMissingRegion,
  fipsWithCustomEndpoint: MESSAGES.endpointFipsWithCustom,
  dualstackWithCustomEndpoint: MESSAGES.endpointDualstackWithCustom,
  fipsWithDualstack: MESSAGES.endpointFipsWithDualstack,
};

/** A configuration no endpoint can be resolved from (spec §8 "Endpoint configuration errors"). */
export class EndpointConfigError extends Error {
  override readonly name = 'EndpointConfigError';
  constructor(
    readonly problem: EndpointProblem,
    /** The service (an AWS SDK client, or one of the platform's API areas) whose settings are wrong. */
    readonly service: string,
  ) {
    super(PROBLEM_MESSAGES[problem]);
  }
}

/** What decides where one service's calls go. */
export interface EndpointSettings {
  service: string;
  region?: string;
  /** Use the service's FIPS 140 endpoint. @default false */
  useFips?: boolean;
  /** Use the service's IPv4-and-IPv6 endpoint. @default false */
  useDualstack?: boolean;
  /** A custom endpoint URL (an emulator locally, a VPC endpoint…), which neither FIPS nor dual-stack can apply to. */
  endpoint?: string;
}

/**
 * Throws the first problem of the settings: no region; FIPS or dual-stack together with a custom endpoint (they
 * choose among the service's own endpoints, which a custom one replaces); FIPS with dual-stack, a pair we do not
 * support in any partition.
 */
export const checkEndpointSettings = ({ service, region, useFips, useDualstack, endpoint }: EndpointSettings): void => {
  if (!region?.trim()) throw new EndpointConfigError('missingRegion', service);
  if (endpoint && useFips) throw new EndpointConfigError('fipsWithCustomEndpoint', service);
  if (endpoint && useDualstack) throw new EndpointConfigError('dualstackWithCustomEndpoint', service);
  if (useFips && useDualstack) throw new EndpointConfigError('fipsWithDualstack', service);
};

/** A map that keeps at most `size` entries, dropping the least recently used. */
export const createLru = <V>(size: number = ENDPOINT_CACHE_SIZE) => {
  if (!Number.isInteger(size) || size < 1) throw new Error(`A cache holds at least one entry: ${size}`);
  const entries = new Map<string, V>();
  return {
    get: (key: string): V | undefined => {
      if (!entries.has(key)) return undefined;
      const value = entries.get(key)!;
      // Map keeps insertion order: moving a hit to the end makes the first key the least recently used.
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set: (key: string, value: V): void => {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > size) entries.delete(entries.keys().next().value!);
    },
    /** Oldest first. */
    keys: (): string[] => [...entries.keys()],
    get size() {
      return entries.size;
    },
    clear: () => entries.clear(),
  };
};

const keyOf = (settings: EndpointSettings): string =>
  JSON.stringify([
    settings.service,
    settings.region ?? '',
    settings.useFips ?? false,
    settings.useDualstack ?? false,
    settings.endpoint ?? '',
  ]);

/**
 * Resolves each distinct set of settings once (checked first, so a bad one throws every time and is never kept),
 * holding at most {@link ENDPOINT_CACHE_SIZE} results.
 */
export const createEndpointCache = <T>(resolve: (settings: EndpointSettings) => T, size = ENDPOINT_CACHE_SIZE) => {
  const cache = createLru<T>(size);
  const lookup = (settings: EndpointSettings): T => {
    const key = keyOf(settings);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    checkEndpointSettings(settings);
    const resolved = resolve(settings);
    cache.set(key, resolved);
    return resolved;
  };
  return Object.assign(lookup, { cache });
};
