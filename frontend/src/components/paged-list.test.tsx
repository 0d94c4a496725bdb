/** @jest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { ListPage } from '../lib/paged-list';
import { type ListState, usePagedQuery } from '../lib/query';
import { ListTable } from './list-table';
import { listItem, PagedList } from './paged-list';

/** What a person sees of the list kit: its notes, its alert, and "Load more" with the focus it keeps and hands on. */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// jsdom lays nothing out: a table never scrolls (components/table-scroll.tsx), so its frame is never measured again.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

interface Row {
  id: string;
  name: string;
}

let root: Root;
let frame: HTMLDivElement;

beforeEach(() => {
  frame = document.createElement('div');
  document.body.append(frame);
  root = createRoot(frame);
});

afterEach(() => {
  act(() => root.unmount());
  frame.remove();
});

const draw = (node: ReactNode) => act(() => root.render(node));
const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const rows = () => [...document.querySelectorAll('tbody tr')].map((row) => row.textContent);

const state = (over: Partial<ListState<Row>>): ListState<Row> => ({ items: [], loaded: false, ...over });

const table = (items: readonly Row[]) => (
  <ListTable
    label="Sensors"
    rows={items}
    rowKey={(row) => row.id}
    columns={[
      { header: 'Sensor', cell: (row) => row.name },
      { header: 'Id', cell: (row) => row.id },
    ]}
  />
);

describe('a list while it reads, once it is read, and when it fails', () => {
  it('says it is loading while the first page comes, and nothing else', async () => {
    await draw(
      <PagedList list={state({ loading: 'first' })} name="sensors" loadingText="Loading sensors…" empty="None.">
        {table([])}
      </PagedList>,
    );
    expect(frame.textContent).toBe('Loading sensors…');
    expect(document.querySelector('table')).toBeNull();
    expect(byTestId('sensors-load-more')).toBeNull();
  });

  it('says so when there is nothing, without an empty table', async () => {
    await draw(
      <PagedList list={state({ loaded: true })} name="sensors" empty="No sensors yet.">
        {table([])}
      </PagedList>,
    );
    expect(byTestId('sensors-empty')?.textContent).toBe('No sensors yet.');
    expect(frame.textContent).toBe('No sensors yet.');
    expect(document.querySelector('table')).toBeNull();
  });

  it('waits for the next page before it says a list is empty (a filter may have emptied this one)', async () => {
    await draw(
      <PagedList list={state({ loaded: true, nextCursor: 'c1' })} name="sensors" empty="No sensors yet.">
        {table([])}
      </PagedList>,
    );
    expect(byTestId('sensors-empty')).toBeNull();
    expect(byTestId('sensors-load-more')?.textContent).toBe('Load more');
  });

  it("shows the read's failure as an alert, a failed change's first, or leaves it to the page's own alert", async () => {
    const failed = state({ loaded: false, error: 'Forbidden' });
    await draw(
      <PagedList list={failed} name="sensors" empty="None.">
        {table([])}
      </PagedList>,
    );
    expect(byTestId('sensors-error')?.getAttribute('role')).toBe('alert');
    expect(byTestId('sensors-error')?.textContent).toBe('Forbidden');

    await draw(
      <PagedList list={failed} name="sensors" error="That sensor is in use" empty="None.">
        {table([])}
      </PagedList>,
    );
    expect(byTestId('sensors-error')?.textContent).toBe('That sensor is in use');

    await draw(
      <PagedList list={failed} name="sensors" errorShownAbove empty="None.">
        {table([])}
      </PagedList>,
    );
    expect(byTestId('sensors-error')).toBeNull();
  });

  it('draws items that say their own emptiness (no empty note given) even before there are any', async () => {
    await draw(
      <PagedList list={state({ loaded: true })} name="groups">
        <p>Devices: none</p>
      </PagedList>,
    );
    expect(frame.textContent).toBe('Devices: none');
  });
});

/** A paged route held in the test: each page answers when the test lets it. */
const pagedRoute = (pages: Row[][]) => {
  const asked: { cursor: string | undefined; answer: () => void }[] = [];
  const load = (cursor: string | undefined) =>
    new Promise<ListPage<Row>>((resolve) => {
      const index = cursor === undefined ? 0 : Number(cursor);
      const next = index + 1 < pages.length ? String(index + 1) : undefined;
      asked.push({ cursor, answer: () => resolve({ items: pages[index]!, ...(next ? { nextCursor: next } : {}) }) });
    });
  return { asked, load };
};

const Sensors = ({ load }: { load: (cursor: string | undefined) => Promise<ListPage<Row>> }) => {
  const list = usePagedQuery<Row>(['sensors'], load);
  return (
    <PagedList list={list} name="sensors" empty="None.">
      {table(list.items)}
    </PagedList>
  );
};

/** A list that is not a table: its items carry `listItem(id)`. */
const Notes = ({ load }: { load: (cursor: string | undefined) => Promise<ListPage<Row>> }) => {
  const list = usePagedQuery<Row>(['notes'], load);
  return (
    <PagedList list={list} name="notes">
      <ul>
        {list.items.map((item) => (
          <li key={item.id} {...listItem(item.id)}>
            {item.name}
          </li>
        ))}
      </ul>
    </PagedList>
  );
};

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

describe('"Load more"', () => {
  it('appends the next page under the shown rows, keeps the focus while it loads, then gives it to what came', async () => {
    const route = pagedRoute([
      [
        { id: 's1', name: 'Roof' },
        { id: 's2', name: 'Yard' },
      ],
      [{ id: 's3', name: 'Gate' }],
      [
        { id: 's4', name: 'Lake' },
        { id: 's5', name: 'Pier' },
      ],
    ]);
    await draw(
      <QueryClientProvider client={new QueryClient()}>
        <Sensors load={route.load} />
      </QueryClientProvider>,
    );
    await act(async () => route.asked[0]!.answer());
    await settle();
    expect(rows()).toEqual(['Roofs1', 'Yards2']);

    const more = byTestId('sensors-load-more')!;
    more.focus();
    await act(async () => more.click());
    await settle();
    // While the page comes the button says so and refuses a second press, yet stays focusable: a disabled button
    // would drop the keyboard's place to the top of the page.
    expect(more.textContent).toBe('Loading…');
    expect(more.getAttribute('aria-disabled')).toBe('true');
    expect(more.hasAttribute('disabled')).toBe(false);
    expect(document.activeElement).toBe(more);
    await act(async () => more.click());
    expect(route.asked.map(({ cursor }) => cursor)).toEqual([undefined, '1']);

    await act(async () => route.asked[1]!.answer());
    await settle();
    expect(rows()).toEqual(['Roofs1', 'Yards2', 'Gates3']);
    // A further page waits behind the same button, which kept the focus.
    expect(more.textContent).toBe('Load more');
    expect(more.hasAttribute('aria-disabled')).toBe(false);
    expect(document.activeElement).toBe(more);

    await act(async () => more.click());
    await act(async () => route.asked[2]!.answer());
    await settle();
    expect(rows()).toEqual(['Roofs1', 'Yards2', 'Gates3', 'Lakes4', 'Piers5']);
    // The last page took the button away: the first row it brought holds the focus, not the page's top.
    expect(byTestId('sensors-load-more')).toBeNull();
    const lake = document.querySelector('[data-list-item="s4"]');
    expect(document.activeElement).toBe(lake);
    expect(lake?.textContent).toBe('Lakes4');
  });

  it('leaves the focus where the person moved it while the page came', async () => {
    const route = pagedRoute([[{ id: 's1', name: 'Roof' }], [{ id: 's2', name: 'Yard' }]]);
    await draw(
      <QueryClientProvider client={new QueryClient()}>
        <input aria-label="Search" data-testid="search" />
        <Sensors load={route.load} />
      </QueryClientProvider>,
    );
    await act(async () => route.asked[0]!.answer());
    await settle();
    await act(async () => byTestId('sensors-load-more')!.click());
    byTestId('search')!.focus();
    await act(async () => route.asked[1]!.answer());
    await settle();
    expect(rows()).toEqual(['Roofs1', 'Yards2']);
    expect(document.activeElement).toBe(byTestId('search'));
  });

  it('hands the focus to an item of a list that is not a table, marked as one', async () => {
    const route = pagedRoute([[{ id: 'n1', name: 'First' }], [{ id: 'n2', name: 'Second' }]]);
    await draw(
      <QueryClientProvider client={new QueryClient()}>
        <Notes load={route.load} />
      </QueryClientProvider>,
    );
    await act(async () => route.asked[0]!.answer());
    await settle();
    const more = byTestId('notes-load-more')!;
    more.focus();
    await act(async () => more.click());
    await act(async () => route.asked[1]!.answer());
    await settle();
    expect(document.activeElement?.textContent).toBe('Second');
    expect(document.activeElement?.getAttribute('tabindex')).toBe('-1');
  });
});
