import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './routes';
import { SessionProvider } from './session';
import { cssVariablesResolver, theme } from './theme';

// The service puts this response's CSP nonce here; Mantine's <style> elements carry it (no inline script exists).
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';
// The scroll lock of dialogs (react-remove-scroll) adds a <style> element too, with the nonce from get-nonce.
setNonce(nonce);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} getStyleNonce={() => nonce} defaultColorScheme="light">
      <Notifications position="bottom-right" />
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </MantineProvider>
  </StrictMode>,
);
