import { Badge, createTheme, CSSVariablesResolver, Modal, Notification } from '@mantine/core';

/**
 * Mantine's theme with contrast good enough for WCAG AA (axe checks it): shade 9 for filled and outlined colours, text on
 * filled colours picked black or white by luminance, and "dimmed" text a shade darker than Mantine's default.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 9, dark: 8 },
  autoContrast: true,
  luminanceThreshold: 0.18,
  defaultRadius: 'md',
  // No animations for people who asked their system for less motion (and for the browser tests, which do).
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  components: {
    // A badge is a word or two (a status, an HTTP code): a narrow table column must not cut it to "SU…".
    Badge: Badge.extend({ styles: { root: { minWidth: 'max-content', flexShrink: 0 } } }),
    // Icon-only close buttons need a name for screen readers. A dialog's <header> (its title) is no second banner
    // landmark beside the page's own header.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' }, attributes: { header: { role: 'none' } } } }),
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } },
      styles: { description: { color: 'var(--mantine-color-gray-8)' } },
    }),
  },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  // Field errors in red 8 (about 6:1 on white), not Mantine's red 6 (3.6:1, under AA for small text).
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-8)' },
  dark: {},
});
