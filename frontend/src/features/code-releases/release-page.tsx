import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ErrorAlert } from '../../components/form-parts';
import { useApi } from '../../lib/api';
import { errorOf, routeKey, routeQuery, useChanges } from '../../lib/query';
import { ArtifactPanel } from './artifact-panel';
import { ReleaseStatusBadge } from './releases-page';
import { RolloutsPanel } from './rollouts-panel';
import { TestRunsPanel } from './test-runs-panel';
import './code-releases.css';
import { PRODUCT_LINE_NAMES } from '../../../../shared/text/product-words';

/**
 * `/admin/releases/{id}`: one release with its artifact, its test runs (spec §4's statuses) and its rollouts with
 * their adoption; the rollout form says why a rollout is refused while it is.
 */
export const ReleasePage = () => {
  const { id = '' } = useParams();
  const api = useApi('code-releases');
  const navigate = useNavigate();
  const release = useQuery(routeQuery('code-releases', 'getRelease', { params: { id } }));
  const { busy, error, run } = useChanges<'delete'>();
  const data = release.data;
  return (
    <section className="page release-page">
      <p className="small">
        <Link to="/admin/releases">← Releases</Link>
      </p>
      <ErrorAlert testId="release-error" error={error ?? errorOf(release)} />
      {release.isPending && <p className="muted">Loading the release…</p>}
      {data && (
        <>
          <h1 data-testid="release-title">
            {PRODUCT_LINE_NAMES[data.productLine]} {data.version} <ReleaseStatusBadge status={data.status} />
          </h1>
          {data.notes ? (
            <p className="release-notes" data-testid="release-notes">
              {data.notes}
            </p>
          ) : (
            <p className="muted">No notes.</p>
          )}
          {data.status === 'draft' && (
            <p className="actions">
              <button
                type="button"
                className="danger"
                data-testid="release-delete"
                disabled={!!busy}
                onClick={() =>
                  void run('delete', async () => {
                    await api.deleteRelease({ params: { id } });
                    navigate('/admin/releases');
                  }, [routeKey('code-releases', 'listReleases')])
                }
              >
                Delete draft
              </button>
            </p>
          )}
          <ArtifactPanel release={data} />
          <TestRunsPanel releaseId={data.id} published={data.status === 'published'} />
          <RolloutsPanel release={data} />
        </>
      )}
    </section>
  );
};
