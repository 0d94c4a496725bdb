import { useState } from 'react';
import { type CreatedWebhook, NewWebhook, type TargetKind } from '../../../../shared/contracts/integrations';
import { EditForm } from '../../components/edit-form';
import { PagedList } from '../../components/paged-list';
import { useApi } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { TextField } from '../../lib/form-fields';
import { routeKey, useRoutePages } from '../../lib/query';
import { SecretOnce } from '../../lib/secret-once';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import {
  eventLabel,
  eventSummary,
  TARGET_WORDS,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from './integration-rules';
import { listRequest } from './integrations-api';
import { WebhookCard } from './webhook-card';
import './integrations.css';

/** Where the docs show a receiver verifying requests (docs/integrations.md, "A receiver"). */
const RECEIVER_HINT =
  'Verify each request with a Standard Webhooks library (npm: standardwebhooks) and this secret: it checks the signature and refuses replays.';

const AddWebhookForm = ({
  kind,
  id,
  onDone,
}: {
  kind: TargetKind;
  id: string;
  /** The webhook made, or undefined when the form was cancelled. */
  onDone: (made: CreatedWebhook | undefined) => void;
}) => {
  const integrations = useApi('integrations');
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['readings.received']);
  const form = useCheckedSubmit(
    () => checkWith(NewWebhook, { url, description, events, target: { kind, id } }),
    async (body) => {
      onDone(await integrations.createWebhook({ body }));
      return undefined;
    },
    [routeKey('integrations', 'listWebhooks')],
  );
  const toggle = (type: WebhookEventType) =>
    setEvents(
      events.includes(type)
        ? events.filter((e) => e !== type)
        : [...WEBHOOK_EVENT_TYPES.filter((t) => t === type || events.includes(t))],
    );
  return (
    <EditForm
      name="webhook-add"
      level={3}
      title="Add a webhook"
      intro={`Your receiver gets ${TARGET_WORDS[kind]} events as signed HTTPS POSTs; it answers 2xx within 15 seconds.`}
      form={form}
      submitText="Add the webhook"
      busyText="Adding…"
      onCancel={() => onDone(undefined)}
    >
      <TextField
        id="webhook-add-url"
        label="Receiver URL"
        type="url"
        mono
        value={url}
        onChange={setUrl}
        placeholder="https://example.com/hooks/device-data"
        error={form.fields.url}
      />
      <TextField
        id="webhook-add-description"
        label="Description (optional)"
        value={description}
        onChange={setDescription}
        error={form.fields.description}
      />
      <fieldset
        className="webhook-events"
        aria-describedby={form.fields.events ? 'webhook-add-events-error' : undefined}
        data-testid="webhook-add-events"
      >
        <legend>Events</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} title={eventSummary(type)}>
            <input
              type="checkbox"
              data-testid={`webhook-add-event-${type}`}
              checked={events.includes(type)}
              onChange={() => toggle(type)}
            />
            {eventLabel(type)}
          </label>
        ))}
        {form.fields.events && (
          <span className="field-error" id="webhook-add-events-error" data-testid="webhook-add-events-error">
            {form.fields.events}
          </span>
        )}
      </fieldset>
    </EditForm>
  );
};

/**
 * The Integrations panel of a device, campaign or organization page, for those who manage it (and staff): its webhooks
 * with their logs, and a form to add one, whose signing secret is shown once.
 */
export const IntegrationsPanel = ({ kind, id }: { kind: TargetKind; id: string }) => {
  const list = useRoutePages('integrations', 'listWebhooks', listRequest(kind, id));
  const [adding, setAdding] = useState(false);
  const [made, setMade] = useState<CreatedWebhook>();
  return (
    <section className="card section-card" aria-labelledby="integrations-heading" data-testid="integrations">
      <h2 id="integrations-heading">Integrations</h2>
      <p className="muted small">
        Webhooks push {TARGET_WORDS[kind]} events to systems you run: signed the Standard Webhooks way, retried for a
        day when your receiver fails, every attempt kept in the log for 30 days.
      </p>
      {made && (
        <SecretOnce
          value={made.secret}
          testId="webhook-secret"
          valueTestId="webhook-secret-value"
          copyTestId="webhook-secret-copy"
          onHide={() => setMade(undefined)}
        >
          <strong>Copy this signing secret now: it will not be shown again.</strong> {RECEIVER_HINT}
        </SecretOnce>
      )}
      {adding ? (
        <AddWebhookForm
          kind={kind}
          id={id}
          onDone={(created) => {
            setAdding(false);
            if (created) setMade(created);
          }}
        />
      ) : (
        <div className="actions">
          <button type="button" className="primary" data-testid="webhook-add-open" onClick={() => setAdding(true)}>
            Add a webhook
          </button>
        </div>
      )}
      <PagedList list={list} name="integrations" empty={adding ? undefined : 'No webhooks yet.'}>
        {list.items.map((webhook) => (
          <WebhookCard key={webhook.id} webhook={webhook} />
        ))}
      </PagedList>
    </section>
  );
};
