import type { codeReleases } from '../../../shared/contracts/code-releases';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { CodeReleasesDeps } from '../deps';

export const codeReleaseHandlers: AreaHandlers<typeof codeReleases, CodeReleasesDeps> = {
  listReleases: ({ query }, { releases }) => releases.list(query.productLine, query),
  createRelease: ({ caller, body }, { releases }) => releases.create(caller, body),
  getRelease: ({ params }, { releases }) => releases.get(params.id),
  updateRelease: ({ params, body }, { releases }) => releases.update(params.id, body),
  deleteRelease: ({ params }, { releases }) => releases.remove(params.id),
  createArtifactUpload: ({ params, body }, { releases }) => releases.createArtifactUpload(params.id, body),
  setArtifact: ({ caller, params, body }, { releases }) => releases.setArtifact(caller, params.id, body),
  listTestRuns: ({ params, query }, { releases }) => releases.listTestRuns(params.id, query),
  createTestRun: ({ caller, params, body }, { releases }) => releases.createTestRun(caller, params.id, body),
  concludeTestRun: ({ caller, params, body }, { releases }) =>
    releases.concludeTestRun(caller, params.id, params.runId, body),
  listRollouts: ({ params, query }, { rollouts }) => rollouts.list(params.id, query),
  createRollout: ({ caller, params, body }, { rollouts }) => rollouts.create(caller, params.id, body),
  getRollout: ({ params }, { rollouts }) => rollouts.get(params.id),
  listRolloutDevices: ({ params, query }, { rollouts }) => rollouts.devices(params.id, query),
  haltRollout: ({ caller, params, body }, { rollouts }) => rollouts.halt(caller, params.id, body.reason),
  advanceRollout: ({ caller, params, body }, { rollouts }) => rollouts.advance(caller, params.id, body.fromStage),
  resumeRollout: ({ caller, params }, { rollouts }) => rollouts.resume(caller, params.id),
  rollbackRollout: ({ caller, params, body }, { rollouts }) => rollouts.rollback(caller, params.id, body.reason),
};
