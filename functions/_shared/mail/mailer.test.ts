import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { MESSAGES } from '../../../shared/messages';
import { BadRequest, ServiceUnavailable } from '../errors';
import { createMailer } from './mailer';

const awsError = (name: string) => Object.assign(new Error(`SES says ${name} for account 123456789012`), { name });

describe('the mailer', () => {
  const ses = mockClient(SESv2Client);
  const mailer = createMailer({ ses: new SESv2Client({ region: 'us-west-2' }), from: 'no-reply@example.com' });
  const sent = () => ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input);

  beforeEach(() => {
    ses.reset();
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
  });

  afterAll(() => ses.restore());

  it('sends from the configured address to every recipient and answers the message id', async () => {
    const id = await mailer.send({
      to: ['a@example.com', 'b@example.com'],
      subject: 'Hi',
      text: 'Hello',
      html: '<p>Hello</p>',
    });
    expect(id).toBe('m-1');
    expect(sent()).toEqual([
      {
        FromEmailAddress: 'no-reply@example.com',
        Destination: { ToAddresses: ['a@example.com', 'b@example.com'] },
        Content: {
          Simple: {
            Subject: { Data: 'Hi', Charset: 'UTF-8' },
            Body: { Text: { Data: 'Hello', Charset: 'UTF-8' }, Html: { Data: '<p>Hello</p>', Charset: 'UTF-8' } },
          },
        },
      },
    ]);
  });

  it('sends a text-only message without an HTML part', async () => {
    await mailer.send({ to: ['a@example.com'], subject: 'Hi', text: 'Hello' });
    expect(sent()[0]!.Content!.Simple!.Body).toEqual({ Text: { Data: 'Hello', Charset: 'UTF-8' } });
  });

  it('refuses a message without recipients or body before calling SES', async () => {
    await expect(mailer.send({ to: [], subject: 'Hi', text: 'x' })).rejects.toThrow(MESSAGES.mailNoRecipient);
    await expect(mailer.send({ to: ['a@example.com'], subject: 'Hi' })).rejects.toThrow(MESSAGES.mailNoBody);
    expect(sent()).toHaveLength(0);
  });

  it("turns SES's refusals into typed errors without SES's wording", async () => {
    ses.on(SendEmailCommand).rejects(awsError('MessageRejected'));
    const rejected = mailer.send({ to: ['a@example.com'], subject: 'Hi', text: 'x' });
    await expect(rejected).rejects.toBeInstanceOf(BadRequest);
    await expect(rejected).rejects.toThrow(MESSAGES.mailRejected);

    ses.on(SendEmailCommand).rejects(awsError('TooManyRequestsException'));
    const failed = mailer.send({ to: ['a@example.com'], subject: 'Hi', text: 'x' });
    await expect(failed).rejects.toBeInstanceOf(ServiceUnavailable);
    await expect(failed).rejects.toThrow(MESSAGES.mailNotSent);
  });
});
