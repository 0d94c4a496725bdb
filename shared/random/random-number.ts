/** Spec §9: the random number helper gives 6 digits unless asked for another length. */
export const RANDOM_NUMBER_DIGITS = 6;

/** A source of uniformly random 32-bit words: the platform's CSPRNG (Web Crypto, in Node and browsers alike). */
export type RandomWords = (count: number) => Uint32Array;

const cryptoWords: RandomWords = (count) => globalThis.crypto.getRandomValues(new Uint32Array(count));

const LIMIT = 2 ** 32;

/**
 * A random number of exactly `digits` decimal digits, leading zeros kept (`000417` is a 6-digit code): what the
 * platform sends as a one-time verification code. Each digit is drawn from a cryptographically secure source with
 * rejection sampling, so every code is equally likely (a word modulo 10 would favour 0–5).
 */
export const randomNumber = (digits: number = RANDOM_NUMBER_DIGITS, words: RandomWords = cryptoWords): string => {
  if (!Number.isInteger(digits) || digits < 1 || digits > 64) {
    throw new RangeError(`A random number has 1 to 64 digits, not ${digits}`);
  }
  // The largest multiple of 10 below 2^32: words at or above it are drawn again.
  const ceiling = LIMIT - (LIMIT % 10);
  let out = '';
  while (out.length < digits) {
    for (const word of words(digits - out.length)) {
      if (word < ceiling && out.length < digits) out += String(word % 10);
    }
  }
  return out;
};
