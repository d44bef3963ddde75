/**
 * What the service tells the console in its page, before anyone signs in (src/console/page-settings.ts writes
 * it into a meta element): read once.
 */
export interface PageSettings {
  /** Outside production only: where the development admin key is, the file it was generated into or the environment. */
  adminKey?: { file: string } | { environment: true };
  /** The platform's branding of the tenant portal (PORTAL_* variables), when any is set. */
  portal?: { platformName?: string; returnUrl?: string; logoUrl?: string; primaryColor?: string };
}

let read: PageSettings | undefined;

export function pageSettings(): PageSettings {
  if (!read) {
    try {
      read = JSON.parse(document.querySelector<HTMLMetaElement>('meta[name="gateway-settings"]')?.content ?? '{}') as PageSettings;
    } catch {
      read = {};
    }
  }
  return read;
}
