/**
 * Colours as semantic tokens, never literals in screens. Ink 8 ignores NO_COLOR (it reads
 * FORCE_COLOR only), so the no-colour theme is chosen here from the environment, and
 * FORCE_COLOR=0 is set before Ink loads so its own components (and chalk) stay plain too.
 * TERM=dumb also turns off animation (spinners become a static mark).
 */
export interface Theme {
  color: boolean;
  animate: boolean;
  /** Ink colour names, or undefined for the terminal's default */
  accent: string | undefined;
  muted: string | undefined;
  success: string | undefined;
  warning: string | undefined;
  danger: string | undefined;
  /** the SANDBOX badge */
  badge: string | undefined;
}

const COLOURS: Theme = {
  color: true,
  animate: true,
  accent: 'cyan',
  muted: 'gray',
  success: 'green',
  warning: 'yellow',
  danger: 'red',
  badge: 'magenta',
};

const PLAIN: Theme = {
  color: false,
  animate: true,
  accent: undefined,
  muted: undefined,
  success: undefined,
  warning: undefined,
  danger: undefined,
  badge: undefined,
};

/** no-color.org: any non-empty NO_COLOR; FORCE_COLOR=0 as chalk reads it; TERM=dumb. */
export function themeFor(env: NodeJS.ProcessEnv): Theme {
  const dumb = env.TERM === 'dumb';
  const noColour =
    (env.NO_COLOR !== undefined && env.NO_COLOR !== '') || env.FORCE_COLOR === '0' || dumb;
  const base = noColour ? PLAIN : COLOURS;
  return { ...base, animate: !dumb };
}
