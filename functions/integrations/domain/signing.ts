import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers of one attempt (https://www.standardwebhooks.com): the message id (the same on every
 * retry), the attempt's time in seconds, and a `v1,{base64 HMAC-SHA256 of "{id}.{timestamp}.{body}"}` signature per
 * secret, space-separated: two while a rotated-out secret still signs. Signed by the `standardwebhooks` package, which
 * receivers verify with.
 */
export const signatureHeaders = (
  secrets: readonly string[],
  messageId: string,
  at: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> => {
  const timestamp = new Date(Math.floor(at / 1000) * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' '),
  };
};
