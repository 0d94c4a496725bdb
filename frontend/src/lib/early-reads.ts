/**
 * Where the early reads (src/early-reads.ts, decision 113) leave what they asked for, and where the app takes it: the
 * runtime configuration's response, and each first read's response under its URL and the token it was asked with.
 * Each is taken once; a read the app asks for differently (another token, after a sign-out, long after the load)
 * is not taken and the app asks the API itself.
 */

/** Where the runtime configuration is (the HTML preloads it; the cloud serves it from S3, the local stack itself). */
export const RUNTIME_CONFIG_PATH = '/runtime-config.json';

/** A read not taken within this long after it was asked is left: the app asks for its first reads within a second. */
export const EARLY_READ_TTL_MS = 30_000;

interface EarlyRead {
  authorization: string;
  at: number;
  response: Promise<Response>;
}

const reads = new Map<string, EarlyRead>();
let runtimeConfig: Promise<Response | undefined> | undefined;

/** The early reads' response for the runtime configuration, unread, for the app's boot. */
export const offerRuntimeConfig = (response: Promise<Response | undefined>): void => {
  runtimeConfig = response;
};

/** Once: the runtime configuration's response the early reads asked for, or undefined (then the app asks). */
export const takeRuntimeConfig = (): Promise<Response | undefined> | undefined => {
  const offered = runtimeConfig;
  runtimeConfig = undefined;
  return offered;
};

/** A first read asked for early: a GET of `url` with the `authorization` header, asked for at `at` (ms, page clock). */
export const offerRead = (url: string, authorization: string, response: Promise<Response>, at: number): void => {
  // An early read that fails is the app's to ask again, not an unhandled rejection.
  response.catch(() => undefined);
  reads.set(url, { authorization, at, response });
};

/**
 * Once: the early read of the app's request (`url`, `init` as `fetch` takes them) when it is a GET of the same URL with
 * the same token, taken at `now` within EARLY_READ_TTL_MS of its asking; otherwise undefined.
 */
export const takeRead = (url: string, init: RequestInit | undefined, now: number): Promise<Response> | undefined => {
  const read = reads.get(url);
  if (!read) return undefined;
  reads.delete(url);
  const method = (init?.method ?? 'GET').toUpperCase();
  const authorization = new Headers(init?.headers).get('authorization');
  if (method !== 'GET' || authorization !== read.authorization || now - read.at > EARLY_READ_TTL_MS) return undefined;
  return read.response;
};
