import type { api } from '../../../shared/contracts/api';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { ApiDeps } from '../deps';

export const apiHandlers: AreaHandlers<typeof api, ApiDeps> = {
  aws: ({ caller, body }, { signedUrls }) => signedUrls.getSignedS3Url(caller, body.params),
};
