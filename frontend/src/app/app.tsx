import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { queryClient } from '../lib/query';
import { SessionProvider } from '../lib/session';
import { AppRoutes } from './router';

// The declarative router: the data router (loaders, actions, fetchers), which the app does not use, would add
// about 16 kB gzipped to every first page (issue 13).
export const App = () => (
  <QueryClientProvider client={queryClient}>
    <SessionProvider>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </SessionProvider>
  </QueryClientProvider>
);
