import { useState } from 'react';
import { ARTIFACT_MAX_BYTES, type ReleaseDetail, Sha256 } from '../../../../shared/contracts/code-releases';
import { ErrorAlert } from '../../components/form-parts';
import { useApi } from '../../lib/api';
import { TextField } from '../../lib/form-fields';
import { useChanges } from '../../lib/query';
import { uploadFile } from '../../lib/upload-file';
import { sha256Hex, sizeText } from './release-rules';
import { releaseShownKeys } from './releases-api';

/**
 * The artifact: for a draft, a file sent by the browser straight to the releases bucket through a presigned PUT,
 * then verified by the server (it reads the bytes back and compares their SHA-256 with the build's, or with the one
 * the browser computed); for a published release, what was verified and a link to download it.
 */
export const ArtifactPanel = ({ release }: { release: ReleaseDetail }) => {
  const api = useApi('code-releases');
  const [file, setFile] = useState<File>();
  const [sha256, setSha256] = useState('');
  const [step, setStep] = useState<string>();
  const { busy, error, setError, run } = useChanges<'upload'>();

  if (release.artifact) {
    const { artifact } = release;
    return (
      <section className="card" aria-labelledby="artifact-heading" data-testid="artifact">
        <h2 id="artifact-heading">Artifact</h2>
        <dl className="artifact-facts">
          <dt>File</dt>
          <dd>
            {release.artifactUrl ? (
              <a href={release.artifactUrl} data-testid="artifact-download">
                {artifact.fileName}
              </a>
            ) : (
              artifact.fileName
            )}{' '}
            <span className="muted">({sizeText(artifact.size)})</span>
          </dd>
          <dt>SHA-256</dt>
          <dd>
            <code className="hash" data-testid="artifact-sha256">
              {artifact.sha256}
            </code>
          </dd>
          <dt>Verified</dt>
          <dd>{new Date(artifact.uploaded).toLocaleString()}</dd>
        </dl>
      </section>
    );
  }

  const upload = () => {
    if (!file) return setError('Choose the firmware file first');
    if (file.size === 0) return setError('An artifact cannot be empty');
    if (file.size > ARTIFACT_MAX_BYTES) return setError(`An artifact is at most ${sizeText(ARTIFACT_MAX_BYTES)}`);
    const given = sha256.trim() ? Sha256.safeParse(sha256) : undefined;
    if (given && !given.success) return setError(given.error.issues[0]?.message);
    void run(
      'upload',
      async () => {
        try {
          setStep('Computing its SHA-256…');
          const checksum = given?.data ?? (await sha256Hex(file));
          const target = await api.createArtifactUpload({ params: { id: release.id }, body: { size: file.size } });
          await uploadFile(target, file, (loaded, total) =>
            setStep(`Uploading… ${Math.round((loaded / Math.max(total, 1)) * 100)} %`),
          );
          setStep('Verifying on the server…');
          await api.setArtifact({
            params: { id: release.id },
            body: { key: target.key, fileName: file.name, sha256: checksum },
          });
        } finally {
          setStep(undefined);
        }
      },
      releaseShownKeys(release.id),
    );
  };

  return (
    <section className="card" aria-labelledby="artifact-heading" data-testid="artifact">
      <h2 id="artifact-heading">Artifact</h2>
      <p className="muted small">
        Uploading publishes the release: the server reads the file back and checks its SHA-256 first. After that the
        release never changes; a fix is a new version.
      </p>
      <ErrorAlert testId="artifact-error" error={error} />
      <div className="field">
        <label htmlFor="artifact-file">Firmware file</label>
        <input
          id="artifact-file"
          data-testid="artifact-file"
          type="file"
          onChange={(event) => setFile(event.target.files?.[0])}
        />
      </div>
      <TextField
        id="artifact-sha256-input"
        label="SHA-256 from your build (optional)"
        value={sha256}
        onChange={setSha256}
        mono
        hint="Left empty, this browser computes it from the file, so the server still proves the upload arrived whole."
      />
      <div className="actions">
        <button type="button" className="primary" data-testid="artifact-upload" onClick={upload} disabled={!!busy}>
          {busy ? 'Uploading…' : 'Upload and publish'}
        </button>
        {step && (
          <span className="muted" role="status" data-testid="artifact-step">
            {step}
          </span>
        )}
      </div>
    </section>
  );
};
