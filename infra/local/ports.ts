/** The fixed local ports that tools, docs and the README rely on (`npm start`); tests use ephemeral ports. */
export const DEFAULT_PORTS = {
  gateway: 3000,
  web: 5173,
  dynamodb: 8000,
  cognito: 9229,
  fauxqs: 4566,
  ses: 8005,
  mqtt: 1883,
  mqttWs: 8083,
  stripe: 12111,
  demoIdp: 9230,
  rum: 8091,
  /** The demo organization's webhook receiver (infra/local/webhook-receiver.ts). */
  webhookReceiver: 8095,
} as const;

export type PortName = keyof typeof DEFAULT_PORTS;
export type Ports = Record<PortName, number>;

export const EPHEMERAL_PORTS: Ports = Object.fromEntries(Object.keys(DEFAULT_PORTS).map((k) => [k, 0])) as Ports;
