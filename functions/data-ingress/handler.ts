import { dataIngressAudit } from '../../shared/contracts/audit/data-ingress';
import { dataIngress } from '../../shared/contracts/data-ingress';
import { getDocumentClient } from '../_shared/clients';
import { createCredentialVerifier } from '../_shared/devices/credential-verifier';
import { readEnv } from '../_shared/env';
import { BadRequest, Forbidden } from '../_shared/errors';
import { httpArea } from '../_shared/http/http-area';
import { createDataIngressDeps, DATA_INGRESS_ENV } from './deps';

const env = readEnv(DATA_INGRESS_ENV);

export const handler = httpArea(
  dataIngress,
  {
    ingestReadings: async ({ device, body }, { ingest }) => {
      const outcome = await ingest(device.deviceId, body);
      // A credential is read on every request (revoked: refused at once); a retired device stops here too.
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
    getFirmware: ({ device }, { firmwareOffer }) => firmwareOffer(device.deviceId),
    reportFirmwareStatus: ({ device, body }, { firmwareStatus }) => firmwareStatus.report(device.deviceId, body),
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
        // No per-instance cache (issue 19): a revoked credential is refused on its very next request, as a disabled
        // person is; the one consistent GetItem is small beside the batch it lets in.
        return async (token: string) => {
          const deviceId = await verifier.verifyCredential(token);
          return deviceId ? { deviceId } : undefined;
        };
      },
    },
  },
);
