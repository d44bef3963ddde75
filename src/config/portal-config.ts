/**
 * The platform's branding of the tenant portal (PORTAL_* variables): the name its developers know it by, where
 * "Back to <name>" leads, its logo and its colour. All optional; given to every browser that loads the console
 * (they are not secrets) and applied to the portal's pages, never to the operators' console.
 */
export interface PortalBranding {
  /** Shown in the portal's header and in "Back to <name>"; unset: "Action Gateway", and "your platform" in texts. */
  readonly platformName?: string;
  /** The platform's page the portal's "Back to <name>" link opens; unset: no such link. */
  readonly returnUrl?: string;
  /** An image (SVG, PNG, ...) shown in the portal's header at 28 px high; its URL joins the page's CSP img-src. */
  readonly logoUrl?: string;
  /** `#rrggbb`: the portal's buttons, links and active tabs (text on it is black or white by its luminance). */
  readonly primaryColor?: string;
}

interface PortalVariables {
  PORTAL_PLATFORM_NAME?: string;
  PORTAL_RETURN_URL?: string;
  PORTAL_LOGO_URL?: string;
  PORTAL_PRIMARY_COLOR?: string;
}

type Report = (variable: string, problem: string) => void;

const PLATFORM_NAME_MAX = 60;
const URL_MAX = 2048;

/**
 * Checks the PORTAL_* variables, reporting every problem: a name that is empty, too long or holds control
 * characters; URLs that are not absolute http(s) URLs, carry a user name or password, or hold characters a
 * Content-Security-Policy cannot carry (the logo's URL goes into one); plain http in production; a colour that
 * is not `#rgb` or `#rrggbb`. A colour too light to read as link text on white is accepted with a warning.
 */
export function portalBranding(env: PortalVariables, production: boolean, problem: Report, warn: (text: string) => void): PortalBranding {
  const branding: { -readonly [K in keyof PortalBranding]: PortalBranding[K] } = {};
  const name = env.PORTAL_PLATFORM_NAME?.trim();
  if (env.PORTAL_PLATFORM_NAME !== undefined) {
    if (!name) problem('PORTAL_PLATFORM_NAME', 'must not be blank');
    // eslint-disable-next-line no-control-regex
    else if (/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(name)) problem('PORTAL_PLATFORM_NAME', 'must not hold control or bidi characters');
    else if ([...name].length > PLATFORM_NAME_MAX) problem('PORTAL_PLATFORM_NAME', `must be at most ${PLATFORM_NAME_MAX} characters`);
    else branding.platformName = name;
  }
  const returnUrl = portalUrl('PORTAL_RETURN_URL', env.PORTAL_RETURN_URL, production, problem);
  if (returnUrl) branding.returnUrl = returnUrl;
  const logoUrl = portalUrl('PORTAL_LOGO_URL', env.PORTAL_LOGO_URL, production, problem);
  if (logoUrl) branding.logoUrl = logoUrl;
  if (env.PORTAL_PRIMARY_COLOR !== undefined) {
    const color = hexColor(env.PORTAL_PRIMARY_COLOR);
    if (!color) problem('PORTAL_PRIMARY_COLOR', `must be a colour as #rrggbb or #rgb, e.g. #0b5fff, not "${env.PORTAL_PRIMARY_COLOR}"`);
    else {
      branding.primaryColor = color;
      const ratio = contrastWithWhite(color);
      if (ratio < 4.5) {
        warn(`PORTAL_PRIMARY_COLOR ${color} has a contrast of ${ratio.toFixed(1)}:1 with white, under the 4.5:1 text needs: the portal's links in it will be hard to read`);
      }
    }
  }
  return branding;
}

function portalUrl(variable: string, value: string | undefined, production: boolean, problem: Report): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problem(variable, `must be an absolute https:// URL, not "${value}"`);
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') problem(variable, `must be an https:// URL, not "${value}"`);
  else if (production && url.protocol !== 'https:') problem(variable, `must be an https:// URL in production, not "${value}"`);
  else if (url.username || url.password) problem(variable, 'must not carry a user name or password');
  else if (url.href.length > URL_MAX) problem(variable, `must be at most ${URL_MAX} characters`);
  // The logo's URL is written into the page's Content-Security-Policy, where these characters end or split a source.
  else if (/[;,'"\s]/.test(url.href)) problem(variable, 'must not contain ; , \' " or spaces (percent-encode them)');
  else return url.href;
  return undefined;
}

/** `#rgb` or `#rrggbb` (any case) as lowercase `#rrggbb`, or undefined. */
function hexColor(value: string): string | undefined {
  const text = value.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  if (/^#[0-9a-f]{3}$/.test(text)) return `#${[...text.slice(1)].map((digit) => digit + digit).join('')}`;
  return undefined;
}

/** WCAG 2 contrast ratio of `#rrggbb` against white. */
export function contrastWithWhite(color: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(color.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05);
}

/** The CSP source that lets the page load the logo and nothing else from its host: its URL without query or fragment. */
export function logoSource(logoUrl: string): string {
  const url = new URL(logoUrl);
  return `${url.origin}${url.pathname}`;
}
