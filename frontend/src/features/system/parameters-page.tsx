import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { hasRole } from '../../../../shared/auth/groups';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { type Parameter, system as systemContract } from '../../../../shared/contracts/system';
import { EditForm } from '../../components/edit-form';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { useApi } from '../../lib/api';
import { checkWith, problem } from '../../lib/form-check';
import { TextField } from '../../lib/form-fields';
import { routeKey, useChanges, useRoutePages } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { UI_MESSAGES } from '../../lib/ui-messages';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { formatValue, parseValueText } from './parameter-list';

type Busy = `save:${string}` | `delete:${string}`;

const LISTED = [routeKey('system', 'listParameters')];

/** A new parameter: its id and its value as JSON, checked here with the API's own words before it is sent. */
const NewParameterForm = () => {
  const system = useApi('system');
  const [id, setId] = useState('');
  const [value, setValue] = useState('');
  const form = useCheckedSubmit(
    () => {
      const parsed = parseValueText(value);
      if (!parsed.ok) return problem('value', parsed.error);
      return checkWith(systemContract.routes.createParameter.body!, { id: id.trim(), value: parsed.value });
    },
    async (body) => {
      await system.createParameter({ body });
      setId('');
      setValue('');
      return undefined;
    },
    LISTED,
  );
  return (
    <EditForm name="parameter-new" title="New parameter" form={form} submitText="Create" busyText="Creating…">
      <TextField
        id="parameter-new-id"
        label="Id"
        value={id}
        onChange={setId}
        mono
        placeholder="e.g. billing.enabled"
        error={form.fields.id}
      />
      <TextField
        id="parameter-new-value"
        label="Value (JSON)"
        value={value}
        onChange={setValue}
        multiline
        mono
        placeholder='e.g. true, 42, "text" or {"key": 1}'
        error={form.fields.value}
      />
    </EditForm>
  );
};

/**
 * `/admin/parameters`: the system area's parameters, paged. Administrators create, edit and delete;
 * Employees see the list read-only (the API enforces the same rule; hiding the buttons only saves a 403).
 */
export const ParametersPage = () => {
  const system = useApi('system');
  const { groups } = useSignedInUser();
  const canWrite = hasRole(groups, 'Administrators');

  const list = useRoutePages('system', 'listParameters', { query: { limit: DEFAULT_PAGE_SIZE } });
  const { busy, error: changeError, setError, run } = useChanges<Busy>();
  const error = changeError ?? list.error;
  const [editing, setEditing] = useState<{ id: string; text: string }>();

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!editing) return;
    const { id, text } = editing;
    const parsed = parseValueText(text);
    if (!parsed.ok) return setError(parsed.error);
    void run(`save:${id}`, async () => {
      await system.updateParameter({ params: { id }, body: { value: parsed.value } });
      setEditing(undefined);
    }, [...LISTED, routeKey('system', 'getParameter', { params: { id } })]);
  };

  const remove = (id: string) => {
    if (!window.confirm(UI_MESSAGES.parameterDeleteConfirm(id))) return;
    void run(`delete:${id}`, async () => {
      await system.deleteParameter({ params: { id } });
      if (editing?.id === id) setEditing(undefined);
    }, [...LISTED, routeKey('system', 'getParameter', { params: { id } })]);
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

      {canWrite && <NewParameterForm />}

      <PagedList
        list={list}
        name="parameters"
        errorShownAbove
        loadingText="Loading parameters…"
        empty="No parameters yet."
      >
        <ListTable
          label="System parameters"
          rows={list.items}
          rowKey={(parameter) => parameter.id}
          rowTestId={(parameter) => `parameter-row-${parameter.id}`}
          columns={[
            { header: 'Id', className: 'mono', cell: (parameter) => parameter.id },
            {
              header: 'Value',
              cellData: (parameter) => ({ 'data-testid': `parameter-value-${parameter.id}` }),
              cell: (parameter) => {
                const { id } = parameter;
                return editing?.id === id ? (
                  <form id={`parameter-edit-form-${id}`} onSubmit={save}>
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
                );
              },
            },
            {
              header: 'Updated',
              cell: (parameter) => (
                <time dateTime={new Date(parameter.updated).toISOString()}>
                  {new Date(parameter.updated).toLocaleString()}
                </time>
              ),
            },
            canWrite && {
              header: 'Actions',
              cell: (parameter) => {
                const { id } = parameter;
                return (
                  <div className="actions">
                    {editing?.id === id ? (
                      <>
                        <button
                          type="submit"
                          form={`parameter-edit-form-${id}`}
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
                );
              },
            },
          ]}
        />
      </PagedList>
    </section>
  );
};
