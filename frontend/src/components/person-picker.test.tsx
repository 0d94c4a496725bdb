import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { SessionProvider } from '../lib/session';
import { PersonPicker } from './person-picker';

describe('the people picker', () => {
  it('renders nothing without a signed-in person, rather than breaking a page a sign-out is leaving', () => {
    const markup = () =>
      renderToStaticMarkup(
        <QueryClientProvider client={new QueryClient()}>
          <SessionProvider>
            <PersonPicker id="owner" label="New owner" value={undefined} onChange={() => {}} />
          </SessionProvider>
        </QueryClientProvider>,
      );
    expect(markup).not.toThrow();
    expect(markup()).toBe('');
  });
});
