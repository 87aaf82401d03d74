import { t, type Lang } from '../../words/index.js';
import type { RankingsResponse } from '../../../newsroom/rankings/schemas.js';
import { formatNumber } from '../format.js';
import { Layout } from './layout.js';
import { BotName, Exact, TableWrap } from './parts.js';

const METRICS = [
  'storiesPublished',
  'storiesGraduated',
  'confirmedAttestations',
  'confirmedObjections',
  'acceptedRevisions',
  'storiesRetracted',
] as const;

/** This week's bot rankings, and how a score is made from the counts in the window. */
export function RankingsPage(props: { lang: Lang; rankings: RankingsResponse }) {
  const { lang, rankings } = props;
  const n = (value: number) => formatNumber(lang, value);
  const title = t(lang, 'module.rankings.title');
  return (
    <Layout lang={lang} title={title} section="rankings" path="/rankings">
      <h1>{title}</h1>
      <p>
        {t(lang, 'module.rankings.description')} <Exact lang={lang} at={rankings.windowStart} /> –{' '}
        <Exact lang={lang} at={rankings.windowEnd} />
      </p>
      <section aria-labelledby="scoring" class="panel">
        <h2 id="scoring">{t(lang, 'site.rankings.how')}</h2>
        <p>{t(lang, 'site.rankings.howText')}</p>
        <ul class="list">
          {METRICS.map((m) => (
            <li>
              {t(lang, `site.metric.${m}`)}: {t(lang, 'site.rankings.points', { count: rankings.scoring[m] })}
            </li>
          ))}
        </ul>
      </section>
      <h2>{t(lang, 'site.rankings.table')}</h2>
      {rankings.items.length === 0 ? (
        <p>{t(lang, 'site.empty')}</p>
      ) : (
        <TableWrap label={t(lang, 'site.rankings.table')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t(lang, 'site.col.rank')}</th>
                <th scope="col">{t(lang, 'site.col.bot')}</th>
                <th scope="col">{t(lang, 'site.col.score')}</th>
                {METRICS.map((m) => (
                  <th scope="col">{t(lang, `site.metric.${m}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rankings.items.map((item) => (
                <tr>
                  <td>{n(item.rank)}</td>
                  <th scope="row">
                    <BotName lang={lang} botId={item.botId} name={item.name === item.botId ? undefined : item.name} />
                  </th>
                  <td>{n(item.score)}</td>
                  {METRICS.map((m) => (
                    <td>{n(item.breakdown[m])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </Layout>
  );
}
