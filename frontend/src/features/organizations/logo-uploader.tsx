import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import type { Organization } from '../../../../shared/contracts/organizations';
import { DoneNote, ErrorAlert, SubmitButton } from '../../components/form-parts';
import { useApi } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { uploadFile } from '../../lib/upload-file';
import { organizationShownKeys } from './organization-api';
import { byteSize, checkLogoFile, LOGO_ACCEPT, LOGO_LIMIT_TEXT, percentOf } from './organization-rules';

type Stage = 'idle' | 'asking' | 'uploading' | 'confirming';

const STAGE_TEXT: Record<Stage, string> = {
  idle: '',
  asking: 'Preparing the upload…',
  uploading: 'Uploading…',
  confirming: 'Checking the file…',
};

/**
 * A new logo: the file is checked here against the API's limits (type, size), then the API gives a presigned
 * upload URL, the file goes straight to the file store with its progress shown, and the API checks the stored
 * file before it becomes the logo. Every refusal is shown in words.
 */
export const LogoUploader = ({ organization }: { organization: Organization }) => {
  const organizations = useApi('organizations');
  const queries = useQueryClient();
  // The logo shows on the organization's page and beside it in the lists.
  const shown = () =>
    Promise.all(organizationShownKeys(organization.id).map((queryKey) => queries.invalidateQueries({ queryKey })));
  const [file, setFile] = useState<File>();
  const [fileError, setFileError] = useState<string>();
  const [error, setError] = useState<string>();
  const [stage, setStage] = useState<Stage>('idle');
  const [percent, setPercent] = useState<number>();
  const [done, setDone] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController>(undefined);

  useEffect(() => () => abort.current?.abort(), []);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setDone(undefined);
    setError(undefined);
    setPercent(undefined);
    if (!chosen) return setFile(undefined);
    const checked = checkLogoFile(chosen);
    setFileError(checked.ok ? undefined : checked.error);
    setFile(checked.ok ? chosen : undefined);
  };

  const upload = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file) return setFileError(fileError ?? 'Choose an image file first');
    const checked = checkLogoFile(file);
    if (!checked.ok) return setFileError(checked.error);
    setError(undefined);
    setDone(undefined);
    const controller = new AbortController();
    abort.current = controller;
    try {
      setStage('asking');
      const target = await organizations.createLogoUpload({
        params: { id: organization.id },
        body: { contentType: checked.contentType, size: checked.size },
      });
      setStage('uploading');
      setPercent(0);
      await uploadFile(target, file, (loaded, total) => setPercent(percentOf(loaded, total)), controller.signal);
      setStage('confirming');
      await organizations.setLogo({ params: { id: organization.id }, body: { key: target.key } });
      await shown();
      setDone('The new logo is in place.');
      setFile(undefined);
      if (input.current) input.current.value = '';
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setStage('idle');
      abort.current = undefined;
    }
  };

  const remove = async () => {
    if (!window.confirm('Remove the logo?')) return;
    setError(undefined);
    setDone(undefined);
    try {
      await organizations.deleteLogo({ params: { id: organization.id } });
      await shown();
      setDone('The logo was removed.');
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  const busy = stage !== 'idle';
  return (
    <form
      className="card create-form"
      onSubmit={upload}
      noValidate
      aria-labelledby="logo-heading"
      data-testid="logo-form"
    >
      <h2 id="logo-heading">Logo</h2>
      <ErrorAlert testId="logo-error" error={error} />
      <DoneNote text={done} testId="logo-done" />
      <div className={fileError ? 'field field-invalid' : 'field'}>
        <label htmlFor="logo-file">Image file</label>
        <input
          ref={input}
          id="logo-file"
          data-testid="logo-file"
          type="file"
          accept={LOGO_ACCEPT}
          onChange={choose}
          disabled={busy}
          aria-describedby="logo-file-hint"
          {...(fileError ? { 'aria-invalid': true } : {})}
        />
        <span className="muted small" id="logo-file-hint">
          {LOGO_LIMIT_TEXT}.{file && ` Chosen: ${file.name}, ${byteSize(file.size)}.`}
        </span>
        {fileError && (
          <span className="field-error" role="alert" data-testid="logo-file-error">
            {fileError}
          </span>
        )}
      </div>
      {percent !== undefined && (
        <div className="upload-progress" data-testid="logo-progress-box">
          <progress
            max={100}
            value={percent}
            data-testid="logo-progress"
            aria-label="Upload progress"
            aria-valuetext={`${percent} %`}
          />
          <span data-testid="logo-percent">{percent} %</span>
          <span className="muted small">{STAGE_TEXT[stage]}</span>
        </div>
      )}
      {busy && percent === undefined && <p className="muted small">{STAGE_TEXT[stage]}</p>}
      <div className="actions">
        <SubmitButton testId="logo-upload" busy={busy} busyText={STAGE_TEXT[stage] || 'Uploading…'} disabled={!file}>
          Upload logo
        </SubmitButton>
        {busy && (
          <button type="button" data-testid="logo-cancel" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        )}
        {organization.logo && !busy && (
          <button type="button" className="danger" data-testid="logo-remove" onClick={() => void remove()}>
            Remove logo
          </button>
        )}
      </div>
    </form>
  );
};
