import { createHash, randomBytes } from 'node:crypto';
import { DAY_MS } from '../../_shared/integrations/webhook-records';

/**
 * The integrations area's pure rules (docs/integrations.md): ids, secrets, the retry schedule, what counts as
 * success, and how much of an answer is kept.
 */

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const randomText = (length: number, bytes = randomBytes(length)) =>
  [...bytes].map((byte) => ALPHABET[byte % 36]).join('');

/** `wh_` and 20 random characters. */
export const newWebhookId = () => `wh_${randomText(20)}`;

/**
 * A signing secret as Standard Webhooks spells it: `whsec_` and base64 of 24 random bytes (192 bits; the spec asks
 * for 24 to 64). Its libraries take it as it is.
 */
export const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** A delivery's sequence: its creation time (base36, 9 characters, sorts as a number) and 6 characters of `salt`. */
export const deliverySequence = (created: number, salt: string) =>
  `${created.toString(36).padStart(9, '0')}${createHash('sha256').update(salt).digest('hex').slice(0, 6)}`;

/** `msg_{the webhook id's 20 characters}_{sequence}`: a delivery names its webhook. */
export const deliveryIdOf = (webhookId: string, sequence: string) => `msg_${webhookId.slice(3)}_${sequence}`;

/** The webhook and the sequence a delivery id names, or undefined for what is not one. */
export const parseDeliveryId = (id: string): { webhookId: string; sequence: string } | undefined => {
  const match = /^msg_([0-9a-z]{20})_([0-9a-z]{15})$/.exec(id);
  return match ? { webhookId: `wh_${match[1]}`, sequence: match[2]! } : undefined;
};

/** A 2xx within this is success; anything slower is a timeout (the 15 s). */
export const SEND_TIMEOUT_MS = 15_000;
/** At most this much of an answer's body is kept with its attempt. */
export const KEPT_ANSWER_BYTES = 1024;
/** A webhook failing this long (from its first failed attempt) is turned off and its owner told. */
export const DISABLE_AFTER_MS = DAY_MS;
/** After a rotation, the previous secret also signs this long (receivers switch over in their own time). */
export const PREVIOUS_SECRET_MS = DAY_MS;
/** The attempts a delivery keeps (the first and the latest): a replayed delivery stays far below DynamoDB's 400 KB. */
export const KEPT_ATTEMPTS = 30;

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Waits after each failed attempt of a delivery (the example), then 10 hours again until the day is over; the
 * last try comes exactly 24 hours after the first failure, and if it fails too the webhook is turned off.
 */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR] as const;
/** Each wait is stretched or shrunk by up to this share at random, so failed receivers are not hit in step. */
export const JITTER = 0.2;

/**
 * When a delivery that has failed `failures` times (1 after its first failure) is tried next, or undefined when the
 * webhook has now failed for a day and is to be turned off. `random` in [0, 1).
 */
export const nextAttemptAt = (
  failures: number,
  now: number,
  failingSince: number,
  random: number,
): number | undefined => {
  const disableAt = failingSince + DISABLE_AFTER_MS;
  if (now >= disableAt) return undefined;
  const base = RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length) - 1] ?? RETRY_DELAYS_MS[0];
  const wait = Math.round(base * (1 - JITTER + 2 * JITTER * random));
  return Math.min(now + wait, disableAt);
};

/** What an answer's status means: delivered, gone (the receiver asks never to be called again), or try again. */
export const outcomeOf = (statusCode: number | undefined): 'delivered' | 'gone' | 'failed' => {
  if (statusCode === undefined) return 'failed';
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  if (statusCode === 410) return 'gone';
  return 'failed';
};

/** The first `max` bytes of a text, cut on a character boundary. */
export const firstBytes = (text: string, max = KEPT_ANSWER_BYTES): string => {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  let cut = max;
  // Step back over continuation bytes (10xxxxxx) so no character is split.
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut -= 1;
  return bytes.subarray(0, cut).toString('utf8');
};
