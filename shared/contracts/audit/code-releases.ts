import type { codeReleases } from '../code-releases';
import { defineAudit, notAudited } from '../define-audit';

const releaseInPath = { kind: 'release', id: ({ params }: { params: { id: string } }) => params.id } as const;
const rolloutInPath = { kind: 'rollout', id: ({ params }: { params: { id: string } }) => params.id } as const;

/** Staff actions on firmware releases, their test runs and rollouts (docs/audit.md, docs/code-releases.md). */
export const codeReleasesAudit = /* @__PURE__ */ defineAudit<typeof codeReleases>({
  listReleases: notAudited('a read'),
  getRelease: notAudited('a read'),
  listTestRuns: notAudited('a read'),
  listRollouts: notAudited('a read'),
  listRolloutDevices: notAudited('a read'),
  getRollout: notAudited('a read'),
  createRelease: {
    action: 'release.create',
    label: 'Created a firmware release',
    target: { kind: 'release', id: (_request, response) => response?.id },
  },
  updateRelease: { action: 'release.update', label: "Changed a release's notes", target: releaseInPath },
  deleteRelease: { action: 'release.delete', label: 'Deleted a draft release', target: releaseInPath },
  createArtifactUpload: {
    action: 'release.artifact.upload',
    label: "Started uploading a release's artifact",
    target: releaseInPath,
  },
  setArtifact: {
    action: 'release.artifact.verify',
    label: "Verified a release's artifact and published the release",
    target: releaseInPath,
  },
  createTestRun: {
    action: 'release.test-run.create',
    label: 'Recorded a test run of a release',
    target: releaseInPath,
  },
  concludeTestRun: {
    action: 'release.test-run.conclude',
    label: "Recorded a test run's result",
    target: releaseInPath,
  },
  createRollout: { action: 'rollout.create', label: 'Started a rollout of a release', target: releaseInPath },
  haltRollout: { action: 'rollout.halt', label: 'Halted a rollout', target: rolloutInPath },
  advanceRollout: {
    action: 'rollout.advance',
    label: "Started a rollout's next stage without waiting for its soak",
    target: rolloutInPath,
  },
  resumeRollout: { action: 'rollout.resume', label: 'Resumed a halted rollout', target: rolloutInPath },
  rollbackRollout: {
    action: 'rollout.rollback',
    label: 'Rolled a rollout back to the previous release',
    target: rolloutInPath,
  },
});
