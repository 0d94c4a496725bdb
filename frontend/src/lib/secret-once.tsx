import { type ReactNode, useEffect, useRef } from 'react';
import { CopyButton } from './copy-button';

/**
 * A value the API answers once (a secret, a claim code): the warning in `children`, the value with a copy button,
 * and, with `onHide`, a way to put it away once stored. It takes the focus when it appears (and when its value
 * changes), which also scrolls it into view: on a phone the form's button is a screen below it, and a value that
 * is shown once must not be missed.
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
}) => {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (value) box.current?.focus();
  }, [value]);
  return (
    <div className="secret-once" role="status" tabIndex={-1} ref={box} data-testid={testId}>
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
};
