import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { SessionProvider } from '../lib/session';
import { createRouter } from './router';

export const App = () => {
  const [router] = useState(createRouter);
  return (
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  );
};
