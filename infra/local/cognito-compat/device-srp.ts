import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The server half of Cognito's device authentication (DEVICE_SRP_AUTH, then DEVICE_PASSWORD_VERIFIER): SRP-6a over
 * the 3072-bit group of RFC 5054 with g = 2 and SHA-256, in Cognito's encodings, so Amplify's own client (which
 * computes the device's verifier at ConfirmDevice and its proof at sign-in) signs in against the local layer as it
 * does against Cognito. The device's "user name" is its key and its "pool" its group key.
 *
 * Cognito's encodings: every number is hashed as the hex of its two's-complement bytes (`paddedHex`: even length, a
 * leading 00 when the top bit is set); k = H(N | g), u = H(A | B); the proof key is HKDF-SHA256 of S with u as the
 * salt and "Caldera Derived Key" as the info, 16 bytes; the claim is HMAC(key, groupKey | deviceKey | secret block |
 * timestamp), base64.
 */

const N = BigInt(
  '0xFFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD' +
    'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED' +
    'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F' +
    '83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B' +
    'E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510' +
    '15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7' +
    'ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C' +
    'BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF',
);
const g = 2n;

/** A non-negative number as Cognito hashes it: even-length hex, with a leading 00 when the top bit is set. */
export const paddedHex = (value: bigint): string => {
  const hex = value.toString(16);
  const even = hex.length % 2 ? `0${hex}` : hex;
  return /^[89a-f]/.test(even) ? `00${even}` : even;
};

const hashHex = (hex: string): bigint =>
  BigInt(`0x${createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex')}`);

const modPow = (base: bigint, exponent: bigint, modulus: bigint): bigint => {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
};

const k = hashHex(paddedHex(N) + paddedHex(g));

/** What ConfirmDevice stored: the verifier g^x and the salt, as the bytes the client sent (base64 on the wire). */
export interface DeviceVerifier {
  salt: Buffer;
  verifier: Buffer;
}

/** The server's half of one device sign-in, kept between the two challenges. */
export interface DeviceChallenge {
  b: bigint;
  B: bigint;
  A: bigint;
  secretBlock: string;
}

/**
 * Answers the client's A (hex) with B; undefined when A is not acceptable (A mod N = 0 would let anyone in).
 */
export const startDeviceChallenge = (
  device: DeviceVerifier,
  clientA: string,
): { challenge: DeviceChallenge; parameters: { SRP_B: string; SALT: string; SECRET_BLOCK: string } } | undefined => {
  if (!/^[0-9a-fA-F]{1,1024}$/.test(clientA)) return undefined;
  const A = BigInt(`0x${clientA}`);
  if (A % N === 0n) return undefined;
  const v = BigInt(`0x${device.verifier.toString('hex') || '0'}`);
  const b = BigInt(`0x${randomBytes(128).toString('hex')}`);
  const B = (k * v + modPow(g, b, N)) % N;
  const secretBlock = randomBytes(64).toString('base64');
  return {
    challenge: { b, B, A, secretBlock },
    parameters: { SRP_B: B.toString(16), SALT: device.salt.toString('hex'), SECRET_BLOCK: secretBlock },
  };
};

/** The claim Cognito expects for this device at `timestamp` (the client's own "ddd MMM D HH:mm:ss UTC YYYY"). */
export const expectedClaim = (
  device: DeviceVerifier,
  challenge: DeviceChallenge,
  ids: { deviceGroupKey: string; deviceKey: string },
  timestamp: string,
): string => {
  const v = BigInt(`0x${device.verifier.toString('hex') || '0'}`);
  const u = hashHex(paddedHex(challenge.A) + paddedHex(challenge.B));
  const S = modPow((challenge.A * modPow(v, u, N)) % N, challenge.b, N);
  const prk = createHmac('sha256', Buffer.from(paddedHex(u), 'hex'))
    .update(Buffer.from(paddedHex(S), 'hex'))
    .digest();
  const key = createHmac('sha256', prk)
    .update(Buffer.concat([Buffer.from('Caldera Derived Key', 'utf8'), Buffer.from([1])]))
    .digest()
    .subarray(0, 16);
  return createHmac('sha256', key)
    .update(
      Buffer.concat([
        Buffer.from(ids.deviceGroupKey, 'utf8'),
        Buffer.from(ids.deviceKey, 'utf8'),
        Buffer.from(challenge.secretBlock, 'base64'),
        Buffer.from(timestamp, 'utf8'),
      ]),
    )
    .digest('base64');
};
