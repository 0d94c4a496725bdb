import { dataIngress, dataIngressAudit } from '../../shared/contracts/data-ingress';
import { getDocumentClient } from '../_shared/clients';
import { createCredentialVerifier } from '../_shared/devices/credential-verifier';
import { readEnv } from '../_shared/env';
import { BadRequest, Forbidden } from '../_shared/errors';
import { httpArea } from '../_shared/http/http-area';
import { cachedVerifier } from './credential-cache';
import { createDataIngressDeps, DATA_INGRESS_ENV } from './deps';

const env = readEnv(DATA_INGRESS_ENV);

export const handler = httpArea(
  dataIngress,
  {
    ingestReadings: async ({ device, body }, { ingest }) => {
      const outcome = await ingest(device.deviceId, body);
      // Revoked credentials may live in the verifier cache for a minute; a retired device stops at once here.
      if (outcome.device === 'unknown') throw new Forbidden('This device is retired or unknown: nothing was stored');
      const result = { accepted: outcome.accepted, rejected: outcome.rejected };
      if (result.accepted === 0) {
        // Nothing stored: a plain failure for devices that only look at the status, the reasons still listed.
        throw new BadRequest(
          `No reading was stored: ${result.rejected.length} refused`,
          result.rejected.map((r) => ({ path: `body.readings.${r.index}`, message: `${r.reason}: ${r.message}` })),
        );
      }
      return result;
    },
  },
  {
    audit: dataIngressAudit,
    deps: () => createDataIngressDeps(env),
    credentials: {
      device: () => {
        const verifier = createCredentialVerifier({
          db: getDocumentClient(),
          tableName: env.deviceCredentialsTable,
        });
        return cachedVerifier(async (token) => {
          const deviceId = await verifier.verifyCredential(token);
          return deviceId ? { deviceId } : undefined;
        });
      },
    },
  },
);
