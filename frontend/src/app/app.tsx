import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { queryClient } from '../lib/query';
import { SessionProvider } from '../lib/session';
import { createRouter } from './router';

export const App = () => {
  const [router] = useState(createRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </QueryClientProvider>
  );
};
