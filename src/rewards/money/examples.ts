/** Amounts for the examples of the rewards records (the worked example of docs/rewards.md: a pool of 1000 orbs). */

const ORB = 10n ** 18n;

/** An amount of `orbs` (a decimal string) as the service answers it: display units and base units. */
export function orbs(display: string): { display: string; base: string } {
  const [whole, fraction = ''] = display.split('.');
  return { display, base: (BigInt(whole!) * ORB + BigInt(fraction.padEnd(18, '0') || '0')).toString() };
}

export const amountExample = orbs('12.5');
