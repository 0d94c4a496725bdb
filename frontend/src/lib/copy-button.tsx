import { useState } from 'react';

/**
 * Copies a one-time value (a secret, a claim code) to the clipboard and says so. Where the clipboard is refused
 * (an insecure origin, a denied permission) it says that instead: the value stays on screen to copy by hand.
 */
export const CopyButton = ({ text, testId }: { text: string; testId: string }) => {
  const [outcome, setOutcome] = useState<'copied' | 'refused'>();
  const copy = () => {
    if (!navigator.clipboard) return setOutcome('refused');
    navigator.clipboard.writeText(text).then(
      () => setOutcome('copied'),
      () => setOutcome('refused'),
    );
  };
  return (
    <>
      <button type="button" data-testid={testId} onClick={copy}>
        Copy
      </button>
      <span className="muted small" role="status" data-testid={`${testId}-outcome`}>
        {outcome === 'copied'
          ? 'Copied.'
          : outcome === 'refused'
            ? 'The browser refused the clipboard: copy it by hand.'
            : ''}
      </span>
    </>
  );
};
