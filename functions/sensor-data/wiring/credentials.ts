import type { CredentialAuthenticators } from '../../_shared/http/http-area';
import type { SensorDataEnv } from '../deps';

/** The public API's key authenticator (the api-keys part fills it in). */
export const sensorDataCredentials = (_env: SensorDataEnv): CredentialAuthenticators => ({});
