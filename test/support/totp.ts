import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (the encoding of the secret Cognito's AssociateSoftwareToken answers), padding optional. */
export const base32Decode = (text: string): Buffer => {
  const clean = text.replace(/=+$/, '').replace(/\s+/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`Not a base32 character: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
};

export interface TotpOptions {
  /** @default now (ms) */
  time?: number;
  /** @default 30 (seconds), as authenticator apps and Cognito use */
  period?: number;
  /** @default 6 */
  digits?: number;
}

/**
 * The RFC 6238 time-based one-time password (HMAC-SHA1) of a base32 secret, as an authenticator app shows it:
 * what a test types where a person would read their phone.
 */
export const totp = (secret: string | Buffer, { time = Date.now(), period = 30, digits = 6 }: TotpOptions = {}) => {
  const key = typeof secret === 'string' ? base32Decode(secret) : secret;
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(time / 1000 / period)));
  const hmac = createHmac('sha1', key).update(counter).digest();
  // RFC 4226 dynamic truncation: the low 4 bits of the last byte pick where the 31-bit number starts.
  const offset = hmac[hmac.length - 1]! & 0x0f;
  const number = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(number % 10 ** digits).padStart(digits, '0');
};

/**
 * A code that stays valid for the next few seconds: near the end of a period, wait for the next one, so a
 * test never sends a code that expires in flight.
 */
export const freshTotp = async (secret: string, { period = 30, marginSeconds = 3 } = {}) => {
  const left = period - ((Date.now() / 1000) % period);
  if (left < marginSeconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
  return totp(secret, { period });
};

/**
 * A code for the current period that differs from `used` (the identity provider takes a code once), waiting for the
 * next period when needed, and never one about to expire.
 */
export const nextTotp = async (secret: string, used?: string, { period = 30, marginSeconds = 3 } = {}) => {
  for (;;) {
    const left = period - ((Date.now() / 1000) % period);
    const code = totp(secret, { period });
    if (code !== used && left > marginSeconds) return code;
    await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
  }
};
