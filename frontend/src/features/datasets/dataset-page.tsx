import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { Dataset, DatasetFile } from '../../../../shared/contracts/datasets';
import { LICENSE_TITLES } from '../../../../shared/datasets/dataset-rules';
import { ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { When } from '../../components/when';
import { CopyButton } from '../../lib/copy-button';
import { errorMessage } from '../../lib/error-message';
import { ObjectIdLine } from '../../lib/object-id-line';
import { errorOf, routeQuery, useRoutePages } from '../../lib/query';
import { runtimeConfig } from '../../lib/runtime-config';
import { useOptionalUser } from '../../lib/session';
import { fileLines, staRoot, staThingsUrl, UseThisData } from '../sensor-data/public-open-data';
import { signedDatasetFile, useDataset } from './dataset-api';
import {
  datasetStatusText,
  deviceWindowText,
  formatBytes,
  isSettled,
  rangeText,
  STATUS_TEXT,
  VERIFY_COMMAND,
} from './dataset-rules';
import { DatasetTable } from './dataset-table';
import './datasets.css';

/*
 * The list and the landing page are one module, so the router loads them as one chunk and the modules they share with
 * the build page and the campaign page stay out of the app's entry (vite.config.ts: a module shared by three chunks
 * moves there).
 */

/**
 * `/dashboard/datasets/:id`: a dataset's landing page (docs/datasets.md "Screens"). While it builds, its progress;
 * once frozen, the citation to copy, the devices with their tiers, the files with their checksums to download, and
 * the versions. Open to guests for a public dataset.
 */
export const DatasetPage = () => {
  const id = useParams().id ?? '';
  return <DatasetScreen key={id} id={id} />;
};

const DatasetScreen = ({ id }: { id: string }) => {
  const query = useDataset(id);
  const dataset = query.data;
  const error = errorOf(query);
  return (
    <section className="page dataset-page">
      <h1 className="title-with-badge">
        <span data-testid="dataset-title">{dataset?.title ?? 'Dataset'}</span>
        {dataset && (
          <span className={`badge badge-dataset-${dataset.status}`} data-testid="dataset-status">
            {STATUS_TEXT[dataset.status]}
          </span>
        )}
      </h1>
      <ObjectIdLine id={id} />
      <ErrorAlert testId="dataset-error" error={error} />
      {!dataset && !error && <p className="muted">Loading the dataset…</p>}
      {dataset && <DatasetBody dataset={dataset} />}
    </section>
  );
};

const DatasetBody = ({ dataset }: { dataset: Dataset }) => {
  const user = useOptionalUser();
  return (
    <>
      {!isSettled(dataset) || dataset.status === 'failed' ? (
        <div className="upload-progress" data-testid="dataset-progress-box">
          <progress
            max={100}
            value={dataset.progress}
            data-testid="dataset-progress"
            aria-label="Build progress"
            aria-valuetext={`${dataset.progress} %`}
          />
          <span data-testid="dataset-percent">{dataset.progress} %</span>
          <span className="muted small" data-testid="dataset-state" role="status">
            {datasetStatusText(dataset)}
          </span>
        </div>
      ) : (
        <p className="muted small" data-testid="dataset-state">
          {datasetStatusText(dataset)} · frozen <When ms={dataset.frozenAt} />
        </p>
      )}

      <section className="card section-card" aria-labelledby="dataset-cite-heading">
        <h2 id="dataset-cite-heading">Cite this dataset</h2>
        <p className="dataset-citation" data-testid="dataset-citation">
          {dataset.citation}
        </p>
        <div className="actions">
          <CopyButton text={dataset.citation} testId="dataset-citation-copy" />
        </div>
        {dataset.status !== 'frozen' && <p className="muted small">The year becomes the year it is frozen.</p>}
      </section>

      <dl className="facts card" data-testid="dataset-facts">
        <dt>Description</dt>
        <dd data-testid="dataset-description">{dataset.description || <span className="muted">None</span>}</dd>
        <dt>Creators</dt>
        <dd>{dataset.creators.map((creator) => creator.name).join('; ')}</dd>
        <dt>Version</dt>
        <dd data-testid="dataset-version">
          {dataset.version}
          {dataset.previousVersionId && (
            <>
              {' '}
              · follows{' '}
              <Link to={`/dashboard/datasets/${dataset.previousVersionId}`} className="mono">
                {dataset.previousVersionId}
              </Link>
            </>
          )}
        </dd>
        <dt>Visibility</dt>
        <dd data-testid="dataset-visibility">
          {dataset.visibility === 'public'
            ? 'Public: anyone may read it'
            : 'Permissioned: people with access to its data'}
        </dd>
        <dt>Source</dt>
        <dd>
          {dataset.source.campaignId ? (
            <>
              Campaign{' '}
              <Link to={`/dashboard/campaigns/${encodeURIComponent(dataset.source.campaignId)}`}>
                {dataset.source.campaignName}
              </Link>
            </>
          ) : (
            'Chosen devices'
          )}
        </dd>
        <dt>Range</dt>
        <dd>{rangeText(dataset)}</dd>
        <dt>As of</dt>
        <dd>
          <When ms={dataset.asOf} /> <span className="muted small">(tier windows measured back from here)</span>
        </dd>
        <dt>Licence</dt>
        <dd>
          {LICENSE_TITLES[dataset.license]} <span className="muted small mono">({dataset.license})</span>
        </dd>
      </dl>

      <section className="card section-card" aria-labelledby="dataset-devices-heading">
        <h2 id="dataset-devices-heading">Devices</h2>
        <ListTable
          label="Devices in the dataset"
          testId="dataset-devices"
          rows={dataset.devices}
          rowKey={(device) => device.deviceId}
          rowTestId={(device) => `dataset-device-${device.deviceId}`}
          columns={[
            { header: 'Device', cell: (device) => device.name || device.deviceId },
            { header: 'Tier and window', cell: (device) => deviceWindowText(device) },
            { header: 'Rows', cell: (device) => (device.rows === undefined ? '…' : device.rows.toLocaleString('en')) },
          ]}
        />
      </section>

      {dataset.status === 'frozen' && <DatasetUseThisData dataset={dataset} />}
      {dataset.status === 'frozen' && <FilesPanel dataset={dataset} />}
      <VersionsPanel dataset={dataset} />
      {user && dataset.status === 'frozen' && (
        <p>
          <Link
            className="button-link"
            to={`/dashboard/datasets/new?previousVersionId=${dataset.id}`}
            data-testid="dataset-new-version"
          >
            Make a new version
          </Link>
        </p>
      )}
    </>
  );
};

/**
 * A file's Download button: it asks for a fresh 5-minute link to the exact version frozen, then shows the link beside
 * it (S3 answers it as an attachment, so the file is saved without leaving the page).
 */
const SignedFileLink = ({
  file,
  testIdPrefix,
  label,
  onError,
}: {
  file: DatasetFile;
  testIdPrefix: string;
  label: string;
  onError: (message: string | undefined) => void;
}) => {
  const [link, setLink] = useState<string>();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    onError(undefined);
    setBusy(true);
    try {
      setLink(await signedDatasetFile(file));
    } catch (failure) {
      onError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        data-testid={`${testIdPrefix}-download-${file.name}`}
        disabled={busy}
        onClick={() => void download()}
      >
        {busy ? 'Signing…' : label}
      </button>{' '}
      {link && (
        <a href={link} download={file.name} data-testid={`${testIdPrefix}-link-${file.name}`}>
          Save {file.name}
        </a>
      )}
    </>
  );
};

/** The files with their checksums, each with its Download button. */
const FilesPanel = ({ dataset }: { dataset: Dataset }) => {
  const [error, setError] = useState<string>();
  return (
    <section className="card section-card" aria-labelledby="dataset-files-heading">
      <h2 id="dataset-files-heading">Files</h2>
      <p className="muted small">
        A CSV and a JSON per device{dataset.formats.includes('parquet') ? ' (and a Parquet file)' : ''}, and the
        manifest: what the dataset is, the query that made it, and each file's rows, size and SHA-256. Check downloaded
        files against it with <code className="mono">{VERIFY_COMMAND}</code>
      </p>
      <ErrorAlert testId="dataset-files-error" error={error} />
      <ListTable
        label="Files of the dataset"
        testId="dataset-files"
        rows={dataset.files}
        rowKey={(file) => file.name}
        rowTestId={(file) => `dataset-file-${file.name}`}
        columns={[
          { header: 'File', cell: (file) => <span className="mono">{file.name}</span> },
          { header: 'Rows', cell: (file) => (file.rows === undefined ? '—' : file.rows.toLocaleString('en')) },
          { header: 'Size', cell: (file) => formatBytes(file.bytes) },
          {
            header: 'SHA-256',
            className: 'dataset-sha',
            cell: (file) => (
              <span className="mono" data-testid={`dataset-sha-${file.name}`}>
                {file.sha256}
              </span>
            ),
          },
          {
            header: 'Download',
            cell: (file) => <SignedFileLink file={file} testIdPrefix="dataset" label="Download" onError={setError} />,
          },
        ]}
      />
    </section>
  );
};

/**
 * "Use this data" for a frozen dataset: the SensorThings URL of its devices (live data, within their windows), its
 * Parquet files (or the note that this version has none), and how a notebook reads the first device's file.
 */
const DatasetUseThisData = ({ dataset }: { dataset: Dataset }) => {
  const [error, setError] = useState<string>();
  const publicData = dataset.visibility === 'public';
  const root = staRoot(runtimeConfig().apiBaseUrls['sensor-data'] ?? '', publicData);
  const parquet = dataset.files.filter((file) => file.format === 'parquet');
  const first = parquet[0] ?? dataset.files.find((file) => file.format === 'csv');
  return (
    <UseThisData
      staUrl={staThingsUrl(
        root,
        dataset.devices.map((device) => device.deviceId),
      )}
      staNote={
        publicData
          ? 'Any SensorThings client, GIS tool or notebook reads it, no key needed: these devices and their live ' +
            'Observations within their public windows. The files are this version, frozen.'
          : 'With an API key in the X-Api-Key header (Public API page): these devices as your key may read them, ' +
            'live. The files are this version, frozen.'
      }
      parquet={
        parquet.length > 0 ? (
          <>
            <ErrorAlert testId="use-data-parquet-error" error={error} />
            <div>
              {parquet.map((file) => (
                <p key={file.name}>
                  <span className="mono">{file.name}</span> ({formatBytes(file.bytes)}){' '}
                  <SignedFileLink file={file} testIdPrefix="use-data" label="Get the Parquet file" onError={setError} />
                </p>
              ))}
            </div>
          </>
        ) : (
          <span className="muted">
            This version was built without Parquet files: its CSV files read the same way. A new version can carry them.
          </span>
        )
      }
      lines={fileLines(first?.name ?? 'file.csv')}
      linesNote={`Reads ${first?.name ?? 'a file'} once saved: a row per reading, the timestamp in UTC, a column per measurement.`}
    />
  );
};

const VersionsPanel = ({ dataset }: { dataset: Dataset }) => {
  const versions = useQuery(routeQuery('datasets', 'listDatasetVersions', { params: { datasetId: dataset.id } }));
  const items = versions.data?.items ?? [];
  if (items.length < 2) return null;
  return (
    <section className="card section-card" aria-labelledby="dataset-versions-heading">
      <h2 id="dataset-versions-heading">Versions</h2>
      <ol className="dataset-versions" data-testid="dataset-versions">
        {items.map((version) => (
          <li key={version.id}>
            {version.id === dataset.id ? (
              <strong>Version {version.version} (this one)</strong>
            ) : (
              <Link to={`/dashboard/datasets/${version.id}`}>Version {version.version}</Link>
            )}{' '}
            · {STATUS_TEXT[version.status]}
            {version.frozenAt !== undefined && (
              <>
                {' '}
                · <When ms={version.frozenAt} />
              </>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
};

const PAGE = 20;

/**
 * `/dashboard/datasets`: the public datasets, newest first, for everyone; a signed-in person's own datasets with
 * their state above them, and the way to build one.
 */
export const DatasetsPage = () => {
  const user = useOptionalUser();
  return (
    <section className="page">
      <h1>Datasets</h1>
      <p className="muted">
        Frozen extracts of readings with a stable id to cite: their files and checksums never change. A new version gets
        a new id that links to the old.
      </p>
      {user && (
        <p>
          <Link to="/dashboard/datasets/new" className="button-link" data-testid="datasets-new">
            Build a dataset
          </Link>
        </p>
      )}
      {user && <MyDatasets />}
      <PublicDatasets />
    </section>
  );
};

const MyDatasets = () => {
  const list = useRoutePages('datasets', 'listMyDatasets', { query: { limit: PAGE } });
  return (
    <section className="card section-card" aria-labelledby="datasets-mine-heading">
      <h2 id="datasets-mine-heading">Mine</h2>
      <PagedList list={list} name="datasets-mine" empty="You have made no datasets yet.">
        <DatasetTable datasets={list.items} testId="datasets-mine" label="My datasets" />
      </PagedList>
    </section>
  );
};

const PublicDatasets = () => {
  const list = useRoutePages('datasets', 'listPublicDatasets', { query: { limit: PAGE } });
  return (
    <section className="card section-card" aria-labelledby="datasets-public-heading">
      <h2 id="datasets-public-heading">Public datasets</h2>
      <PagedList list={list} name="datasets-public" empty="No public datasets yet.">
        <DatasetTable datasets={list.items} testId="datasets-public" label="Public datasets" />
      </PagedList>
    </section>
  );
};
