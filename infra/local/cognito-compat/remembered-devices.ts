import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Services } from 'cognito-local/lib/services';
import type { Context } from 'cognito-local/lib/services/context';
import type { User, UserPoolService } from 'cognito-local/lib/services/userPoolService';
import { ownValue } from '../../../shared/objects/own-value';
import { type DeviceChallenge, expectedClaim, startDeviceChallenge } from './device-srp';
import { claimsOf, signedHere } from './origin-jti';
import { type CognitoRouter, fault, MESSAGES } from './targets';

/**
 * Cognito's device operations, which cognito-local lacks (docs/decisions/039-remembered-devices.md): a sign-in
 * without a known DEVICE_KEY gets NewDeviceMetadata; ConfirmDevice stores the device's SRP verifier;
 * UpdateDeviceStatus remembers it (the pool remembers a device only when the person asks); ListDevices, GetDevice
 * and ForgetDevice serve the account page. A remembered device's sign-in answers the second factor's challenge with
 * DEVICE_SRP_AUTH instead, where the environment allows it (Cognito's ChallengeRequiredOnNewDevice), and the device
 * proves its key through DEVICE_PASSWORD_VERIFIER (device-srp.ts).
 *
 * Devices are kept on cognito-local's own user record (`Devices`), so they go with the user and survive a restart.
 */

export interface RememberedDevicesOptions {
  /** The environment's rule: a remembered device signs in without the second factor. */
  skipSecondFactor: boolean;
  region: string;
}

type DeviceStatus = 'pending' | 'not_remembered' | 'remembered';

/** One browser of a person. `pending`: handed out at sign-in, not yet confirmed by the browser. */
export interface StoredDevice {
  key: string;
  groupKey: string;
  status: DeviceStatus;
  name?: string;
  salt?: string;
  verifier?: string;
  createdAt: number;
  modifiedAt: number;
  lastAuthenticatedAt?: number;
}

type DeviceUser = User & { Devices?: StoredDevice[] };
type Request = Record<string, unknown>;

const MFA_CHALLENGES = new Set(['SOFTWARE_TOKEN_MFA', 'SMS_MFA', 'SELECT_MFA_TYPE', 'EMAIL_OTP']);
/** Cognito's sign-in session lasts 3 minutes. */
const SESSION_MS = 3 * 60_000;
/**
 * How many devices of each status a person keeps, the least recently used dropped first: every sign-in from a fresh
 * browser (each end-to-end test's, each SDK sign-in's) makes one, and they live in the pool's one JSON file.
 */
const KEEP: Record<DeviceStatus, number> = { pending: 10, not_remembered: 20, remembered: 50 };
const DEVICE_NOT_FOUND = 'Device does not exist.';

interface DeviceSession {
  username: string;
  clientId: string;
  deviceKey: string;
  expiresAt: number;
  challenge?: DeviceChallenge;
}

/** The device operations' JSON shape (Cognito's DeviceType): dates in epoch seconds, as the SDK reads them. */
export const deviceType = (device: StoredDevice) => ({
  DeviceKey: device.key,
  DeviceAttributes: [
    ...(device.name ? [{ Name: 'device_name', Value: device.name }] : []),
    { Name: 'device_status', Value: device.status },
  ],
  DeviceCreateDate: device.createdAt / 1000,
  DeviceLastModifiedDate: device.modifiedAt / 1000,
  ...(device.lastAuthenticatedAt ? { DeviceLastAuthenticatedDate: device.lastAuthenticatedAt / 1000 } : {}),
});

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export const withRememberedDevices = (
  base: CognitoRouter,
  services: Pick<Services, 'cognito' | 'clock' | 'tokenGenerator'>,
  options: RememberedDevicesOptions,
): CognitoRouter => {
  const { cognito, clock, tokenGenerator } = services;
  const sessions = new Map<string, DeviceSession>();
  const now = () => clock.get().getTime();

  const devicesOf = (user: User): StoredDevice[] => (user as DeviceUser).Devices ?? [];
  const lastUsed = (d: StoredDevice) => d.lastAuthenticatedAt ?? d.createdAt;
  const kept = (devices: StoredDevice[]) =>
    (Object.keys(KEEP) as DeviceStatus[]).flatMap((status) =>
      devices
        .filter((d) => d.status === status)
        .sort((a, b) => lastUsed(b) - lastUsed(a))
        .slice(0, KEEP[status]),
    );
  const saveDevices = (ctx: Context, pool: UserPoolService, user: User, devices: StoredDevice[]) =>
    pool.saveUser(ctx, { ...user, Devices: devices } as User);
  const knownDevice = (user: User, key: unknown) =>
    typeof key === 'string' ? devicesOf(user).find((d) => d.key === key && d.status !== 'pending') : undefined;

  const newSession = (session: Omit<DeviceSession, 'expiresAt'>) => {
    for (const [id, old] of sessions) if (old.expiresAt < now()) sessions.delete(id);
    const id = randomBytes(32).toString('base64url');
    sessions.set(id, { ...session, expiresAt: now() + SESSION_MS });
    return id;
  };
  const takeSession = (id: unknown) => {
    const session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (typeof id === 'string') sessions.delete(id);
    if (!session || session.expiresAt < now()) throw fault('NotAuthorizedException', 'Invalid session for the user.');
    return session;
  };

  /** The signed-in person of an access token this pool issued and that has not expired. */
  const accessTokenUser = async (ctx: Context, token: unknown) => {
    const claims = claimsOf(token);
    if (!signedHere(token, now()) || claims?.token_use !== 'access' || typeof claims.client_id !== 'string') {
      throw fault('NotAuthorizedException', 'Invalid Access Token');
    }
    const pool = await cognito.getUserPoolForClientId(ctx, claims.client_id);
    const user = await pool.getUserByUsername(ctx, String(claims.username ?? ''));
    if (!user) throw fault('NotAuthorizedException', 'Invalid Access Token');
    return { pool, user };
  };

  /** A sign-in that ended with tokens: the device it used was seen now, or the browser gets a new device. */
  const afterTokens = async <T extends { AuthenticationResult?: object }>(
    ctx: Context,
    pool: UserPoolService,
    user: User,
    deviceKey: unknown,
    result: T,
  ): Promise<T> => {
    const devices = devicesOf(user);
    const known = knownDevice(user, deviceKey);
    if (known) {
      await saveDevices(
        ctx,
        pool,
        user,
        devices.map((d) => (d === known ? { ...d, lastAuthenticatedAt: now() } : d)),
      );
      return result;
    }
    const device: StoredDevice = {
      key: `${options.region}_${randomUUID()}`,
      groupKey: `-${randomBytes(6).toString('base64url')}`,
      status: 'pending',
      createdAt: now(),
      modifiedAt: now(),
    };
    await saveDevices(ctx, pool, user, kept([...devices, device]));
    return {
      ...result,
      AuthenticationResult: {
        ...result.AuthenticationResult,
        NewDeviceMetadata: { DeviceKey: device.key, DeviceGroupKey: device.groupKey },
      },
    };
  };

  /** The password was right: tokens, another challenge, or for a remembered device the device's own proof. */
  const afterPassword = async (
    ctx: Context,
    clientId: string,
    username: unknown,
    deviceKey: unknown,
    result: unknown,
  ) => {
    const answer = result as { ChallengeName?: string; AuthenticationResult?: Record<string, unknown> };
    const pool = await cognito.getUserPoolForClientId(ctx, clientId);
    const user = typeof username === 'string' ? await pool.getUserByUsername(ctx, username) : null;
    if (!user) return result;
    if (answer.AuthenticationResult) return afterTokens(ctx, pool, user, deviceKey, answer);
    const device = knownDevice(user, deviceKey);
    if (options.skipSecondFactor && device?.status === 'remembered' && MFA_CHALLENGES.has(answer.ChallengeName ?? '')) {
      return {
        ChallengeName: 'DEVICE_SRP_AUTH',
        // The name the client signed in with: Amplify looks the device up again under the name this answer gives.
        ChallengeParameters: { USERNAME: String(username) },
        Session: newSession({ username: user.Username, clientId, deviceKey: device.key }),
      };
    }
    return result;
  };

  /** The sign-in session's person and confirmed device, with the verifier ConfirmDevice stored for it. */
  const sessionDevice = async (ctx: Context, clientId: string, sessionId: unknown) => {
    const session = takeSession(sessionId);
    const pool = await cognito.getUserPoolForClientId(ctx, clientId);
    const user = await pool.getUserByUsername(ctx, session.username);
    const device = user ? knownDevice(user, session.deviceKey) : undefined;
    if (!user || !device?.salt || !device.verifier) throw fault('ResourceNotFoundException', DEVICE_NOT_FOUND);
    const verifier = { salt: Buffer.from(device.salt, 'base64'), verifier: Buffer.from(device.verifier, 'base64') };
    return { session, pool, user, device, verifier };
  };

  const ownDevice = async (ctx: Context, req: Request) => {
    const { pool, user } = await accessTokenUser(ctx, req.AccessToken);
    const device = knownDevice(user, req.DeviceKey);
    if (!device) throw fault('ResourceNotFoundException', DEVICE_NOT_FOUND);
    return { pool, user, device };
  };

  const targets: Record<string, (ctx: Context, req: Request) => Promise<unknown>> = {
    InitiateAuth: async (ctx, req) => {
      const parameters = (req.AuthParameters ?? {}) as Request;
      const result = await base('InitiateAuth')(ctx, req);
      if (req.AuthFlow !== 'USER_PASSWORD_AUTH') return result;
      return afterPassword(ctx, String(req.ClientId), parameters.USERNAME, parameters.DEVICE_KEY, result);
    },

    RespondToAuthChallenge: async (ctx, req) => {
      const responses = (req.ChallengeResponses ?? {}) as Record<string, string | undefined>;
      const clientId = String(req.ClientId);
      if (req.ChallengeName === 'DEVICE_SRP_AUTH') {
        const { session, user, device, verifier } = await sessionDevice(ctx, clientId, req.Session);
        if (responses.DEVICE_KEY !== device.key) throw fault('ResourceNotFoundException', DEVICE_NOT_FOUND);
        const started = startDeviceChallenge(verifier, responses.SRP_A ?? '');
        if (!started || session.clientId !== clientId) throw fault('NotAuthorizedException', MESSAGES.badCredentials);
        return {
          ChallengeName: 'DEVICE_PASSWORD_VERIFIER',
          ChallengeParameters: { ...started.parameters, USERNAME: user.Username, DEVICE_KEY: device.key },
          Session: newSession({ ...session, challenge: started.challenge }),
        };
      }
      if (req.ChallengeName === 'DEVICE_PASSWORD_VERIFIER') {
        const { session, pool, user, device, verifier } = await sessionDevice(ctx, clientId, req.Session);
        if (!session.challenge) throw fault('ResourceNotFoundException', DEVICE_NOT_FOUND);
        if (user.Enabled === false) throw fault('NotAuthorizedException', MESSAGES.disabled);
        const claim = expectedClaim(
          verifier,
          session.challenge,
          { deviceGroupKey: device.groupKey, deviceKey: device.key },
          responses.TIMESTAMP ?? '',
        );
        if (
          session.clientId !== clientId ||
          responses.PASSWORD_CLAIM_SECRET_BLOCK !== session.challenge.secretBlock ||
          !sameText(claim, responses.PASSWORD_CLAIM_SIGNATURE ?? '')
        ) {
          throw fault('NotAuthorizedException', MESSAGES.badCredentials);
        }
        const client = await cognito.getAppClient(ctx, clientId);
        if (!client) throw fault('ResourceNotFoundException', 'User pool client does not exist.');
        const groups = await pool.listUserGroupMembership(ctx, user);
        const tokens = await tokenGenerator.generate(
          ctx,
          user,
          groups,
          client,
          req.ClientMetadata as Record<string, string> | undefined,
          'Authentication',
        );
        return afterTokens(ctx, pool, user, device.key, { ChallengeParameters: {}, AuthenticationResult: tokens });
      }
      const result = await base('RespondToAuthChallenge')(ctx, req);
      return afterPassword(ctx, clientId, responses.USERNAME, responses.DEVICE_KEY, result);
    },

    ConfirmDevice: async (ctx, req) => {
      const { pool, user } = await accessTokenUser(ctx, req.AccessToken);
      const devices = devicesOf(user);
      const device = devices.find((d) => d.key === req.DeviceKey);
      const config = req.DeviceSecretVerifierConfig as { PasswordVerifier?: unknown; Salt?: unknown } | undefined;
      if (!device) throw fault('ResourceNotFoundException', DEVICE_NOT_FOUND);
      if (typeof config?.PasswordVerifier !== 'string' || typeof config.Salt !== 'string') {
        throw fault('InvalidParameterException', 'DeviceSecretVerifierConfig is required.');
      }
      const confirmed: StoredDevice = {
        ...device,
        status: device.status === 'pending' ? 'not_remembered' : device.status,
        salt: config.Salt,
        verifier: config.PasswordVerifier,
        ...(typeof req.DeviceName === 'string' ? { name: req.DeviceName.slice(0, 1024) } : {}),
        modifiedAt: now(),
        lastAuthenticatedAt: now(),
      };
      await saveDevices(
        ctx,
        pool,
        user,
        devices.map((d) => (d === device ? confirmed : d)),
      );
      // The pool remembers a device only when the person asks (UpdateDeviceStatus).
      return { UserConfirmationNecessary: true };
    },

    UpdateDeviceStatus: async (ctx, req) => {
      const { pool, user, device } = await ownDevice(ctx, req);
      const status = req.DeviceRememberedStatus;
      if (status !== 'remembered' && status !== 'not_remembered') {
        throw fault('InvalidParameterException', 'DeviceRememberedStatus must be remembered or not_remembered.');
      }
      await saveDevices(
        ctx,
        pool,
        user,
        devicesOf(user).map((d) => (d === device ? { ...d, status, modifiedAt: now() } : d)),
      );
      return {};
    },

    GetDevice: async (ctx, req) => ({ Device: deviceType((await ownDevice(ctx, req)).device) }),

    ListDevices: async (ctx, req) => {
      const { user } = await accessTokenUser(ctx, req.AccessToken);
      const devices = devicesOf(user)
        .filter((d) => d.status !== 'pending')
        .sort((a, b) => lastUsed(b) - lastUsed(a));
      return { Devices: devices.map(deviceType) };
    },

    ForgetDevice: async (ctx, req) => {
      const { pool, user, device } = await ownDevice(ctx, req);
      await saveDevices(
        ctx,
        pool,
        user,
        devicesOf(user).filter((d) => d !== device),
      );
      return {};
    },
  };

  return (target) => ownValue(targets, target) ?? base(target);
};
