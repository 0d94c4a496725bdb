import { Lexer, type Token, type Tokens } from 'marked';
import { Fragment, type ReactNode } from 'react';
import { CopyButton } from '../../lib/copy-button';
import {
  constraintWords,
  fieldsOf,
  type Reference,
  type ReferenceOperation,
  refName,
  type Schema,
  schemaAnchor,
  typeWords,
  WEBHOOKS_TEXT,
} from './api-reference';

/**
 * The API reference drawn as the app's own HTML (decision 100): headings a screen reader lists, links a keyboard
 * follows, nested lists for nested objects, an anchor per operation. Markdown (the document's descriptions) is parsed
 * by marked and drawn from its tokens, never as HTML.
 */

const inlineToken = (token: Token): ReactNode => {
  switch (token.type) {
    case 'codespan':
      return <code>{(token as Tokens.Codespan).text}</code>;
    case 'strong':
      return <strong>{inline((token as Tokens.Strong).tokens)}</strong>;
    case 'em':
      return <em>{inline((token as Tokens.Em).tokens)}</em>;
    case 'link':
      return <a href={(token as Tokens.Link).href}>{inline((token as Tokens.Link).tokens)}</a>;
    case 'br':
      return <br />;
    default: {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : 'text' in text ? text.text : token.raw;
    }
  }
};

const inline = (tokens: Token[] | undefined): ReactNode =>
  tokens?.map((token, position) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: a fixed text's tokens never reorder: position is their identity.
    <Fragment key={position}>{inlineToken(token)}</Fragment>
  ));

/** Inline Markdown (a parameter's or an answer's description): code, emphasis, links. */
export const InlineMarkdown = ({ text }: { text: string }) => <>{inline(Lexer.lexInline(text))}</>;

const Heading = ({ level, children }: { level: number; children: ReactNode }) => {
  // Never a second h1: the page has its title.
  const Tag = `h${Math.min(Math.max(level, 2), 6)}` as 'h2';
  return <Tag>{children}</Tag>;
};

const blockToken = (token: Token, headingLevel: number): ReactNode => {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading;
      // The document's "##" (its top level: `#` would be the page's title) is drawn at `headingLevel`.
      return <Heading level={headingLevel + heading.depth - 2}>{inline(heading.tokens)}</Heading>;
    }
    case 'paragraph':
      return <p>{inline((token as Tokens.Paragraph).tokens)}</p>;
    case 'list': {
      const list = token as Tokens.List;
      const items = list.items.map((item, position) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed text's items never reorder: position is their identity.
        <li key={position}>{blocks(item.tokens, headingLevel)}</li>
      ));
      return list.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case 'code':
      return (
        <pre className="code-block">
          <code>{(token as Tokens.Code).text}</code>
        </pre>
      );
    case 'space':
      return null;
    default: {
      const text = token as Tokens.Text;
      return <span>{text.tokens ? inline(text.tokens) : token.raw}</span>;
    }
  }
};

const blocks = (tokens: Token[], headingLevel: number): ReactNode =>
  tokens.map((token, position) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: a fixed text's tokens never reorder: position is their identity.
    <Fragment key={position}>{blockToken(token, headingLevel)}</Fragment>
  ));

/** Block Markdown (the document's opening text); its `##` headings become level `headingLevel`. */
export const Markdown = ({ text, headingLevel }: { text: string; headingLevel: number }) => (
  <>{blocks(Lexer.lex(text), headingLevel)}</>
);

/** A schema's type: a named one links to where it is shown once. */
const TypeName = ({ schema }: { schema: Schema }) => {
  const name = refName(schema);
  const inner = schema.type === 'array' && schema.items ? refName(schema.items as Schema) : undefined;
  if (name) return <a href={`#${schemaAnchor(name)}`}>{name}</a>;
  if (inner) {
    return (
      <>
        array of <a href={`#${schemaAnchor(inner)}`}>{inner}</a>
      </>
    );
  }
  return <>{typeWords(schema)}</>;
};

/** What a value is: its type, bounds and description, then its fields (and theirs), as nested lists. */
const SchemaFacts = ({ schema }: { schema: Schema }) => {
  const constraints = constraintWords(schema);
  return (
    <>
      <span className="schema-type">
        <TypeName schema={schema} />
      </span>
      {constraints.length > 0 && <span className="muted"> · {constraints.join(' · ')}</span>}
      {typeof schema.description === 'string' && (
        <span className="schema-description">
          {' '}
          — <InlineMarkdown text={schema.description} />
        </span>
      )}
    </>
  );
};

const Fields = ({ schema }: { schema: Schema }) => {
  const fields = fieldsOf(schema);
  if (fields.length === 0) return null;
  return (
    <ul className="schema-fields">
      {fields.map((field) => (
        <li key={field.name}>
          <code className="field-name">{field.name}</code> <SchemaFacts schema={field.schema} />
          {field.required && <span className="field-required"> · required</span>}
          <Fields schema={field.schema} />
        </li>
      ))}
    </ul>
  );
};

/** A body's schema: its type on a line, then its fields. */
export const SchemaView = ({ schema }: { schema: Schema }) => (
  <div className="schema">
    <p>
      <SchemaFacts schema={schema} />
    </p>
    <Fields schema={schema} />
  </div>
);

const IN_WORDS: Record<string, string> = { path: 'in the path', query: 'in the query', header: 'header' };

/** One route or webhook event: its heading is its anchor (focused when a link leads to it). */
export const OperationView = ({ operation, testId }: { operation: ReferenceOperation; testId: string }) => {
  const ok = operation.responses.filter((response) => response.status.startsWith('2'));
  const failures = operation.responses.filter((response) => !response.status.startsWith('2'));
  return (
    <section className="operation card" aria-labelledby={operation.anchor} data-testid={testId}>
      <h3 id={operation.anchor} tabIndex={-1} className="operation-title">
        <span className={`method method-${operation.method.toLowerCase()}`}>{operation.method}</span>{' '}
        <code className="operation-path">{operation.path}</code>
      </h3>
      {operation.summary && (
        <p>
          <InlineMarkdown text={operation.summary} />
        </p>
      )}
      {operation.access && (
        <p>
          <strong>Who may call it:</strong> {operation.access}
        </p>
      )}
      {operation.parameters.length > 0 && (
        <>
          <h4>{operation.parameters.every((parameter) => parameter.in === 'header') ? 'Headers' : 'Parameters'}</h4>
          <ul className="schema-fields">
            {operation.parameters.map((parameter) => (
              <li key={`${parameter.in} ${parameter.name}`}>
                <code className="field-name">{parameter.name}</code>{' '}
                <span className="muted">{IN_WORDS[parameter.in] ?? parameter.in}</span> ·{' '}
                <SchemaFacts schema={parameter.schema} />
                {parameter.required && <span className="field-required"> · required</span>}
                {parameter.description && (
                  <>
                    {' '}
                    — <InlineMarkdown text={parameter.description} />
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {operation.body && (
        <>
          <h4>{operation.kind === 'event' ? 'Payload (JSON)' : 'Request body (JSON)'}</h4>
          <SchemaView schema={operation.body} />
        </>
      )}
      {ok.map((response) => (
        <div key={response.status}>
          <h4>
            Answer {response.status}: <InlineMarkdown text={response.description} />
          </h4>
          {response.schema && <SchemaView schema={response.schema} />}
          {response.headers.length > 0 && <HeaderList headers={response.headers} />}
        </div>
      ))}
      {failures.length > 0 && (
        <>
          <h4>Refusals</h4>
          <ul className="responses">
            {failures.map((response) => (
              <li key={response.status}>
                <strong>{response.status}</strong> <InlineMarkdown text={response.description} />
                {response.schema && (
                  <>
                    {' '}
                    (<TypeName schema={response.schema} />)
                  </>
                )}
                {response.headers.length > 0 && <HeaderList headers={response.headers} />}
              </li>
            ))}
          </ul>
        </>
      )}
      {operation.samples.map((sample) => (
        <div key={sample.label} className="sample">
          <h4>Example ({sample.label})</h4>
          <pre className="code-block" data-testid="api-reference-sample">
            <code>{sample.source}</code>
          </pre>
          <CopyButton text={sample.source} testId={`${operation.anchor}-copy`} />
        </div>
      ))}
    </section>
  );
};

const HeaderList = ({ headers }: { headers: { name: string; description: string }[] }) => (
  <ul className="schema-fields">
    {headers.map((header) => (
      <li key={header.name}>
        <code className="field-name">{header.name}</code> <span className="muted">header</span> —{' '}
        <InlineMarkdown text={header.description} />
      </li>
    ))}
  </ul>
);

/** The contents: every group, route, event and named schema, each a link to its anchor. */
const Contents = ({ reference }: { reference: Reference }) => (
  <nav aria-labelledby="api-reference-contents" className="api-reference-contents card">
    <h2 id="api-reference-contents">Contents</h2>
    <ul>
      {reference.groups.map((group) => (
        <li key={group.anchor}>
          <a href={`#${group.anchor}`}>{group.name}</a>
          <ul>
            {group.operations.map((operation) => (
              <li key={operation.anchor}>
                <a href={`#${operation.anchor}`}>
                  {operation.method} <code>{operation.path}</code>
                </a>
              </li>
            ))}
          </ul>
        </li>
      ))}
      {reference.events.length > 0 && (
        <li>
          <a href="#webhook-events">Webhook events</a>
          <ul>
            {reference.events.map((event) => (
              <li key={event.anchor}>
                <a href={`#${event.anchor}`}>
                  <code>{event.path}</code>
                </a>
              </li>
            ))}
          </ul>
        </li>
      )}
      {reference.schemas.length > 0 && (
        <li>
          <a href="#error-shapes">Error shapes and shared schemas</a>
        </li>
      )}
    </ul>
  </nav>
);

/** The whole reference: contents, the document's opening text, the routes by group, the events, the shared schemas. */
export const ReferenceView = ({ reference }: { reference: Reference }) => (
  <div className="api-reference-doc" data-testid="api-reference-doc">
    <Contents reference={reference} />
    <Markdown text={reference.description} headingLevel={2} />
    {reference.groups.map((group) => (
      <section key={group.anchor} aria-labelledby={group.anchor}>
        <h2 id={group.anchor} tabIndex={-1}>
          {group.name}
        </h2>
        {group.operations.map((operation) => (
          <OperationView key={operation.anchor} operation={operation} testId="api-reference-operation" />
        ))}
      </section>
    ))}
    {reference.events.length > 0 && (
      <section aria-labelledby="webhook-events">
        <h2 id="webhook-events" tabIndex={-1}>
          Webhook events
        </h2>
        <Markdown text={WEBHOOKS_TEXT} headingLevel={3} />
        {reference.events.map((event) => (
          <OperationView key={event.anchor} operation={event} testId="api-reference-event" />
        ))}
      </section>
    )}
    {reference.schemas.length > 0 && (
      <section aria-labelledby="error-shapes">
        <h2 id="error-shapes" tabIndex={-1}>
          Error shapes and shared schemas
        </h2>
        <p>
          Each refusal above answers JSON in the shape it names; a schema several routes or events share is shown here
          once.
        </p>
        {reference.schemas.map((named) => (
          <section key={named.anchor} aria-labelledby={named.anchor} className="operation card">
            <h3 id={named.anchor} tabIndex={-1}>
              <code>{named.name}</code>
            </h3>
            <SchemaView schema={named.schema} />
          </section>
        ))}
      </section>
    )}
  </div>
);
