import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  NOTIFICATION_ICONS,
  NOTIFICATION_METHODS,
  type Notification,
  NotificationInput,
  type NotificationMethod,
  NotificationUpdate,
} from '../../../../shared/contracts/notifications';
import { NOTIFICATION_TOPICS, type NotificationTopic, TOPIC_INFO } from '../../../../shared/notifications/topics';
import { ErrorAlert } from '../../components/form-parts';
import { useApi } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { ChoiceField, FieldFrame, invalidProps, TextField } from '../../lib/form-fields';
import { useChanges } from '../../lib/query';
import { AudiencePicker } from './audience-picker';
import { createNotification, notificationShownKeys } from './notifications-api';

type Icon = (typeof NOTIFICATION_ICONS)[number];

interface Draft {
  title: string;
  body: string;
  topic: NotificationTopic;
  methods: NotificationMethod[];
  icon: Icon;
  requireInteraction: boolean;
  audience: string[];
}

const EMPTY: Draft = {
  title: '',
  body: '',
  topic: 'announcements',
  methods: ['banner', 'email'],
  icon: 'info',
  requireInteraction: false,
  audience: [],
};

const draftOf = (record: Notification): Draft => ({
  title: record.title,
  body: record.body,
  topic: record.topic,
  methods: [...record.methods],
  icon: record.icon,
  requireInteraction: record.requireInteraction,
  audience: [...(record.audience ?? [])],
});

const ICON_TEXT: Record<Icon, string> = { info: 'Info', warning: 'Warning', success: 'Success', error: 'Problem' };
const METHOD_TEXT: Record<NotificationMethod, string> = { banner: 'Banner in the app', email: 'E-mail' };

/**
 * The body as it will read, drawn in a sandboxed frame: what staff type is not sanitized yet (the API does that when
 * it saves), and the frame runs no script or event handler of it.
 */
const BodyPreview = ({ html }: { html: string }) => {
  const frame = useRef<HTMLIFrameElement>(null);
  const fit = () => {
    const element = frame.current;
    // The body's own height: the document's would be at least the frame's default 150 px.
    const height = element?.contentDocument?.body.offsetHeight;
    if (element && height !== undefined) element.style.height = `${height}px`;
  };
  return (
    <iframe
      ref={frame}
      className="body-preview"
      title="Preview of the body"
      data-testid="composer-preview"
      sandbox="allow-same-origin"
      onLoad={fit}
      srcDoc={`<!doctype html><meta charset="utf-8"><style>:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.5}body{margin:0;overflow-wrap:anywhere}p{margin:0 0 .5em}</style>${html}`}
    />
  );
};

type Busy = 'draft' | 'send' | 'save';

/**
 * The composer: a new notification saved as a draft (POST /notification) or sent at once (POST /jobsQueue), or a
 * draft's content changed (PUT /update-notification/{id}). Checked with the contract's schema before anything is
 * sent, so the API's words show next to their fields.
 */
export const NotificationComposer = ({ editing, onDone }: { editing?: Notification; onDone: () => void }) => {
  const api = useApi('notifications');
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(editing ? draftOf(editing) : EMPTY);
  const [fields, setFields] = useState<Record<string, string>>({});
  const { busy, error, setError, run } = useChanges<Busy>();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const toggleMethod = (method: NotificationMethod, on: boolean) =>
    set('methods', on ? [...draft.methods, method] : draft.methods.filter((m) => m !== method));

  const submit = (what: Busy) => {
    const checked = checkWith(editing ? NotificationUpdate : NotificationInput, draft);
    if (!checked.ok) {
      setFields(checked.fields);
      return setError(checked.message);
    }
    setFields({});
    let saved: string | undefined;
    void run(
      what,
      async () => {
        if (editing) {
          await api.updateNotification({ params: { id: editing.id }, body: draft });
          saved = editing.id;
        } else {
          const created = await createNotification(api, what === 'send' ? 'send' : 'draft', draft);
          if (created instanceof Error) throw created;
          saved = created.id;
        }
      },
      notificationShownKeys(editing?.id),
    ).then(() => {
      if (!saved) return;
      if (editing) onDone();
      else navigate(`/admin/notifications/${encodeURIComponent(saved)}`);
    });
  };

  return (
    <form
      className="card composer"
      aria-labelledby="composer-heading"
      noValidate
      data-testid="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit(editing ? 'save' : 'draft');
      }}
    >
      <h2 id="composer-heading">{editing ? 'Edit the draft' : 'New notification'}</h2>
      <ErrorAlert testId="composer-error" error={error} />
      <TextField
        id="composer-title"
        label="Title"
        value={draft.title}
        onChange={(v) => set('title', v)}
        error={fields.title}
      />
      <FieldFrame
        id="composer-body"
        label="Body (HTML: links and basic formatting)"
        error={fields.body}
        hint={'Links to pages of the app start with "/", e.g. <a href="/dashboard/devices/…">.'}
      >
        <textarea
          id="composer-body"
          data-testid="composer-body"
          rows={5}
          value={draft.body}
          spellCheck={false}
          onChange={(e) => set('body', e.target.value)}
          placeholder="<p>The platform will be down for maintenance on <strong>Sunday</strong>.</p>"
          {...invalidProps('composer-body', fields.body)}
        />
      </FieldFrame>
      {draft.body.trim() && (
        <div className="field">
          <span className="preview-label">Preview</span>
          <BodyPreview html={draft.body} />
        </div>
      )}
      <div className="field-row">
        <ChoiceField
          id="composer-topic"
          label="Topic"
          value={draft.topic}
          options={NOTIFICATION_TOPICS.map((topic) => [topic, TOPIC_INFO[topic].label] as const)}
          onChange={(v) => set('topic', v)}
          error={fields.topic}
          hint={TOPIC_INFO[draft.topic].description}
        />
        <ChoiceField
          id="composer-icon"
          label="Icon"
          value={draft.icon}
          options={NOTIFICATION_ICONS.map((icon) => [icon, ICON_TEXT[icon]] as const)}
          onChange={(v) => set('icon', v)}
        />
      </div>
      <fieldset className="checks" aria-describedby={fields.methods ? 'composer-methods-error' : undefined}>
        <legend>Send as</legend>
        {NOTIFICATION_METHODS.map((method) => (
          <label key={method} className="check">
            <input
              type="checkbox"
              data-testid={`composer-method-${method}`}
              checked={draft.methods.includes(method)}
              onChange={(e) => toggleMethod(method, e.target.checked)}
            />
            {METHOD_TEXT[method]}
          </label>
        ))}
        <label className="check">
          <input
            type="checkbox"
            data-testid="composer-require-interaction"
            checked={draft.requireInteraction}
            onChange={(e) => set('requireInteraction', e.target.checked)}
          />
          Keep the banner until it is dismissed
        </label>
        {fields.methods && (
          <span className="field-error" id="composer-methods-error">
            {fields.methods}
          </span>
        )}
      </fieldset>
      <AudiencePicker
        audience={draft.audience}
        onChange={(audience) => set('audience', audience)}
        error={fields.audience}
      />
      <div className="actions">
        {editing ? (
          <>
            <button type="submit" className="primary" data-testid="composer-save" disabled={busy !== undefined}>
              {busy === 'save' ? 'Saving…' : 'Save changes'}
            </button>
            <button type="button" onClick={onDone}>
              Cancel
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="primary"
              data-testid="composer-send"
              disabled={busy !== undefined}
              onClick={() => submit('send')}
            >
              {busy === 'send' ? 'Sending…' : 'Send'}
            </button>
            <button type="submit" data-testid="composer-draft" disabled={busy !== undefined}>
              {busy === 'draft' ? 'Saving…' : 'Save draft'}
            </button>
            <button type="button" onClick={onDone}>
              Cancel
            </button>
          </>
        )}
      </div>
    </form>
  );
};
