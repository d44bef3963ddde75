import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { setNonce } from 'get-nonce';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { themeFor } from './branding';
import { router } from './routes';
import { SessionProvider, useSession } from './session';
import { cssVariablesResolver } from './theme';

// The service puts this response's CSP nonce here; Mantine's <style> elements carry it (no inline script exists).
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';
// The scroll lock of dialogs (react-remove-scroll) adds a <style> element too, with the nonce from get-nonce.
setNonce(nonce);

/**
 * The tenant portal wears the platform's colour (PORTAL_PRIMARY_COLOR): a tenant's session, the page a portal link
 * opens, and the sign-in page after a portal session. Operators see the gateway's own.
 */
function ThemedConsole() {
  const { state } = useSession();
  const [path, setPath] = useState(router.state.location.pathname);
  useEffect(() => router.subscribe((next) => setPath(next.location.pathname)), []);
  const portalView =
    path.replace(/^\/console/, '').startsWith('/portal') ||
    (state.status === 'signed-in' ? state.session.kind === 'tenant' : state.status === 'signed-out' && state.wasTenant === true);
  return (
    <MantineProvider theme={themeFor(portalView)} cssVariablesResolver={cssVariablesResolver} getStyleNonce={() => nonce} defaultColorScheme="light">
      <Notifications position="bottom-right" />
      <RouterProvider router={router} />
    </MantineProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <ThemedConsole />
    </SessionProvider>
  </StrictMode>,
);
