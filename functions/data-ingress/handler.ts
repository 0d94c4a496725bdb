import { dataIngressAudit } from '../../shared/contracts/audit/data-ingress';
import { dataIngress } from '../../shared/contracts/data-ingress';
import { BadRequest, Forbidden } from '../_shared/errors';
import { httpArea } from '../_shared/http/http-area';
import { createDataIngressDeps, dataIngressCredentials, readDataIngressEnv } from './deps';

const env = readDataIngressEnv();

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
    credentials: dataIngressCredentials(env),
  },
);
