import { AdminListUserAuthEventsCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createAuthEventStore } from '../../../functions/users/store/auth-event-store';
import { cognitoClient, documentClient, stack, uniqueId } from '../../support/stack';
import { freshUser, recordedEvents, tokensOf } from './identity-support';

describe('auth events', () => {
  it('records each sign-in as a SignIn auth event through the PostAuthentication trigger', async () => {
    const { email, sub } = await freshUser();
    await tokensOf(email);
    await tokensOf(email);

    const types = (await recordedEvents(sub)).map((event) => event.type);
    expect(types).toEqual(['SignIn', 'SignIn', 'SignUp']);
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: stack().tables.users, Key: { id: sub }, ConsistentRead: true }),
    );
    expect(Item).toMatchObject({ id: sub, email });
  });

  it('answers AdminListUserAuthEvents as Cognito does on a pool without the advanced-security add-on', async () => {
    const { email } = await freshUser();
    await expect(
      cognitoClient().send(
        new AdminListUserAuthEventsCommand({ UserPoolId: stack().auth.userPoolId, Username: email }),
      ),
    ).rejects.toMatchObject({ name: 'UserPoolAddOnNotEnabledException' });
  });

  describe('the auth-event store', () => {
    const store = () => createAuthEventStore({ db: documentClient(), tableName: stack().tables.authEvents! });

    it('lists one person’s events newest first in pages, and removes them all', async () => {
      const userId = uniqueId('events');
      const other = uniqueId('events');
      const base = Date.UTC(2026, 0, 1);
      for (let i = 0; i < 5; i += 1) {
        await store().record({
          userId,
          id: `e${i}`,
          type: 'SignIn',
          time: base + i * 1000,
          response: 'Pass',
          source: 'platform',
        });
      }
      await store().record({
        userId: other,
        id: 'x',
        type: 'SignIn',
        time: base,
        response: 'Pass',
        source: 'platform',
      });

      const first = await store().list(userId, { limit: 2 });
      expect(first.items.map((event) => event.id)).toEqual(['e4', 'e3']);
      expect(first.items[0]).toEqual({
        id: 'e4',
        type: 'SignIn',
        time: base + 4000,
        response: 'Pass',
        source: 'platform',
      });
      const second = await store().list(userId, { limit: 2, cursor: first.nextCursor });
      expect(second.items.map((event) => event.id)).toEqual(['e2', 'e1']);
      const last = await store().list(userId, { limit: 2, cursor: second.nextCursor });
      expect(last.items.map((event) => event.id)).toEqual(['e0']);
      expect(last.nextCursor).toBeUndefined();

      await store().removeAll(userId);
      expect((await store().list(userId, { limit: 10 })).items).toEqual([]);
      expect((await store().list(other, { limit: 10 })).items).toHaveLength(1);
    });

    it('refuses a cursor that names no event key', async () => {
      const forged = Buffer.from(JSON.stringify({ userId: 'someone-else' })).toString('base64url');
      await expect(store().list(uniqueId('events'), { limit: 2, cursor: forged })).rejects.toMatchObject({
        status: 400,
        message: 'Invalid page cursor',
      });
    });
  });
});
