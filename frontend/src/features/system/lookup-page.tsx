import { type FormEvent, useState } from 'react';
import type { BatchGetResult } from '../../../../shared/contracts/system';
import { ErrorAlert } from '../../components/form-parts';
import { useApi } from '../../lib/api';
import { ChoiceField, FieldFrame } from '../../lib/form-fields';
import { errorOf, useChanges } from '../../lib/query';
import { useLookupTables } from './cache-api';
import { keyText, parseKeys } from './cache-rules';
import './cache.css';

/**
 * `/admin/lookup` (docs/system.md, "Item look-up"): staff pick a table the platform allows, type keys one a line and
 * see the items as stored (POST /batchGetDdbItems), never a secret: what each table withholds is said on the page.
 */
export const LookupPage = () => {
  const system = useApi('system');
  const tables = useLookupTables();
  const [chosen, setChosen] = useState<string>();
  const [keysText, setKeysText] = useState('');
  const [result, setResult] = useState<{ table: string; answer: BatchGetResult }>();
  const { busy, error, setError, run } = useChanges<'lookup'>();

  const items = tables.data?.items ?? [];
  const table = items.find((t) => t.table === (chosen ?? items[0]?.table));

  const lookUp = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!table) return;
    const parsed = parseKeys(keysText, table);
    if (!parsed.ok) return setError(parsed.error);
    void run('lookup', async () => {
      const answer = await system.batchGetDdbItems({
        body: { params: { RequestItems: { [table.table]: { Keys: parsed.keys } } } },
      });
      setResult({ table: table.table, answer });
    });
  };

  const found = result ? (result.answer.Responses[result.table] ?? []) : [];
  const missing = result ? (result.answer.missing[result.table] ?? []) : [];
  const unread = result ? (result.answer.UnprocessedKeys[result.table]?.Keys ?? []) : [];
  const withheld = result ? (result.answer.withheld[result.table] ?? []) : [];

  return (
    <section className="page">
      <h1>Look up items</h1>
      <p className="muted">
        Records as the platform stores them, by key, from the tables staff may read. Secrets (credential, API key and
        claim code hashes, unsubscribe tokens) are never shown; tables that hold little else cannot be chosen.
      </p>
      <ErrorAlert testId="lookup-tables-error" error={errorOf(tables)} />

      <form className="card create-form" onSubmit={lookUp} aria-labelledby="lookup-heading">
        <h2 id="lookup-heading">Keys</h2>
        <ErrorAlert testId="lookup-error" error={error} />
        {table && (
          <>
            <ChoiceField
              id="lookup-table"
              label="Table"
              value={table.table}
              options={items.map((t) => [t.table, t.table] as const)}
              onChange={(value) => {
                setChosen(value);
                setResult(undefined);
              }}
              hint={table.description}
            />
            <FieldFrame
              id="lookup-keys"
              label={`Keys, one a line (${[table.partitionKey, table.sortKey]
                .filter((k) => k !== undefined)
                .map((k) => `${k.name}${k.type === 'N' ? ', a number' : ''}`)
                .join(', then ')})`}
              hint={table.sortKey ? 'Separate the two values with a comma. At most 100 keys.' : 'At most 100 keys.'}
            >
              <textarea
                id="lookup-keys"
                data-testid="lookup-keys"
                className="lookup-keys"
                value={keysText}
                onChange={(e) => setKeysText(e.target.value)}
                spellCheck={false}
                rows={4}
                placeholder={table.sortKey ? 'dev-1#2026-11-20, 1763650000000' : 'demo-device-1'}
              />
            </FieldFrame>
            <div className="actions">
              <button type="submit" className="primary" data-testid="lookup-submit" disabled={busy === 'lookup'}>
                {busy === 'lookup' ? 'Looking up…' : 'Look up'}
              </button>
            </div>
          </>
        )}
        {tables.isPending && <p className="muted">Loading tables…</p>}
      </form>

      {result && (
        <section className="card" aria-labelledby="lookup-result-heading" data-testid="lookup-result">
          <h2 id="lookup-result-heading">
            {found.length} item{found.length === 1 ? '' : 's'} of <code>{result.table}</code>
          </h2>
          {withheld.length > 0 && (
            <p className="muted small" data-testid="lookup-withheld">
              Never shown: {withheld.join(', ')}
            </p>
          )}
          <ul className="lookup-items">
            {found.map((item) => (
              <li key={JSON.stringify(item)}>
                <pre className="lookup-item" data-testid="lookup-item">
                  {JSON.stringify(item, null, 2)}
                </pre>
              </li>
            ))}
          </ul>
          {missing.length > 0 && (
            <p className="notice" data-testid="lookup-missing">
              No item for: {missing.map(keyText).join('; ')}
            </p>
          )}
          {unread.length > 0 && (
            <p className="error" data-testid="lookup-unread">
              Not read this time (the table was busy), look them up again: {unread.map(keyText).join('; ')}
            </p>
          )}
        </section>
      )}
    </section>
  );
};
