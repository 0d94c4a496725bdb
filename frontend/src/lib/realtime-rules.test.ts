import { MESSAGES } from '../../../shared/messages';
import { errorMessage } from './error-message';
import { RealtimeUnavailable, requireCurrentUser, requireRealtimeUrl } from './realtime-rules';

/** What the live panel says when it cannot connect (it shows `errorMessage` of the failure, live-panel.tsx). */
const said = (step: () => unknown) => {
  try {
    step();
  } catch (error) {
    expect(error).toBeInstanceOf(RealtimeUnavailable);
    return errorMessage(error);
  }
  throw new Error('it connected');
};

describe("the live view's preconditions, in spec §8's words", () => {
  it('says "No graphql endpoint provided" where the environment has no realtime endpoint', () => {
    expect(said(() => requireRealtimeUrl(undefined))).toBe('No graphql endpoint provided');
    expect(said(() => requireRealtimeUrl(''))).toBe(MESSAGES.noGraphqlEndpoint);
    expect(requireRealtimeUrl('ws://localhost:8083')).toBe('ws://localhost:8083');
  });

  it('says "No current user" where there is no one to connect as', () => {
    expect(said(() => requireCurrentUser(undefined))).toBe('No current user');
    expect(requireCurrentUser('token')).toBe('token');
  });
});
