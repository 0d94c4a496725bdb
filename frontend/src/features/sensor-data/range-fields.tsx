/** The From and To of a custom range (`<input type="datetime-local">` text), as the chart and download panels ask. */
export const RangeFields = ({
  value,
  onChange,
  testIdPrefix,
}: {
  value: { from: string; to: string };
  onChange: (update: (value: { from: string; to: string }) => { from: string; to: string }) => void;
  /** The inputs' test ids are `{prefix}-from` and `{prefix}-to`. */
  testIdPrefix: string;
}) => (
  <>
    <label>
      From
      <input
        type="datetime-local"
        data-testid={`${testIdPrefix}-from`}
        value={value.from}
        onChange={(e) => onChange((v) => ({ ...v, from: e.target.value }))}
      />
    </label>
    <label>
      To
      <input
        type="datetime-local"
        data-testid={`${testIdPrefix}-to`}
        value={value.to}
        onChange={(e) => onChange((v) => ({ ...v, to: e.target.value }))}
      />
    </label>
  </>
);
