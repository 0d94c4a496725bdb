import type { Caller } from '../../../shared/auth/verify-token';
import type { DeviceCredential, NewDeviceCredential } from '../../../shared/contracts/devices';
import { MESSAGES } from '../../../shared/messages';
import { hashSecret, tokenOf } from '../../_shared/devices/credential-token';
import { Conflict, NotFound } from '../../_shared/errors';
import { pageAcross } from '../../_shared/paging';
import type { Devices } from './devices';
import type { CredentialStore } from './ports';

/** A few at once (one per gateway or a spare during a swap); rotation replaces them all. */
export const MAX_CREDENTIALS_PER_DEVICE = 5;

export interface CredentialsDeps {
  devices: Pick<Devices, 'managed' | 'isRetired'>;
  store: Pick<CredentialStore, 'put' | 'page' | 'listAll' | 'remove'>;
  now: () => number;
  newCredentialId: () => string;
  newSecret: () => string;
}

/** Per-device ingress credentials: made by a manager, the secret shown once, kept as a SHA-256 hash. */
export const createCredentials = ({ devices, store, now, newCredentialId, newSecret }: CredentialsDeps) => {
  const issue = async (caller: Caller, deviceId: string): Promise<NewDeviceCredential> => {
    const credentialId = newCredentialId();
    const secret = newSecret();
    const credential: DeviceCredential = { credentialId, deviceId, created: now(), createdBy: caller.sub };
    await store.put({ ...credential, secretHash: hashSecret(secret) });
    // Retirement revokes what exists when it runs; one made meanwhile is taken back here.
    if (await devices.isRetired(deviceId)) {
      await store.remove(deviceId, credentialId);
      throw new Conflict(MESSAGES.deviceRetired);
    }
    return { ...credential, secret, token: tokenOf(credentialId, secret) };
  };

  return {
    list: async (caller: Caller, deviceId: string, page: { limit: number; cursor?: string }) => {
      await devices.managed(caller, deviceId, { active: false });
      return pageAcross([(startKey, limit) => store.page(deviceId, limit, startKey)], page);
    },

    create: async (caller: Caller, deviceId: string): Promise<NewDeviceCredential> => {
      await devices.managed(caller, deviceId, { active: true });
      const held = await store.listAll(deviceId);
      if (held.length >= MAX_CREDENTIALS_PER_DEVICE) {
        throw new Conflict(MESSAGES.deviceCredentialLimit(MAX_CREDENTIALS_PER_DEVICE));
      }
      return issue(caller, deviceId);
    },

    /** The new credential first, then the old ones go: the device is never left without one that works. */
    rotate: async (caller: Caller, deviceId: string): Promise<NewDeviceCredential> => {
      await devices.managed(caller, deviceId, { active: true });
      const old = await store.listAll(deviceId);
      const fresh = await issue(caller, deviceId);
      for (const credential of old) await store.remove(deviceId, credential.credentialId);
      return fresh;
    },

    revoke: async (caller: Caller, deviceId: string, credentialId: string): Promise<void> => {
      await devices.managed(caller, deviceId, { active: false });
      if (!(await store.remove(deviceId, credentialId))) {
        throw new NotFound(MESSAGES.deviceCredentialNotFound(credentialId));
      }
    },
  };
};

export type Credentials = ReturnType<typeof createCredentials>;

/** Every credential of a retiring device (wired into the devices use cases, which the credentials ones use). */
export const revokeAllCredentials = async (
  store: Pick<CredentialStore, 'listAll' | 'remove'>,
  deviceId: string,
): Promise<void> => {
  for (const credential of await store.listAll(deviceId)) await store.remove(deviceId, credential.credentialId);
};
