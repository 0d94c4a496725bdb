import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { NewRelease, type Release } from '../../../../shared/contracts/code-releases';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { PRODUCT_LINES, type ProductLine } from '../../../../shared/contracts/devices';
import { EditForm } from '../../components/edit-form';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { useApi } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { ChoiceField, TextField } from '../../lib/form-fields';
import { routeKey, useRoutePages } from '../../lib/query';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { TestRunBadge } from './test-run-badge';
import './code-releases.css';
import { PRODUCT_LINE_NAMES } from '../../../../shared/text/product-words';

const LINE_OPTIONS = PRODUCT_LINES.map((line) => [line, PRODUCT_LINE_NAMES[line]] as const);
const FILTER_OPTIONS = [['', 'Every product line'] as const, ...LINE_OPTIONS];

export const ReleaseStatusBadge = ({ status }: { status: Release['status'] }) => (
  <span className={`badge release-${status}`} data-testid="release-status">
    {status === 'draft' ? 'Draft' : 'Published'}
  </span>
);

/** A new draft release: product line, semantic version and notes; the page that opens takes the artifact. */
const NewReleaseForm = () => {
  const api = useApi('code-releases');
  const navigate = useNavigate();
  const [productLine, setProductLine] = useState<ProductLine>('sd1');
  const [version, setVersion] = useState('');
  const [notes, setNotes] = useState('');
  const form = useCheckedSubmit(
    () => checkWith(NewRelease, { productLine, version, notes }),
    async (body) => {
      const release = await api.createRelease({ body });
      navigate(`/admin/releases/${encodeURIComponent(release.id)}`);
      return undefined;
    },
    [routeKey('code-releases', 'listReleases')],
  );
  return (
    <EditForm
      name="new-release"
      title="New release"
      intro="A draft until its artifact is uploaded and its SHA-256 verified; published releases never change."
      form={form}
      submitText="Create release"
      busyText="Creating…"
    >
      <div className="field-row">
        <ChoiceField
          id="release-product-line"
          label="Product line"
          value={productLine}
          options={LINE_OPTIONS}
          onChange={setProductLine}
          error={form.fields.productLine}
        />
        <TextField
          id="release-version"
          label="Version"
          value={version}
          onChange={setVersion}
          placeholder="1.4.2"
          mono
          error={form.fields.version}
          hint="Semantic version: 1.4.2, 2.0.0-rc.1"
        />
      </div>
      <TextField
        id="release-notes"
        label="Notes"
        value={notes}
        onChange={setNotes}
        multiline
        error={form.fields.notes}
      />
    </EditForm>
  );
};

/** `/admin/releases`: firmware releases by product line, newest version first, and a form for a new one. */
export const ReleasesPage = () => {
  const [line, setLine] = useState<'' | ProductLine>('');
  const list = useRoutePages('code-releases', 'listReleases', {
    query: { limit: DEFAULT_PAGE_SIZE, ...(line ? { productLine: line } : {}) },
  });
  return (
    <section className="page">
      <h1>Releases</h1>
      <p className="muted">
        Firmware per product line. A release rolls out only while its latest test result is a pass; devices report the
        version they run, which is how adoption is counted.
      </p>
      <NewReleaseForm />
      <div className="releases-filter">
        <ChoiceField id="releases-filter" label="Show" value={line} options={FILTER_OPTIONS} onChange={setLine} />
      </div>
      <PagedList list={list} name="releases" loadingText="Loading releases…" empty="No releases yet.">
        <ListTable
          label="Releases"
          testId="releases"
          rows={list.items}
          rowKey={(release) => release.id}
          rowTestId={(release) => `release-row-${release.id}`}
          columns={[
            {
              header: 'Release',
              cell: (release) => (
                <Link to={`/admin/releases/${encodeURIComponent(release.id)}`}>
                  {PRODUCT_LINE_NAMES[release.productLine]} {release.version}
                </Link>
              ),
            },
            { header: 'Status', cell: (release) => <ReleaseStatusBadge status={release.status} /> },
            {
              header: 'Latest test',
              cell: (release) =>
                release.verdict ? (
                  <TestRunBadge status={release.verdict.status} />
                ) : (
                  <span className="muted">None yet</span>
                ),
            },
            { header: 'Created', cell: (release) => new Date(release.created).toLocaleDateString() },
          ]}
        />
      </PagedList>
    </section>
  );
};
