import type { Caller } from '../../../shared/auth/verify-token';
import { RELEASE_MESSAGES } from '../../../shared/code-releases/messages';
import { rolloutGate } from '../../../shared/code-releases/rollout-gate';
import { parseSemVer, versionSortKey } from '../../../shared/code-releases/semver';
import {
  ARTIFACT_MAX_BYTES,
  type ArtifactUpload,
  type codeReleases,
  type Release,
  type ReleaseDetail,
  releaseIdOf,
  type TestRun,
} from '../../../shared/contracts/code-releases';
import type { ParsedRequest } from '../../../shared/contracts/define-route';
import { PRODUCT_LINES } from '../../../shared/contracts/shapes';
import { BadRequest, Conflict, NotFound } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import { pageAcross } from '../../_shared/paging';
import type { ArtifactFiles, People, ReleaseStore, TestRunStore } from './ports';
import { artifactPrefix, isArtifactKeyOf, present, type StoredRelease, testRunIdOf } from './records';

type Body<R extends keyof typeof codeReleases.routes> = ParsedRequest<(typeof codeReleases.routes)[R]>['body'];

export interface ReleasesDeps {
  log: Log;
  releases: Pick<ReleaseStore, 'create' | 'get' | 'save' | 'remove' | 'page' | 'setVerdict'>;
  testRuns: TestRunStore;
  files: Pick<ArtifactFiles, 'uploadUrl' | 'readUrl' | 'size' | 'sha256' | 'remove' | 'removeAll'>;
  people: People;
  now: () => number;
  newId: () => string;
}

interface PageRequest {
  limit: number;
  cursor?: string;
}

/** Long enough to send 64 MB on a slow line; short enough that a leaked URL is soon useless. */
export const UPLOAD_URL_SECONDS = 30 * 60;
export const READ_URL_SECONDS = 15 * 60;

/**
 * Releases, their artifacts and their test runs (docs/code-releases.md). Every staff action of the area is a use
 * case here or in rollouts.ts, so an audit record of who did what can be added in one place per action.
 */
export const createReleases = ({ releases, testRuns, files, people, now, newId, log }: ReleasesDeps) => {
  const find = async (id: string): Promise<StoredRelease> => {
    const release = await releases.get(id);
    if (!release) throw new NotFound(RELEASE_MESSAGES.releaseNotFound(id));
    return release;
  };

  const findDraft = async (id: string): Promise<StoredRelease> => {
    const release = await find(id);
    if (release.status !== 'draft')
      throw new Conflict(RELEASE_MESSAGES.releasePublished(release.productLine, release.version));
    return release;
  };

  const save = async (next: StoredRelease, read: StoredRelease): Promise<StoredRelease> => {
    const saved = { ...next, updated: Math.max(now(), read.updated + 1) };
    if (!(await releases.save(saved, read.updated))) {
      throw new Conflict(
        read.rolledOut
          ? RELEASE_MESSAGES.releaseRolledOut(read.productLine, read.version)
          : RELEASE_MESSAGES.releaseChanged,
      );
    }
    return saved;
  };

  const discard = async (key: string) => {
    try {
      await files.remove(key);
    } catch (error) {
      log('warn', 'Refused artifact not deleted', { key, error: error instanceof Error ? error.message : error });
    }
  };

  const findPublished = async (id: string): Promise<StoredRelease> => {
    const release = await find(id);
    const gate = rolloutGate(release, []);
    if (!gate.open && gate.code === 'draft') throw new Conflict(gate.reason);
    return release;
  };

  return {
    list: async (productLine: string | undefined, page: PageRequest) => {
      const lines = productLine ? [productLine] : [...PRODUCT_LINES];
      const found = await pageAcross(
        lines.map((line) => (startKey, limit) => releases.page(line, limit, startKey)),
        page,
      );
      return { items: found.items.map(present), nextCursor: found.nextCursor };
    },

    create: async (caller: Caller, input: Body<'createRelease'>): Promise<Release> => {
      const version = parseSemVer(input.version);
      if (!version) throw new BadRequest('Version must be a semantic version such as 1.4.2');
      const time = now();
      const release: StoredRelease = {
        id: releaseIdOf(input.productLine, input.version),
        productLine: input.productLine,
        version: input.version,
        versionKey: versionSortKey(version),
        notes: input.notes,
        status: 'draft',
        created: time,
        createdBy: caller.sub,
        updated: time,
      };
      if (!(await releases.create(release)))
        throw new Conflict(RELEASE_MESSAGES.releaseExists(input.productLine, input.version));
      return present(release);
    },

    get: async (id: string): Promise<ReleaseDetail> => {
      const [release, results] = await Promise.all([find(id), testRuns.results(id)]);
      return {
        ...present(release),
        gate: rolloutGate(release, results),
        ...(release.artifact
          ? { artifactUrl: await files.readUrl(release.artifact.key, release.artifact.fileName, READ_URL_SECONDS) }
          : {}),
      };
    },

    update: async (id: string, change: Body<'updateRelease'>): Promise<Release> => {
      const read = await findDraft(id);
      return present(await save({ ...read, notes: change.notes }, read));
    },

    remove: async (id: string): Promise<void> => {
      await findDraft(id);
      await files.removeAll(artifactPrefix(id));
      await releases.remove(id);
    },

    createArtifactUpload: async (id: string, request: Body<'createArtifactUpload'>): Promise<ArtifactUpload> => {
      await findDraft(id);
      const key = `${artifactPrefix(id)}artifact-${newId()}`;
      return {
        url: await files.uploadUrl(key, request.size, UPLOAD_URL_SECONDS),
        method: 'PUT',
        headers: { 'Content-Type': 'application/octet-stream' },
        key,
        expiresAt: now() + UPLOAD_URL_SECONDS * 1000,
      };
    },

    /**
     * Reads the uploaded object back, computes its SHA-256 and compares it with the one given (a refused object is
     * deleted); then the release is published with it and never changes again, except for its test runs.
     */
    setArtifact: async (caller: Caller, id: string, input: Body<'setArtifact'>) => {
      const read = await findDraft(id);
      if (!isArtifactKeyOf(id, input.key)) throw new BadRequest(RELEASE_MESSAGES.releaseArtifactKey);
      const size = await files.size(input.key);
      if (size === undefined) throw new BadRequest(RELEASE_MESSAGES.releaseArtifactMissing);
      const refuse = async (message: string): Promise<never> => {
        await discard(input.key);
        throw new BadRequest(message);
      };
      if (size === 0) return refuse(RELEASE_MESSAGES.releaseArtifactEmpty);
      if (size > ARTIFACT_MAX_BYTES)
        return refuse(RELEASE_MESSAGES.releaseArtifactTooLarge(ARTIFACT_MAX_BYTES / 1024 / 1024));
      const sha256 = await files.sha256(input.key);
      if (input.sha256 && input.sha256 !== sha256)
        return refuse(RELEASE_MESSAGES.releaseArtifactMismatch(input.sha256, sha256));
      const time = now();
      const published = await save(
        {
          ...read,
          status: 'published',
          published: time,
          artifact: {
            key: input.key,
            fileName: input.fileName,
            size,
            sha256,
            uploaded: time,
            uploadedBy: caller.sub,
          },
        },
        read,
      );
      return present(published);
    },

    listTestRuns: async (id: string, page: PageRequest) => {
      await find(id);
      return pageAcross([(startKey, limit) => testRuns.page(id, limit, startKey)], page);
    },

    createTestRun: async (caller: Caller, id: string, input: Body<'createTestRun'>): Promise<TestRun> => {
      const release = await findPublished(id);
      const email = caller.email ?? (await people.emailOf(caller.sub));
      const started = now();
      const run: TestRun = {
        id: testRunIdOf(started, newId()),
        releaseId: id,
        status: input.status,
        name: input.name,
        log: input.log,
        ranBy: caller.sub,
        ...(email ? { ranByEmail: email } : {}),
        started,
        ...(input.status === 'InProgress' ? {} : { finished: started, concludedBy: caller.sub }),
        artifactSha256: release.artifact?.sha256 ?? '',
      };
      if (!(await testRuns.create(run))) throw new Conflict(RELEASE_MESSAGES.releaseChanged);
      if (run.status !== 'InProgress')
        await releases.setVerdict(id, { status: run.status, runId: run.id, at: started });
      return run;
    },

    concludeTestRun: async (caller: Caller, id: string, runId: string, input: Body<'concludeTestRun'>) => {
      await find(id);
      if (!(await testRuns.get(id, runId))) throw new NotFound(RELEASE_MESSAGES.testRunNotFound(runId));
      const finished = now();
      const run = await testRuns.conclude(id, runId, {
        status: input.status,
        finished,
        concludedBy: caller.sub,
        ...(input.log === undefined ? {} : { log: input.log }),
      });
      if (!run) throw new Conflict(RELEASE_MESSAGES.testRunConcluded);
      await releases.setVerdict(id, { status: input.status, runId, at: finished });
      return run;
    },
  };
};

export type Releases = ReturnType<typeof createReleases>;
