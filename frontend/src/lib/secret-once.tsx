import type { ReactNode } from 'react';
import { CopyButton } from './copy-button';

/**
 * A value the API answers once (a secret, a claim code): the warning in `children`, the value with a copy button,
 * and, with `onHide`, a way to put it away once stored.
 */
export const SecretOnce = ({
  value,
  testId,
  valueTestId,
  copyTestId,
  onHide,
  children,
}: {
  value: string;
  testId: string;
  valueTestId: string;
  copyTestId: string;
  onHide?: () => void;
  children: ReactNode;
}) => (
  <div className="secret-once" role="status" data-testid={testId}>
    <p>{children}</p>
    <div className="secret-row">
      <code data-testid={valueTestId}>{value}</code>
      <CopyButton text={value} testId={copyTestId} />
    </div>
    {onHide && (
      <button type="button" className="link-button small" onClick={onHide}>
        I have stored it, hide it
      </button>
    )}
  </div>
);
