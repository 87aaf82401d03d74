import { t, type Lang } from '../../words/index.js';
import { LEDGER_BUCKETS, type LedgerEventsResponse } from '../../../newsroom/ledger/schemas.js';
import { href, storyHref } from '../links.js';
import { Layout } from './layout.js';
import { Badge, More, TableWrap, When } from './parts.js';

/** The public ledger: one bucket or all, newest first, paged with the ledger's cursor. */
export function LedgerPage(props: { lang: Lang; bucket: string | undefined; limit: number | undefined; page: LedgerEventsResponse }) {
  const { lang, bucket, limit, page } = props;
  const title = t(lang, 'module.ledger.title');
  return (
    <Layout lang={lang} title={title} section="ledger" path="/ledger" query={{ filters: bucket, limit }}>
      <h1>{title}</h1>
      <p>{t(lang, 'module.ledger.description')}</p>
      <nav aria-label={t(lang, 'site.ledger.buckets')}>
        <ul class="chips">
          <li>
            <a href={href('/ledger', lang)} aria-current={bucket === undefined ? 'page' : undefined}>
              {t(lang, 'site.ledger.all')}
            </a>
          </li>
          {LEDGER_BUCKETS.map((b) => (
            <li>
              <a href={href('/ledger', lang, { filters: b })} aria-current={b === bucket ? 'page' : undefined}>
                {t(lang, `ledgerBucket.${b}`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {page.events.length === 0 ? (
        <p>{t(lang, 'site.empty')}</p>
      ) : (
        <TableWrap label={title}>
          <table>
            <caption class="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t(lang, 'site.col.date')}</th>
                <th scope="col">{t(lang, 'site.col.event')}</th>
                <th scope="col">{t(lang, 'site.col.story')}</th>
                <th scope="col">{t(lang, 'site.label.state')}</th>
                <th scope="col">{t(lang, 'site.col.bucket')}</th>
              </tr>
            </thead>
            <tbody id="ledger-events">
              {page.events.map((e) => (
                <tr>
                  <td>
                    <When lang={lang} at={e.createdAt} />
                  </td>
                  <td>
                    <Badge kind={e.type} label={t(lang, `ledgerType.${e.type}`)} />
                  </td>
                  <td>
                    <a href={storyHref(e.storyId, lang)}>{e.title}</a>
                    {e.rewardWindowActive ? <span class="meta"> · {t(lang, 'site.ledger.rewardWindowOpen')}</span> : null}
                  </td>
                  <td>{t(lang, `state.${e.storyState}`)}</td>
                  <td>{t(lang, `ledgerBucket.${e.ledgerBucket}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <More
        lang={lang}
        list="ledger-events"
        href={page.nextCursor ? href('/ledger', lang, { filters: bucket, limit, cursor: page.nextCursor }) : undefined}
        label={t(lang, 'site.ledger.older')}
      />
    </Layout>
  );
}
