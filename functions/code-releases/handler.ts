import { codeReleasesAudit } from '../../shared/contracts/audit/code-releases';
import { codeReleases } from '../../shared/contracts/code-releases';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { CODE_RELEASES_ENV, createCodeReleasesDeps } from './deps';
import { codeReleaseHandlers } from './handlers/code-releases';

const env = readEnv(CODE_RELEASES_ENV);

export const handler = httpArea(codeReleases, codeReleaseHandlers, {
  audit: codeReleasesAudit,
  deps: () => createCodeReleasesDeps(env),
});
