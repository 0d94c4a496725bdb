import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { hasRole } from '../../../../shared/auth/groups';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { Parameter } from '../../../../shared/contracts/system';
import { TableScroll } from '../../components/table-scroll';
import { useApi } from '../../lib/api';
import { routeKey, useChanges, useRoutePages } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { UI_MESSAGES } from '../../lib/ui-messages';
import { formatValue, parseValueText } from './parameter-list';

type Busy = 'create' | `save:${string}` | `delete:${string}`;

/**
 * `/admin/parameters`: the system area's parameters, paged. Administrators create, edit and delete;
 * Employees see the list read-only (the API enforces the same rule; hiding the buttons only saves a 403).
 */
export const ParametersPage = () => {
  const system = useApi('system');
  const { groups } = useSignedInUser();
  const canWrite = hasRole(groups, 'Administrators');

  const list = useRoutePages('system', 'listParameters', { query: { limit: DEFAULT_PAGE_SIZE } });
  const { items, nextCursor, loading, loaded } = list;
  const { busy, error: changeError, setError, run } = useChanges<Busy>();
  const error = changeError ?? list.error;
  const [editing, setEditing] = useState<{ id: string; text: string }>();
  const [newId, setNewId] = useState('');
  const [newValue, setNewValue] = useState('');
  const listed = [routeKey('system', 'listParameters')];

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseValueText(newValue);
    if (!parsed.ok) return setError(parsed.error);
    void run(
      'create',
      async () => {
        await system.createParameter({ body: { id: newId.trim(), value: parsed.value } });
        setNewId('');
        setNewValue('');
      },
      listed,
    );
  };

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!editing) return;
    const { id, text } = editing;
    const parsed = parseValueText(text);
    if (!parsed.ok) return setError(parsed.error);
    void run(`save:${id}`, async () => {
      await system.updateParameter({ params: { id }, body: { value: parsed.value } });
      setEditing(undefined);
    }, [...listed, routeKey('system', 'getParameter', { params: { id } })]);
  };

  const remove = (id: string) => {
    if (!window.confirm(UI_MESSAGES.parameterDeleteConfirm(id))) return;
    void run(`delete:${id}`, async () => {
      await system.deleteParameter({ params: { id } });
      if (editing?.id === id) setEditing(undefined);
    }, [...listed, routeKey('system', 'getParameter', { params: { id } })]);
  };

  const startEditing = (parameter: Parameter) => {
    setError(undefined);
    setEditing({ id: parameter.id, text: formatValue(parameter.value) });
  };

  const cancelOnEscape = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') setEditing(undefined);
  };

  return (
    <section className="page">
      <h1>System parameters</h1>

      {!canWrite && (
        <p className="notice" data-testid="parameters-read-only">
          {UI_MESSAGES.parametersReadOnly}
        </p>
      )}

      {error && (
        <p className="error" role="alert" data-testid="page-error">
          {error}
        </p>
      )}

      {canWrite && (
        <form className="card create-form" onSubmit={create} aria-labelledby="parameter-new-heading">
          <h2 id="parameter-new-heading">New parameter</h2>
          <div className="field">
            <label htmlFor="parameter-new-id">Id</label>
            <input
              id="parameter-new-id"
              data-testid="parameter-new-id"
              value={newId}
              onChange={(e) => setNewId(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              placeholder="e.g. billing.enabled"
            />
          </div>
          <div className="field">
            <label htmlFor="parameter-new-value">Value (JSON)</label>
            <textarea
              id="parameter-new-value"
              data-testid="parameter-new-value"
              value={newValue}
              onChange={(e) => setNewValue(e.target.value)}
              rows={3}
              spellCheck={false}
              placeholder='e.g. true, 42, "text" or {"key": 1}'
            />
          </div>
          <button type="submit" className="primary" data-testid="parameter-create" disabled={busy === 'create'}>
            {busy === 'create' ? 'Creating…' : 'Create'}
          </button>
        </form>
      )}

      <TableScroll label="System parameters">
        <table className="table" aria-busy={loading === 'first'}>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Value</th>
              <th scope="col">Updated</th>
              {canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {items.map((parameter) => {
              const { id } = parameter;
              const isEditing = editing?.id === id;
              const formId = `parameter-edit-form-${id}`;
              return (
                <tr key={id} data-testid={`parameter-row-${id}`}>
                  <th scope="row" className="mono">
                    {id}
                  </th>
                  <td data-label="Value" data-testid={`parameter-value-${id}`}>
                    {isEditing ? (
                      <form id={formId} onSubmit={save}>
                        <label className="visually-hidden" htmlFor={`parameter-edit-input-${id}`}>
                          Value of {id} (JSON)
                        </label>
                        <input
                          id={`parameter-edit-input-${id}`}
                          data-testid={`parameter-edit-input-${id}`}
                          className="mono"
                          value={editing.text}
                          onChange={(e) => setEditing({ id, text: e.target.value })}
                          onKeyDown={cancelOnEscape}
                          spellCheck={false}
                          // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this value
                          autoFocus
                        />
                      </form>
                    ) : (
                      <code>{formatValue(parameter.value)}</code>
                    )}
                  </td>
                  <td data-label="Updated">
                    <time dateTime={new Date(parameter.updated).toISOString()}>
                      {new Date(parameter.updated).toLocaleString()}
                    </time>
                  </td>
                  {canWrite && (
                    <td data-label="Actions">
                      <div className="actions">
                        {isEditing ? (
                          <>
                            <button
                              type="submit"
                              form={formId}
                              className="primary"
                              data-testid={`parameter-save-${id}`}
                              aria-label={`Save ${id}`}
                              disabled={busy === `save:${id}`}
                            >
                              Save
                            </button>
                            <button
                              type="button"
                              data-testid={`parameter-cancel-${id}`}
                              aria-label={`Cancel editing ${id}`}
                              onClick={() => setEditing(undefined)}
                            >
                              Cancel
                            </button>
                          </>
                        ) : (
                          <button
                            type="button"
                            data-testid={`parameter-edit-${id}`}
                            aria-label={`Edit ${id}`}
                            onClick={() => startEditing(parameter)}
                          >
                            Edit
                          </button>
                        )}
                        <button
                          type="button"
                          className="danger"
                          data-testid={`parameter-delete-${id}`}
                          aria-label={`Delete ${id}`}
                          onClick={() => remove(id)}
                          disabled={busy === `delete:${id}`}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>

      {loading === 'first' && <p className="muted">Loading parameters…</p>}
      {loaded && items.length === 0 && !nextCursor && (
        <p className="muted" data-testid="parameters-empty">
          No parameters yet.
        </p>
      )}
      {nextCursor && (
        <button
          type="button"
          className="load-more"
          data-testid="parameters-load-more"
          onClick={() => void list.loadMore()}
          disabled={loading !== undefined}
        >
          {loading === 'more' ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
};
