/**
 * Reward-token amounts: integer base units (bigint) everywhere; display units only at the edges.
 * `REWARD_TOKEN_DECIMALS` base units make one display unit (one "orb").
 */

/** A plain or exponent decimal as JS prints a number (`12.5`, `1e-7`, `1.5e+21`). */
const DECIMAL = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/**
 * Display units to base units, exactly: null when the text is not a non-negative decimal or has more
 * fraction digits than the token has decimals (it would not be a whole number of base units).
 */
export function toBaseUnits(display: string, decimals: number): bigint | null {
  const match = DECIMAL.exec(display.trim());
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

/** An amount as the bodies show it (CONTRACT §1): display decimal and base-unit integer, both strings. */
export function amount(base: bigint, decimals: number): { display: string; base: string } {
  return { display: toDisplay(base, decimals), base: base.toString() };
}
