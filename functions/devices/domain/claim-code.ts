import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/** Crockford's base 32: no I, L, O or U, so a code read off a label is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/** 12 symbols of 32: 60 random bits, grouped `XXXX-XXXX-XXXX` for the label. Shown once, stored hashed. */
export const newClaimCode = (random: (max: number) => number = randomInt): string =>
  Array.from({ length: GROUPS }, () =>
    Array.from({ length: GROUP_LENGTH }, () => ALPHABET[random(ALPHABET.length)]).join(''),
  ).join('-');

/** What a person types: case, spaces and dashes do not matter; O, I and L read as 0, 1 and 1. */
export const normalizeClaimCode = (code: string): string =>
  code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');

/** Salted with the device id, so one guess cannot be tried against every stolen hash at once. */
export const hashClaimCode = (deviceId: string, code: string): string =>
  createHash('sha256')
    .update(`${deviceId}:${normalizeClaimCode(code)}`, 'utf8')
    .digest('hex');

export const claimCodeMatches = (deviceId: string, code: string, storedHash: string): boolean => {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashClaimCode(deviceId, code), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
};
