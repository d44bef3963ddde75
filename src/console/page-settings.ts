import { AppConfig } from '../config/app-config';
import type { PortalBranding } from '../config/portal-config';
import { AdminKeySource, adminKeySource } from '../config/development-hints';

/** The name of the meta element that carries PageSettings in the console's page. */
const PAGE_SETTINGS_META = 'gateway-settings';

/**
 * What the console needs to know of the service before anyone signs in, given in its page (a meta element: the
 * page's Content-Security-Policy allows no inline script), so no request and no API answer carries it.
 */
interface PageSettings {
  /** Outside production only: where the development admin key is, for the sign-in page. */
  adminKey?: AdminKeySource;
  /** The platform's branding of the tenant portal (PORTAL_* variables), when any is set: public, like the page. */
  portal?: PortalBranding;
}

export function pageSettings(config: AppConfig): PageSettings {
  const adminKey = adminKeySource(config);
  const { portal } = config.console;
  return { ...(adminKey ? { adminKey } : {}), ...(Object.keys(portal).length > 0 ? { portal } : {}) };
}

/** The meta element carrying `settings`, escaped for an HTML attribute. */
export function pageSettingsMeta(settings: PageSettings): string {
  const content = JSON.stringify(settings).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<meta name="${PAGE_SETTINGS_META}" content="${content}" />`;
}
