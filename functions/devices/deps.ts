import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { getDocumentClient } from '../_shared/clients';
import { newCredentialId, newSecret } from '../_shared/devices/credential-token';
import { log } from '../_shared/logger';
import { createRelationWrites } from '../_shared/relations/relation-wiring';
import { newClaimCode } from './domain/claim-code';
import { createCredentials, revokeAllCredentials } from './domain/credentials';
import { createDevices } from './domain/devices';
import { createFirmwareUpdates } from './domain/firmware-updates';
import { createCredentialStore } from './store/credential-store';
import { createDeviceStore } from './store/device-store';
import { createFirmwareUpdateStates } from './store/firmware-update-states';
import { createUserDirectory } from './store/user-directory';

/** What the devices Lambda reads (the CDK sets each from SERVICE_RESOURCES.devices; the local stack likewise). */
export const DEVICES_ENV = {
  ...ACCESS_ENV,
  devicesTable: 'DEVICES_TABLE',
  deviceCredentialsTable: 'DEVICE_CREDENTIALS_TABLE',
  usersTable: 'USERS_TABLE',
  rolloutTargetsTable: 'ROLLOUT_TARGETS_TABLE',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
} as const;

export const createDevicesDeps = (env: Record<keyof typeof DEVICES_ENV, string>) => {
  const db = getDocumentClient();
  const relations = createRelationWrites(env);
  const credentialStore = createCredentialStore({ db, tableName: env.deviceCredentialsTable });
  const devices = createDevices({
    log,
    devices: createDeviceStore({ db, tableName: env.devicesTable }),
    revokeCredentials: (deviceId) => revokeAllCredentials(credentialStore, deviceId),
    users: createUserDirectory({ db, tableName: env.usersTable }),
    relations: relations.table,
    effects: relations.effects,
    access: createAccessModule(env),
    now: Date.now,
    newClaimCode: () => newClaimCode(),
  });
  return {
    devices,
    credentials: createCredentials({ devices, store: credentialStore, now: Date.now, newCredentialId, newSecret }),
    firmwareUpdates: createFirmwareUpdates({
      devices,
      states: createFirmwareUpdateStates({ db, tableName: env.rolloutTargetsTable }),
    }),
  };
};

export type DevicesDeps = ReturnType<typeof createDevicesDeps>;
