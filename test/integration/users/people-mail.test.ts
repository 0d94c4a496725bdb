import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { MESSAGES } from '../../../shared/messages';
import { mailsTo } from '../../support/mail';
import { FRESH_PASSWORD, freshUser, signInFresh } from '../../support/people';
import { apiAs, apiRejection, cognitoClient, s3Client, stack, tokenOf, uniqueId } from '../../support/stack';

/** What the people routes send and write: e-mail through the local SES, exports to the backups bucket. */

const users = (token?: string) => apiAs('users', token);
const asEmployee = async () => users(await tokenOf('employee@example.com'));
const asAdmin = async () => users(await tokenOf('admin@example.com'));

describe('emailUser', () => {
  it('sends through the e-mail service; the mail arrives in the local SES store', async () => {
    const to = `${uniqueId('mail')}@example.com`.toLowerCase();
    const subject = `Hello ${uniqueId('s')}`;
    const { messageId } = await (await asEmployee()).emailUser({
      body: {
        region: 'eu-west-1',
        email: { toAddresses: [to], subject, textMessage: 'Plain words', htmlMessage: '<p>Plain words</p>' },
      },
    });
    expect(messageId).toEqual(expect.any(String));
    const [mail] = await mailsTo(to);
    expect(mail).toMatchObject({ subject, body: { text: 'Plain words', html: '<p>Plain words</p>' } });
  });

  it('refuses a message without a body, and non-staff', async () => {
    const refused = await apiRejection(
      (await asEmployee()).emailUser({ body: { email: { toAddresses: ['a@example.com'], subject: 'x' } } }),
    );
    expect(refused.status).toBe(400);
    expect(
      (
        await apiRejection(
          users(await tokenOf('user@example.com')).emailUser({
            body: { email: { toAddresses: ['a@example.com'], subject: 'x', textMessage: 'y' } },
          }),
        )
      ).status,
    ).toBe(403);
  });
});

describe('newUserNotice', () => {
  it('e-mails the administrators once per person, linking to the admin page', async () => {
    const person = await freshUser({ givenName: 'Notice', familyName: uniqueId('Me') });
    const before = (await mailsTo('admin@example.com', 0)).length;
    expect(await users(person.token).newUserNotice({ params: { id: person.id } })).toEqual({
      id: person.id,
      sent: true,
    });
    const mails = await mailsTo('admin@example.com', before + 1);
    const notice = mails.find((m) => m.subject === MESSAGES.newUserNoticeSubject(`Notice ${person.familyName}`));
    expect(notice?.body.text).toContain(`/admin/people/${person.id}`);
    expect(await (await asEmployee()).newUserNotice({ params: { id: person.id } })).toEqual({
      id: person.id,
      sent: false,
    });
    expect((await mailsTo('admin@example.com', 0)).filter((m) => m.subject === notice!.subject)).toHaveLength(1);
  });
});

describe('password resets', () => {
  it('forceResetPassword e-mails a temporary password that must be changed at the next sign-in', async () => {
    const person = await freshUser();
    await (await asEmployee()).forceResetPassword({ params: { id: person.id } });
    const [mail] = await mailsTo(person.email);
    expect(mail?.subject).toBe(MESSAGES.temporaryPasswordSubject);
    const temporary = /\n\n(\S+)\n\n/.exec(mail!.body.text ?? '')?.[1];
    expect(temporary).toBeDefined();
    expect(temporary).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{16}$/);
    // The old password gives no tokens. (Cognito refuses it; cognito-local answers the new-password challenge to any
    // password of a FORCE_CHANGE_PASSWORD user: a gap for the compatibility layer, see docs/users.md.)
    await expect(signInFresh(person.email, FRESH_PASSWORD)).rejects.toBeDefined();
    expect((await (await asEmployee()).getUser({ params: { id: person.id } })).status).toBe('FORCE_CHANGE_PASSWORD');
    const challenge = await cognitoClient().send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: stack().auth.clientId,
        AuthParameters: { USERNAME: person.email, PASSWORD: temporary! },
      }),
    );
    expect(challenge.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
  });

  it('adminResetUserPassword invalidates the password and e-mails a reset code', async () => {
    const person = await freshUser();
    await expect((await asEmployee()).adminResetUserPassword({ params: { id: person.id } })).resolves.toEqual({
      id: person.id,
      done: true,
    });
    const [mail] = await mailsTo(person.email);
    expect(mail?.body.text ?? mail?.body.html).toMatch(/\d{6}/);
    await expect(signInFresh(person.email)).rejects.toBeDefined();
  });
});

describe('adminListUserAuthEvents', () => {
  it("lists the person's sign-ins newest first, from the platform's record when the identity provider keeps none", async () => {
    const person = await freshUser();
    await signInFresh(person.email);
    const own = await users(person.token).adminListUserAuthEvents({ params: { id: person.id }, query: { limit: 10 } });
    const signIns = own.items.filter((e) => e.type === 'SignIn');
    expect(signIns.length).toBeGreaterThanOrEqual(2);
    expect(signIns[0]).toMatchObject({ response: 'Pass', source: 'platform' });
    expect(own.items.map((e) => e.time)).toEqual([...own.items.map((e) => e.time)].sort((a, b) => b - a));
    const paged = await (await asEmployee()).adminListUserAuthEvents({
      params: { id: person.id },
      query: { limit: 1 },
    });
    expect(paged.items).toHaveLength(1);
    expect(paged.nextCursor).toEqual(expect.any(String));
    const other = await freshUser();
    expect((await apiRejection(users(other.token).adminListUserAuthEvents({ params: { id: person.id } }))).status).toBe(
      403,
    );
  });
});

describe('backupUserPool', () => {
  it('writes users.json and groups.json to the backups bucket, with the people and group members', async () => {
    const person = await freshUser({ groups: ['Distributors'] });
    const directory = `tests/${uniqueId('backup')}`;
    const result = await (await asAdmin()).backupUserPool({ body: { directory } });
    expect(result.keys).toEqual([`${directory}/users.json`, `${directory}/groups.json`]);
    expect(result.bucket).toBe(stack().buckets.userBackups);
    expect(result.groups).toBe(6);

    const s3 = s3Client();
    const read = async (key: string) =>
      JSON.parse(
        await (await s3.send(new GetObjectCommand({ Bucket: result.bucket, Key: key }))).Body!.transformToString(),
      ) as Record<string, unknown>;
    const exported = (await read(result.keys[0]!)) as { users: { id: string; email: string }[] };
    expect(exported.users).toHaveLength(result.users);
    expect(exported.users).toContainEqual(expect.objectContaining({ id: person.id, email: person.email }));
    const groups = (await read(result.keys[1]!)) as { groups: { GroupName: string; members: string[] }[] };
    expect(groups.groups.find((g) => g.GroupName === 'Distributors')!.members).toContain(person.id);

    const refused = await apiRejection((await asAdmin()).backupUserPool({ body: { directory: '../escape' } }));
    expect(refused.status).toBe(400);
  });
});
