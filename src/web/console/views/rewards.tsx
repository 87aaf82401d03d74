import type { Static } from '@sinclair/typebox';
import type { ComponentChildren } from 'preact';
import { t, type Lang } from '../../words/index.js';
import type { RewardsPolicy } from '../../../rewards/policy/schemas.js';
import { href } from '../../site/links.js';
import type { ConsoleArea } from '../access.js';
import { ROLES, rateText, type PolicyChange, type PolicyInput } from '../rewards-policy.js';
import { ConsoleLayout } from './layout.js';
import { ActionForm, Field, SectionNav, When } from './parts.js';

type Policy = Static<typeof RewardsPolicy>;
export type RewardsSection = 'policy' | 'settlements' | 'review' | 'freezes' | 'claims';

const SECTION_PATHS: Record<RewardsSection, string> = {
  policy: '/console/rewards',
  settlements: '/console/rewards/settlements',
  review: '/console/rewards/review',
  freezes: '/console/rewards/freezes',
  claims: '/console/rewards/claims',
};

/** The frame of every rewards page: the console's layout, the area's heading and its sections. */
export function RewardsFrame(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  section: RewardsSection;
  title: string;
  path: string;
  query?: Record<string, string | number | undefined>;
  children: ComponentChildren;
}) {
  const { lang } = props;
  return (
    <ConsoleLayout lang={lang} title={props.title} areas={props.areas} area="rewards" path={props.path} query={props.query}>
      <h1>{props.title}</h1>
      <SectionNav
        label={t(lang, 'console.rewards.sections')}
        links={(Object.keys(SECTION_PATHS) as RewardsSection[]).map((section) => ({
          href: href(SECTION_PATHS[section], lang),
          text: t(lang, `console.rewards.section.${section}`),
          current: section === props.section,
        }))}
      />
      {props.children}
    </ConsoleLayout>
  );
}

/** An amount both ways: in orbs (display units, exact) and in integer base units, as the API holds it. */
export const Money = (props: { lang: Lang; amount: { display: string; base: string } }) => (
  <span class="money">
    {t(props.lang, 'console.rewards.orbs', { amount: props.amount.display })}
    <br />
    <small>{t(props.lang, 'console.rewards.baseUnits', { base: props.amount.base })}</small>
  </span>
);

const percent = (ppm: number) => `${rateText(ppm * 100)} %`;
const fieldLabel = (lang: Lang, field: string) =>
  field === 'status' ? t(lang, 'console.status') : field === 'escrowRate' ? t(lang, 'console.rewards.escrowRate') : roleLabel(lang, field);
export const roleLabel = (lang: Lang, role: string) => t(lang, `console.rewardRole.${role as (typeof ROLES)[number]}`);

/** The policy in force, and the form of a change (which goes to the confirm page first). */
export function RewardsPolicyPage(props: { lang: Lang; areas: readonly ConsoleArea[]; policy: Policy }) {
  const { lang, policy } = props;
  const rows: Array<[string, number]> = [
    ['escrowRate', policy.escrowRatePpm],
    ...ROLES.map((r): [string, number] => [r, policy.roleSplitsPpm[r]]),
  ];
  return (
    <RewardsFrame lang={lang} areas={props.areas} section="policy" title={t(lang, 'console.area.rewards')} path="/console/rewards">
      <section aria-labelledby="policy">
        <h2 id="policy">{t(lang, 'console.rewards.policy')}</h2>
        <p class={policy.status === 'ACTIVE' ? 'tag-ok' : 'tag-bad'}>{t(lang, `console.policyStatus.${policy.status}`)}</p>
        <table>
          <caption>
            {t(lang, 'console.rewards.policyVersion', { version: policy.version })} <When lang={lang} at={policy.updatedAt} />
          </caption>
          <thead>
            <tr>
              <th scope="col">{t(lang, 'console.rewards.field')}</th>
              <th scope="col">{t(lang, 'console.rewards.rate')}</th>
              <th scope="col">{t(lang, 'console.rewards.percent')}</th>
              <th scope="col">{t(lang, 'console.rewards.ppm')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([field, ppm]) => (
              <tr>
                <th scope="row">{fieldLabel(lang, field)}</th>
                <td class="num">{rateText(ppm)}</td>
                <td class="num">{percent(ppm)}</td>
                <td class="num">{ppm}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="meta">{t(lang, 'console.rewards.splitsText')}</p>
        <p class="meta">{t(lang, 'console.rewards.units', { decimals: policy.tokenDecimals })}</p>
      </section>

      <section aria-labelledby="change">
        <h2 id="change">{t(lang, 'console.rewards.changePolicy')}</h2>
        <p>{t(lang, 'console.rewards.changeText')}</p>
        <ActionForm
          lang={lang}
          action="/console/rewards/policy/preview"
          back={href('/console/rewards', lang)}
          submit={t(lang, 'console.rewards.showChange')}
          class="console-form stacked"
        >
          <Field id="policy-status" label={t(lang, 'console.status')}>
            <select id="policy-status" name="status">
              {(['ACTIVE', 'PAUSED', 'DISABLED'] as const).map((status) => (
                <option value={status} selected={status === policy.status}>
                  {t(lang, `console.policyStatus.${status}`)}
                </option>
              ))}
            </select>
          </Field>
          {rows.map(([field, ppm]) => (
            <Field id={`policy-${field}`} label={fieldLabel(lang, field)} hint={t(lang, 'console.rewards.rateHint')}>
              <input
                id={`policy-${field}`}
                name={field}
                value={rateText(ppm)}
                required
                inputMode="decimal"
                pattern="[0-9]+(\.[0-9]+)?"
                maxLength={100}
                aria-describedby={`policy-${field}-hint`}
              />
            </Field>
          ))}
          <Field id="policy-reason" label={t(lang, 'console.rewards.reasonOptional')}>
            <input id="policy-reason" name="reason" maxLength={500} />
          </Field>
        </ActionForm>
      </section>
    </RewardsFrame>
  );
}

/** The confirm step: each field now and after the change; "Apply" sends exactly these values. */
export function RewardsPolicyConfirmPage(props: {
  lang: Lang;
  areas: readonly ConsoleArea[];
  policy: Policy;
  change: PolicyChange;
  input: PolicyInput;
}) {
  const { lang, policy, change } = props;
  const after = Object.fromEntries(change.fields.map((f) => [f.field, f.after]));
  return (
    <RewardsFrame lang={lang} areas={props.areas} section="policy" title={t(lang, 'console.rewards.confirmPolicy')} path="/console/rewards">
      <p>{t(lang, 'console.rewards.confirmText', { version: policy.version, next: policy.version + 1 })}</p>
      <table>
        <caption>{t(lang, 'console.rewards.theChange')}</caption>
        <thead>
          <tr>
            <th scope="col">{t(lang, 'console.rewards.field')}</th>
            <th scope="col">{t(lang, 'console.rewards.now')}</th>
            <th scope="col">{t(lang, 'console.rewards.after')}</th>
            <th scope="col">{t(lang, 'console.rewards.change')}</th>
          </tr>
        </thead>
        <tbody>
          {change.fields.map((f) => {
            const shown = (value: string) => (f.field === 'status' ? t(lang, `console.policyStatus.${value as Policy['status']}`) : value);
            return (
              <tr class={f.changed ? 'changed' : undefined}>
                <th scope="row">{fieldLabel(lang, f.field)}</th>
                <td class="num">{shown(f.before)}</td>
                <td class="num">{shown(f.after)}</td>
                <td class={f.changed ? 'tag-warn' : undefined}>
                  {f.changed ? `${shown(f.before)} → ${shown(f.after)}` : t(lang, 'console.rewards.unchanged')}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {props.input.reason?.trim() ? <p>{t(lang, 'console.rewards.withReason', { reason: props.input.reason.trim() })}</p> : null}
      <ActionForm
        lang={lang}
        action="/console/rewards/policy"
        back={href('/console/rewards', lang)}
        submit={t(lang, 'console.rewards.apply')}
      >
        {(['status', 'escrowRate', ...ROLES] as const).map((field) => (
          <input type="hidden" name={field} value={after[field]} />
        ))}
        <input type="hidden" name="reason" value={props.input.reason ?? ''} />
        <input type="hidden" name="baseVersion" value={String(policy.version)} />
      </ActionForm>
      <p>
        <a href={href('/console/rewards', lang)}>{t(lang, 'console.rewards.keepPolicy')}</a>
      </p>
    </RewardsFrame>
  );
}
