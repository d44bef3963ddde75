import { AppConfig } from '../config/app-config';
import { AdminKeySource, adminKeySource } from '../config/development-hints';

/** The name of the meta element that carries PageSettings in the console's page. */
export const PAGE_SETTINGS_META = 'gateway-settings';

/**
 * What the console needs to know of the service before anyone signs in, given in its page (a meta element: the
 * page's Content-Security-Policy allows no inline script), so no request and no API answer carries it.
 */
export interface PageSettings {
  /** Outside production only: where the development admin key is, for the sign-in page. */
  adminKey?: AdminKeySource;
}

export function pageSettings(config: AppConfig): PageSettings {
  const adminKey = adminKeySource(config);
  return adminKey ? { adminKey } : {};
}

/** The meta element carrying `settings`, escaped for an HTML attribute. */
export function pageSettingsMeta(settings: PageSettings): string {
  const content = JSON.stringify(settings).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<meta name="${PAGE_SETTINGS_META}" content="${content}" />`;
}
