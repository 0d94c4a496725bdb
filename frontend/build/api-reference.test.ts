import { toOpenApi } from '../../shared/contracts/openapi';
import { sensorData } from '../../shared/contracts/sensor-data';
import { withServer } from '../src/features/sensor-data/api-reference';
import { referenceDocument } from './api-reference';

describe("the reference page's document, made at build time", () => {
  const url = 'https://api.example/sensor-data';
  const built = withServer(referenceDocument(), url) as ReturnType<typeof toOpenApi> & { webhooks?: object };

  it('describes the routes exactly as the sensor-data API serves them, this home’s address in each curl example', () => {
    const served = toOpenApi(sensorData, url, { access: 'apiKey' });
    expect(built.paths).toEqual(served.paths);
    expect(built.info).toEqual(served.info);
    expect(built.servers).toEqual([{ url }]);
  });

  it('carries the webhook events and the schemas they refer to', () => {
    expect(Object.keys(built.webhooks ?? {})).toEqual(expect.arrayContaining(['alert.fired', 'export.ready']));
    expect(JSON.stringify(referenceDocument())).toContain("'{baseUrl}/v1/devices/{id}/readings");
  });
});
