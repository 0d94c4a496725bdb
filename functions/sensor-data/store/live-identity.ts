import { type CognitoIdentityClient, GetIdCommand } from '@aws-sdk/client-cognito-identity';
import { AttachPolicyCommand, DetachPolicyCommand, type IoTClient } from '@aws-sdk/client-iot';
import type { TokenVerifier } from '../../../shared/auth/verify-token';
import { LIVE_MESSAGES } from '../../../shared/contracts/sensor-data-live';
import { localIdentityId, REALTIME_POLICY_NAME } from '../../../shared/iot/realtime';
import { BadRequest, Forbidden } from '../../_shared/errors';
import { iotCall } from '../../_shared/iot/iot-call';
import type { RealtimeIdentity } from '../domain/ports';

export const createLocalRealtimeIdentity = (): RealtimeIdentity => ({
  identityOf: async (caller) => localIdentityId(caller.sub),
  attach: async () => 'local',
  detach: async () => 'local',
});

export const createCloudRealtimeIdentity = ({
  identityPoolId,
  issuer,
  verifyToken,
  cognitoIdentity,
  iot,
}: {
  identityPoolId: string;
  /** The user pool's issuer URL; its host and path name the login provider (`cognito-idp.{region}.amazonaws.com/{pool}`). */
  issuer: string;
  verifyToken: TokenVerifier;
  cognitoIdentity: () => CognitoIdentityClient;
  iot: () => IoTClient;
}): RealtimeIdentity => {
  const provider = issuer.replace(/^https?:\/\//, '');
  return {
    identityOf: async (caller, idToken) => {
      if (!idToken) throw new BadRequest(LIVE_MESSAGES.idTokenNeeded);
      const holder = await verifyToken(idToken).catch(() => undefined);
      if (holder?.tokenUse !== 'id' || holder.sub !== caller.sub) {
        throw new Forbidden(LIVE_MESSAGES.idTokenNotYours);
      }
      const { IdentityId } = await cognitoIdentity().send(
        new GetIdCommand({ IdentityPoolId: identityPoolId, Logins: { [provider]: idToken } }),
      );
      if (!IdentityId) throw new Error('Cognito answered no identity id');
      return IdentityId;
    },
    attach: async (identityId) => {
      await iotCall('AttachPolicy', () =>
        iot().send(new AttachPolicyCommand({ policyName: REALTIME_POLICY_NAME, target: identityId })),
      );
      return 'iot';
    },
    detach: async (identityId) => {
      await iotCall('DetachPolicy', () =>
        iot().send(new DetachPolicyCommand({ policyName: REALTIME_POLICY_NAME, target: identityId })),
      );
      return 'iot';
    },
  };
};
