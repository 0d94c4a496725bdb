/** "Id …" under an object page's title, the id as the URL has it (even before the object is read). */
export const ObjectIdLine = ({ id }: { id: string }) => (
  <p className="muted small">
    Id{' '}
    <span className="mono" data-testid="object-id">
      {id}
    </span>
  </p>
);
