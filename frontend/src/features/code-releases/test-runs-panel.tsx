import { useState } from 'react';
import { TEST_RUN_STATUSES, testRunLook } from '../../../../shared/code-releases/test-run-status';
import { NewTestRun, type TestRun } from '../../../../shared/contracts/code-releases';
import { EditForm } from '../../components/edit-form';
import { listItem, PagedList } from '../../components/paged-list';
import { useApi } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { ChoiceField, TextField } from '../../lib/form-fields';
import { useChanges, useRoutePages } from '../../lib/query';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { testRunKeys } from './releases-api';
import { TestRunBadge } from './test-run-badge';

type Status = TestRun['status'];
const STATUS_OPTIONS = TEST_RUN_STATUSES.map((status) => [status, testRunLook(status).label] as const);

const RecordTestRun = ({ releaseId }: { releaseId: string }) => {
  const api = useApi('code-releases');
  const [status, setStatus] = useState<Status>('InProgress');
  const [name, setName] = useState('');
  const [log, setLog] = useState('');
  const form = useCheckedSubmit(
    () => checkWith(NewTestRun, { status, name, log }),
    async (body) => {
      await api.createTestRun({ params: { id: releaseId }, body });
      setName('');
      setLog('');
      return 'Recorded.';
    },
    testRunKeys(releaseId),
  );
  return (
    <EditForm name="test-run" title="Record a test run" form={form} submitText="Record" busyText="Recording…">
      <div className="field-row">
        <ChoiceField id="test-run-status" label="Status" value={status} options={STATUS_OPTIONS} onChange={setStatus} />
        <TextField
          id="test-run-name"
          label="What ran"
          value={name}
          onChange={setName}
          placeholder="Hardware-in-the-loop suite"
          error={form.fields.name}
        />
      </div>
      <TextField id="test-run-log" label="Log" value={log} onChange={setLog} multiline error={form.fields.log} />
    </EditForm>
  );
};

/** A release's test runs, newest first, each with its status (spec §4 colours and icons), log and who ran it. */
export const TestRunsPanel = ({ releaseId, published }: { releaseId: string; published: boolean }) => {
  const api = useApi('code-releases');
  const runs = useRoutePages('code-releases', 'listTestRuns', { params: { id: releaseId }, query: { limit: 20 } });
  const { busy, error, run } = useChanges<string>();
  const conclude = (runId: string, status: 'Pass' | 'Fail') =>
    void run(
      runId,
      () => api.concludeTestRun({ params: { id: releaseId, runId }, body: { status } }),
      testRunKeys(releaseId),
    );
  return (
    <section className="card" aria-labelledby="test-runs-heading">
      <h2 id="test-runs-heading">Test runs</h2>
      <PagedList
        list={runs}
        name="test-runs"
        error={error}
        empty={published ? 'No test run yet.' : 'Test runs are recorded once the artifact is uploaded and verified.'}
      >
        <ol className="test-runs" data-testid="test-runs">
          {runs.items.map((testRun) => (
            <li key={testRun.id} className="test-run" data-testid={`test-run-${testRun.id}`} {...listItem(testRun.id)}>
              <div className="test-run-head">
                <TestRunBadge status={testRun.status} testId="test-run-result" />
                <strong>{testRun.name}</strong>
                <span className="muted small">
                  by {testRun.ranByEmail ?? testRun.ranBy}, {new Date(testRun.started).toLocaleString()}
                  {testRun.finished && testRun.finished !== testRun.started
                    ? `, result ${new Date(testRun.finished).toLocaleString()}`
                    : ''}
                </span>
              </div>
              {testRun.log && (
                <details>
                  <summary>Log</summary>
                  <pre className="test-run-log">{testRun.log}</pre>
                </details>
              )}
              {testRun.status === 'InProgress' && (
                <div className="actions">
                  <button type="button" disabled={!!busy} onClick={() => conclude(testRun.id, 'Pass')}>
                    Record pass
                  </button>
                  <button type="button" disabled={!!busy} onClick={() => conclude(testRun.id, 'Fail')}>
                    Record failure
                  </button>
                </div>
              )}
            </li>
          ))}
        </ol>
      </PagedList>
      {published && <RecordTestRun releaseId={releaseId} />}
    </section>
  );
};
