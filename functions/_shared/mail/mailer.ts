import { type SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { MESSAGES } from '../../../shared/messages';
import { BadRequest, ServiceUnavailable } from '../errors';
import { log } from '../logger';

export interface Mail {
  to: readonly string[];
  subject: string;
  /** At least one of text and html. */
  text?: string;
  html?: string;
  /** Extra headers, e.g. `List-Unsubscribe` (RFC 2369/8058) on mail a person may opt out of. */
  headers?: readonly { name: string; value: string }[];
}

/** SES refusals that say the message itself is wrong (an address or content SES will not take). */
const REJECTED = new Set(['BadRequestException', 'MessageRejected']);

/**
 * Sends e-mail through SES v2 from the platform's one sender address (MAIL_FROM). The only code that calls
 * SES. A refusal becomes a typed error: the client never sees SES's own message, which can name the account.
 */
export const createMailer = ({ ses, from }: { ses: SESv2Client; from: string }) => ({
  /** @returns SES's message id */
  send: async (mail: Mail): Promise<string> => {
    if (mail.to.length === 0) throw new BadRequest(MESSAGES.mailNoRecipient);
    if (!mail.text && !mail.html) throw new BadRequest(MESSAGES.mailNoBody);
    try {
      const result = await ses.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [...mail.to] },
          Content: {
            Simple: {
              Subject: { Data: mail.subject, Charset: 'UTF-8' },
              Body: {
                ...(mail.text ? { Text: { Data: mail.text, Charset: 'UTF-8' } } : {}),
                ...(mail.html ? { Html: { Data: mail.html, Charset: 'UTF-8' } } : {}),
              },
              ...(mail.headers?.length
                ? { Headers: mail.headers.map(({ name, value }) => ({ Name: name, Value: value })) }
                : {}),
            },
          },
        }),
      );
      if (!result.MessageId) throw new Error('SES answered without a message id');
      return result.MessageId;
    } catch (error) {
      const name = error instanceof Error ? error.name : 'Unknown';
      log('error', 'E-mail not sent', {
        error: error instanceof Error ? error.message : String(error),
        name,
        recipients: mail.to.length,
      });
      if (REJECTED.has(name)) throw new BadRequest(MESSAGES.mailRejected);
      throw new ServiceUnavailable(MESSAGES.mailNotSent);
    }
  },
});

export type Mailer = ReturnType<typeof createMailer>;
