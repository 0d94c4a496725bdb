import type { ReactNode } from 'react';
import { CopyButton } from '../../lib/copy-button';
import type { NotebookLines } from './open-data-rules';
import './use-this-data.css';

/**
 * "Use this data" (docs/open-data.md): what a researcher takes to a notebook or a GIS tool, the SensorThings URL (any
 * SensorThings client reads it), where the Parquet file comes from, and one line of Python and of R. The page gives
 * what fits it: a dataset its frozen files, a device its live Observations.
 */
export const UseThisData = ({
  staUrl,
  staNote,
  parquet,
  lines,
  linesNote,
}: {
  staUrl: string;
  staNote: ReactNode;
  parquet: ReactNode;
  lines: NotebookLines;
  linesNote: ReactNode;
}) => (
  <section className="card section-card use-data" aria-labelledby="use-data-heading" data-testid="use-data">
    <h2 id="use-data-heading">Use this data</h2>
    <dl className="facts">
      <dt>SensorThings API</dt>
      <dd>
        <a href={staUrl} className="mono" data-testid="use-data-sta">
          {staUrl}
        </a>
        <div className="actions">
          <CopyButton text={staUrl} testId="use-data-sta-copy" />
        </div>
        <p className="muted small" data-testid="use-data-sta-note">
          {staNote}
        </p>
      </dd>
      <dt>Parquet</dt>
      <dd data-testid="use-data-parquet">{parquet}</dd>
      <dt>Python</dt>
      <dd>
        <pre data-testid="use-data-python">{lines.python}</pre>
      </dd>
      <dt>R</dt>
      <dd>
        <pre data-testid="use-data-r">{lines.r}</pre>
        <p className="muted small">{linesNote}</p>
      </dd>
    </dl>
  </section>
);
