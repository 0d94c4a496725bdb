/** A change's outcome in words, announced politely (errors use ErrorAlert, announced at once). */
export const DoneNote = ({ text, testId }: { text: string | undefined; testId: string }) =>
  text && (
    <p className="notice" role="status" data-testid={testId}>
      {text}
    </p>
  );
