import { integrations } from '../../../../shared/contracts/integrations';
import { toOpenApi } from '../../../../shared/contracts/openapi';
import { sensorData } from '../../../../shared/contracts/sensor-data';
import { webhookEventsSpecUrl, withWebhookEvents } from './api-reference';

describe('the API reference with the webhook events', () => {
  const routes = toOpenApi(sensorData, 'https://api.example/sensor-data', { access: 'apiKey' });

  it("puts the integrations area's events beside the public routes, with how to verify them", () => {
    const merged = withWebhookEvents(routes, toOpenApi(integrations)) as typeof routes & {
      webhooks: Record<string, unknown>;
    };
    expect(Object.keys(merged.webhooks)).toContain('readings.received');
    expect(merged.paths).toBe(routes.paths);
    expect(merged.info.description).toContain(routes.info.description);
    expect(merged.info.description).toContain("import { Webhook } from 'standardwebhooks';");
  });

  it('shows the routes alone when the events could not be read', () => {
    expect(withWebhookEvents(routes, undefined)).toBe(routes);
  });

  it('reads the whole document of the integrations area', () => {
    expect(webhookEventsSpecUrl('https://api.example/integrations/')).toBe(
      'https://api.example/integrations/openapi.json',
    );
  });
});
