import { Button, createTheme, Group, lighten, MantineThemeOverride, mergeThemeOverrides, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Logo } from './components/Logo';
import { pageSettings } from './page-settings';
import { theme } from './theme';

/** The platform's branding of the tenant portal (PORTAL_* variables, checked by the service at start). */
export function branding() {
  return pageSettings().portal ?? {};
}

/** The platform as the portal's texts name it. */
export function platformName(): string {
  return branding().platformName ?? 'your platform';
}

/**
 * The portal's theme: the console's, with the platform's colour as primary. Filled buttons and links use shade 9
 * (theme.ts), so shade 9 is the colour itself; the lighter shades (light variants, hovers) are mixed with white.
 * Text on it is black or white by its luminance (the theme's autoContrast).
 */
function portalTheme(): MantineThemeOverride {
  const color = branding().primaryColor;
  if (!color) return theme;
  const shades = Array.from({ length: 10 }, (_, shade) => (shade === 9 ? color : lighten(color, (9 - shade) / 10)));
  return mergeThemeOverrides(theme, createTheme({ colors: { brand: shades as unknown as [string, string, string, string, string, string, string, string, string, string] }, primaryColor: 'brand' }));
}

let portal: MantineThemeOverride | undefined;
export function themeFor(portalView: boolean): MantineThemeOverride {
  if (!portalView) return theme;
  portal ??= portalTheme();
  return portal;
}

/** The platform's logo and name (else the gateway's), at the top of the portal's pages. */
export function BrandMark({ size = 28, nameVisibleFrom }: { size?: number; nameVisibleFrom?: 'xs' | 'sm' }) {
  const { logoUrl, platformName: name } = branding();
  return (
    <Group gap="xs" wrap="nowrap">
      {logoUrl ? (
        // The name beside it says whose it is; an image that does not load leaves just the name.
        <img src={logoUrl} alt="" height={size} style={{ maxWidth: size * 5, objectFit: 'contain' }} data-testid="platform-logo" />
      ) : (
        <Logo size={size} />
      )}
      <Text fw={700} visibleFrom={nameVisibleFrom}>
        {name ?? 'Action Gateway'}
      </Text>
    </Group>
  );
}

/** "Back to <platform>", when PORTAL_RETURN_URL says where that is. */
export function BackToPlatform({ size = 'sm', variant = 'default' }: { size?: string; variant?: string }) {
  const { returnUrl } = branding();
  if (!returnUrl) return null;
  return (
    <Button component="a" href={returnUrl} size={size} variant={variant} leftSection={<IconArrowLeft size={16} aria-hidden />} data-testid="back-to-platform">
      Back to {platformName()}
    </Button>
  );
}
