import { createRequire } from 'node:module';

/**
 * The browser's half of Cognito's device authentication, taken from Amplify's own code (the functions its
 * `getNewDeviceMetadata` and `handleDeviceSRPAuth` call), so the local layer's server half is checked against the
 * client the web app really runs, not against a copy of its own arithmetic. Amplify does not export these: they are
 * loaded from its CommonJS build by path.
 */
const require = createRequire(import.meta.url);
const SRP = '../../node_modules/aws-amplify/node_modules/@aws-amplify/auth/dist/cjs/providers/cognito/utils/srp';

interface BigInteger {
  toString(radix: number): string;
}
interface AuthenticationHelper {
  A: BigInteger;
  generateHashDevice(groupKey: string, deviceKey: string): Promise<void>;
  getSaltToHashDevices(): string;
  getVerifierDevices(): string;
  getRandomPassword(): string;
  getPasswordAuthenticationKey(input: {
    username: string;
    password: string;
    serverBValue: BigInteger;
    salt: BigInteger;
  }): Promise<Uint8Array>;
}
const { getAuthenticationHelper, getBytesFromHex, getNowString, getSignatureString } = require(SRP) as {
  getAuthenticationHelper: (poolName: string) => Promise<AuthenticationHelper>;
  getBytesFromHex: (hex: string) => Uint8Array;
  getNowString: () => string;
  getSignatureString: (input: {
    userPoolName: string;
    username: string;
    challengeParameters: Record<string, string>;
    dateNow: string;
    hkdf: Uint8Array;
  }) => string;
};
const BigIntegerClass = require(`${SRP}/BigInteger/BigInteger`).default as new (
  value: string,
  radix: number,
) => BigInteger;

export interface BrowserDevice {
  deviceKey: string;
  deviceGroupKey: string;
  randomPassword: string;
}

/** What Amplify sends to ConfirmDevice for a new device, and what it keeps in the browser. */
export const newDeviceSecret = async (metadata: { DeviceKey: string; DeviceGroupKey: string }) => {
  const helper = await getAuthenticationHelper(metadata.DeviceGroupKey);
  await helper.generateHashDevice(metadata.DeviceGroupKey, metadata.DeviceKey);
  return {
    verifierConfig: {
      Salt: Buffer.from(getBytesFromHex(helper.getSaltToHashDevices())).toString('base64'),
      PasswordVerifier: Buffer.from(getBytesFromHex(helper.getVerifierDevices())).toString('base64'),
    },
    device: {
      deviceKey: metadata.DeviceKey,
      deviceGroupKey: metadata.DeviceGroupKey,
      randomPassword: helper.getRandomPassword(),
    } satisfies BrowserDevice,
  };
};

/** The device's answers to DEVICE_SRP_AUTH and then DEVICE_PASSWORD_VERIFIER, as Amplify computes them. */
export const deviceProof = async (device: BrowserDevice, { randomPassword = device.randomPassword } = {}) => {
  const helper = await getAuthenticationHelper(device.deviceGroupKey);
  return {
    srpA: helper.A.toString(16),
    claim: async (parameters: Record<string, string>) => {
      const hkdf = await helper.getPasswordAuthenticationKey({
        username: device.deviceKey,
        password: randomPassword,
        serverBValue: new BigIntegerClass(parameters.SRP_B!, 16),
        salt: new BigIntegerClass(parameters.SALT!, 16),
      });
      const dateNow = getNowString();
      return {
        TIMESTAMP: dateNow,
        PASSWORD_CLAIM_SECRET_BLOCK: parameters.SECRET_BLOCK!,
        PASSWORD_CLAIM_SIGNATURE: getSignatureString({
          userPoolName: device.deviceGroupKey,
          username: device.deviceKey,
          challengeParameters: parameters,
          dateNow,
          hkdf,
        }),
      };
    },
  };
};
