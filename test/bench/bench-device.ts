import type { RunningStack } from '../../infra/local/stack';
import { AREAS } from '../../shared/contracts/areas';
import { createAreaClient } from '../../shared/contracts/client';

/**
 * A device as the bench's measurements need one: registered by staff under `serial`, claimed by the person of
 * `ownerToken`, with a credential to send readings with.
 */
export const benchDevice = async (
  { info }: Pick<RunningStack, 'info'>,
  { adminToken, ownerToken, serial }: { adminToken: string; ownerToken: string; serial: string },
) => {
  const devices = (token: string) =>
    createAreaClient(AREAS.devices, { baseUrl: `${info.endpoints.gateway}/devices`, getToken: () => token });
  const { device, claimCode } = await devices(adminToken).register({
    body: { serial, productLine: 'sd1', model: 'SD1', firmwareVersion: '1.0.0' },
  });
  await devices(ownerToken).claim({ body: { serial, claimCode } });
  const { token: credential } = await devices(ownerToken).createCredential({ params: { id: device.id } });
  return { id: device.id, credential };
};
