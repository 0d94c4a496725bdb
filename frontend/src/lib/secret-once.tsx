import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { CopyButton } from './copy-button';

/**
 * A value the API answers once (a secret, a claim code): the warning in `children`, the value with a copy button,
 * and, with `onHide`, a way to put it away once stored. It is scrolled wholly into view and takes the focus when it
 * appears (and when its value changes): on a phone the form's button is a screen below it, and a value that is
 * shown once must not be missed.
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
  // Scrolled into view at once, before paint, and only then focused without a scroll of its own: the scroll that
  // focus() does is animated by Chromium (about half a second), and while it runs the value is still off screen;
  // at the moment it appears it usually lies above the window (the page kept the fields in view as it was inserted).
  useLayoutEffect(() => {
    const element = box.current;
    if (!value || !element) return;
    element.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
    element.focus({ preventScroll: true });
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
