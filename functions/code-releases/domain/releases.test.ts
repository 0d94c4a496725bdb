import type { Caller } from '../../../shared/auth/verify-token';
import { RELEASE_MESSAGES } from '../../../shared/code-releases/messages';
import type { TestRun } from '../../../shared/contracts/code-releases';
import { silentLog } from '../../../test/support/log';
import { rejectionOf } from '../../../test/support/rejection';
import type { StoredRelease } from './records';
import { createReleases } from './releases';

const staff = { sub: 'emp-1', groups: ['Employees'] } as Caller;
const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const KEY = `releases/sd1-1.4.2/artifact-${UUID}`;

/** In-memory stand-ins: the release table with its version check, the runs, and one stored object. */
const world = ({ stored = 'ab'.repeat(32), size = 100 } = {}) => {
  const releases = new Map<string, StoredRelease>();
  const runs: TestRun[] = [];
  const removed: string[] = [];
  const service = createReleases({
    log: silentLog,
    releases: {
      create: async (release) => !releases.has(release.id) && Boolean(releases.set(release.id, release)),
      get: async (id) => releases.get(id),
      save: async (release, read) => {
        if (releases.get(release.id)?.updated !== read) return false;
        releases.set(release.id, release);
        return true;
      },
      remove: async (id) => releases.delete(id),
      page: async () => ({ items: [...releases.values()], lastKey: undefined }),
      setVerdict: async (id, verdict) => {
        releases.set(id, { ...releases.get(id)!, verdict });
      },
    },
    testRuns: {
      create: async (run) => Boolean(runs.push(run)),
      get: async (_releaseId, id) => runs.find((run) => run.id === id),
      conclude: async () => undefined,
      page: async () => ({ items: runs, lastKey: undefined }),
      results: async () => runs,
    },
    files: {
      uploadUrl: async (key, length) => `https://bucket/${key}?length=${length}`,
      readUrl: async (key) => `https://bucket/${key}`,
      size: async (key) => (key === KEY && !removed.includes(key) ? size : undefined),
      sha256: async () => stored,
      remove: async (key) => {
        removed.push(key);
      },
      removeAll: async () => undefined,
    },
    people: { emailOf: async () => 'employee@example.com' },
    now: () => 5_000,
    newId: () => UUID,
  });
  return { service, releases, runs, removed };
};

describe('releases', () => {
  it('keys a release by product line and version, once', async () => {
    const w = world();
    expect(await w.service.create(staff, { productLine: 'sd1', version: '1.4.2', notes: '' })).toMatchObject({
      id: 'sd1-1.4.2',
      status: 'draft',
    });
    expect(w.releases.get('sd1-1.4.2')!.versionKey).toBe('000001.000004.000002~');
    const again = await rejectionOf(w.service.create(staff, { productLine: 'sd1', version: '1.4.2', notes: '' }));
    expect([again.status, again.message]).toEqual([409, RELEASE_MESSAGES.releaseExists('sd1', '1.4.2')]);
  });

  it('deletes an upload whose SHA-256 is not the one given, and publishes one that matches', async () => {
    const w = world();
    await w.service.create(staff, { productLine: 'sd1', version: '1.4.2', notes: '' });
    const wrong = await rejectionOf(
      w.service.setArtifact(staff, 'sd1-1.4.2', { key: KEY, fileName: 'fw.bin', sha256: 'cd'.repeat(32) }),
    );
    expect([wrong.status, wrong.message]).toEqual([
      400,
      RELEASE_MESSAGES.releaseArtifactMismatch('cd'.repeat(32), 'ab'.repeat(32)),
    ]);
    expect(w.removed).toEqual([KEY]);
    expect(w.releases.get('sd1-1.4.2')!.status).toBe('draft');

    const fresh = world();
    await fresh.service.create(staff, { productLine: 'sd1', version: '1.4.2', notes: '' });
    expect(
      await fresh.service.setArtifact(staff, 'sd1-1.4.2', { key: KEY, fileName: 'fw.bin', sha256: 'ab'.repeat(32) }),
    ).toMatchObject({
      status: 'published',
      published: 5_000,
      artifact: { key: KEY, size: 100, sha256: 'ab'.repeat(32), uploadedBy: 'emp-1' },
    });
    const changed = await rejectionOf(fresh.service.update('sd1-1.4.2', { notes: 'x' }));
    expect([changed.status, changed.message]).toEqual([409, RELEASE_MESSAGES.releasePublished('sd1', '1.4.2')]);
  });

  it('refuses an upload of another release, an empty one and an oversized one', async () => {
    const w = world({ size: 0 });
    await w.service.create(staff, { productLine: 'sd1', version: '1.4.3', notes: '' });
    expect((await rejectionOf(w.service.setArtifact(staff, 'sd1-1.4.3', { key: KEY, fileName: 'a' }))).message).toBe(
      RELEASE_MESSAGES.releaseArtifactKey,
    );
    await w.service.create(staff, { productLine: 'sd1', version: '1.4.2', notes: '' });
    expect((await rejectionOf(w.service.setArtifact(staff, 'sd1-1.4.2', { key: KEY, fileName: 'a' }))).message).toBe(
      RELEASE_MESSAGES.releaseArtifactEmpty,
    );
    const big = world({ size: 65 * 1024 * 1024 });
    await big.service.create(staff, { productLine: 'sd1', version: '1.4.2', notes: '' });
    expect((await rejectionOf(big.service.setArtifact(staff, 'sd1-1.4.2', { key: KEY, fileName: 'a' }))).status).toBe(
      400,
    );
    expect(big.removed).toEqual([KEY]);
  });

  it('records a test run with who ran it and the tested bytes, and keeps a result as the verdict', async () => {
    const w = world();
    await w.service.create(staff, { productLine: 'sd1', version: '1.4.2', notes: '' });
    await w.service.setArtifact(staff, 'sd1-1.4.2', { key: KEY, fileName: 'fw.bin' });
    const run = await w.service.createTestRun(staff, 'sd1-1.4.2', { status: 'Fail', name: 'HIL', log: 'reset' });
    expect(run).toMatchObject({
      ranBy: 'emp-1',
      ranByEmail: 'employee@example.com',
      artifactSha256: 'ab'.repeat(32),
      finished: 5_000,
    });
    expect(w.releases.get('sd1-1.4.2')!.verdict).toEqual({ status: 'Fail', runId: run.id, at: 5_000 });
    expect((await w.service.get('sd1-1.4.2')).gate).toMatchObject({ open: false, code: 'failed' });
  });
});
