/**
 * Reward-token amounts: integer base units (bigint) everywhere; display units only at the edges.
 * `REWARD_TOKEN_DECIMALS` base units make one display unit (one "orb").
 */

/** A plain or exponent decimal, as JSON or JS writes a number (`12.5`, `1e-7`, `1.5e+21`, `1.5E21`). */
const DECIMAL = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;
/** Longer text is refused before any arithmetic: an amount below 10^60 base units needs far fewer characters. */
const MAX_TEXT = 100;

/**
 * Display units to base units, exactly: null when the text is not a non-negative decimal or is not a whole
 * number of base units (a non-zero digit past the token's decimals). Trailing zeros do not count:
 * `1.50` and `1.5` are the same amount. The text is read digit by digit, never through a float.
 */
export function toBaseUnits(display: string, decimals: number): bigint | null {
  if (display.length > MAX_TEXT) return null;
  const match = DECIMAL.exec(display);
  if (!match) return null;
  const [, whole, fraction = '', exponent = '0'] = match;
  const shift = Number(exponent);
  if (!Number.isSafeInteger(shift) || Math.abs(shift) > 400) return null;
  // digits × 10^(shift − fraction length) × 10^decimals must be an integer
  const digits = BigInt(whole! + fraction);
  const power = shift - fraction.length + decimals;
  if (power >= 0) return digits * 10n ** BigInt(power);
  const divisor = 10n ** BigInt(-power);
  return digits % divisor === 0n ? digits / divisor : null;
}

/** Base units to the shortest display decimal (`12500000000000000000` → `12.5` at 18 decimals). */
export function toDisplay(base: bigint, decimals: number): string {
  const negative = base < 0n;
  const text = (negative ? -base : base).toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** An amount as the bodies show it: display decimal and base-unit integer, both strings. */
export function amount(base: bigint, decimals: number): { display: string; base: string } {
  return { display: toDisplay(base, decimals), base: base.toString() };
}

/** A plain decimal text cut to at most `decimals` decimals (rounded down): `2.567` at 2 is `2.56`. */
export function truncateDecimals(display: string, decimals: number): string {
  const [whole, fraction = ''] = display.split('.');
  const kept = fraction.slice(0, decimals);
  return kept ? `${whole}.${kept}` : whole!;
}
