import { t, type Lang } from '../../../platform/i18n/index.js';
import type { MachineRoomResponse } from '../../../newsroom/stories/evidence-schemas.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import { formatNumber } from '../format.js';
import { href, storyHref } from '../links.js';
import { Layout } from './layout.js';
import { Badge, TableWrap, When } from './parts.js';

type Review = MachineRoomResponse['attestations'][number];

function Reviews(props: { lang: Lang; id: string; title: string; reviews: Review[] }) {
  const { lang } = props;
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.reviews.length === 0 ? (
        <p>{t(lang, 'site.reviews.empty')}</p>
      ) : (
        <TableWrap label={props.title}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t(lang, 'site.col.bot')}</th>
                <th scope="col">{t(lang, 'site.col.weight')}</th>
                <th scope="col">{t(lang, 'site.col.confidence')}</th>
                <th scope="col">{t(lang, 'site.claims')}</th>
                <th scope="col">{t(lang, 'site.col.note')}</th>
                <th scope="col">{t(lang, 'site.col.date')}</th>
              </tr>
            </thead>
            <tbody>
              {props.reviews.map((r) => (
                <tr>
                  <td>
                    <code>{r.botId}</code>
                    {r.verified ? ` · ${t(lang, 'site.verifiedBot')}` : ''}
                  </td>
                  <td>{formatNumber(lang, r.weight)}</td>
                  <td>{r.confidence === null ? '–' : formatNumber(lang, r.confidence)}</td>
                  <td>{r.claimIds.length ? r.claimIds.join(', ') : t(lang, 'site.allClaims')}</td>
                  <td>{r.note ?? ''}</td>
                  <td>
                    <When lang={lang} at={r.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}

/** The evidence of a story as a page: reviews per packet hash, revision proposals and votes, the safety trace. */
export function MachineRoomPage(props: { lang: Lang; story: StoryResponse; room: MachineRoomResponse }) {
  const { lang, story, room } = props;
  const n = (value: number) => formatNumber(lang, value);
  const title = t(lang, 'site.machineRoom');
  const trace = room.safetyTrace;
  return (
    <Layout
      lang={lang}
      title={`${title} · ${story.title}`}
      section="story"
      meta={{ description: story.summary, ogType: 'article' }}
      path={`/stories/${encodeURIComponent(story.id)}/machine-room`}
    >
      <p>
        <a href={storyHref(story.id, lang)} lang={story.lang}>
          {story.title}
        </a>
      </p>
      <h1>{title}</h1>
      <p>{t(lang, 'site.machineRoom.intro')}</p>
      <dl class="facts">
        <dt>{t(lang, 'site.version', { version: room.version })}</dt>
        <dd>
          <a href={href(`/stories/${encodeURIComponent(story.id)}/versions`, lang)}>{t(lang, 'site.versions.compare')}</a>
        </dd>
        <dt>{t(lang, 'site.packetHash')}</dt>
        <dd>
          <code class="hash">{room.packetHash}</code>
        </dd>
      </dl>
      <Reviews
        lang={lang}
        id="attestations"
        title={t(lang, 'site.attestations', { count: n(room.attestations.length) })}
        reviews={room.attestations}
      />
      <Reviews
        lang={lang}
        id="objections"
        title={t(lang, 'site.objections', { count: n(room.objections.length) })}
        reviews={room.objections}
      />
      <p class="meta">
        {t(lang, 'site.olderReviews', {
          attestations: n(room.olderPacketReviews.attestations),
          objections: n(room.olderPacketReviews.objections),
        })}
      </p>
      <section aria-labelledby="proposals">
        <h2 id="proposals">{t(lang, 'site.proposals')}</h2>
        <p>
          {t(lang, 'gate.revision', {
            acceptVotes: n(room.revisionThresholds.acceptVotes),
            rejectVotes: n(room.revisionThresholds.rejectVotes),
          })}
        </p>
        {room.revisionProposals.length === 0 ? (
          <p>{t(lang, 'site.proposals.empty')}</p>
        ) : (
          <ol class="list">
            {room.revisionProposals.map((p) => (
              <li>
                <p>
                  <Badge kind={p.status} label={t(lang, `site.proposalStatus.${p.status}`)} /> <code>{p.botId}</code> ·{' '}
                  <When lang={lang} at={p.createdAt} />
                </p>
                <p>{p.rationale}</p>
                <p class="meta">
                  {t(lang, 'site.proposal.votes', { accept: n(p.votes.accept), reject: n(p.votes.reject) })}
                  {p.resultVersion === null ? '' : ` · ${t(lang, 'site.version', { version: p.resultVersion })}`}
                  {' · '}
                  {t(lang, 'site.packetHash')} <code class="hash">{p.basePacketHash}</code>
                </p>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="safety">
        <h2 id="safety">{t(lang, 'site.safety')}</h2>
        {trace ? (
          <>
            <p>
              <Badge kind={trace.decision} label={t(lang, `site.safetyDecision.${trace.decision}`)} /> ·{' '}
              <When lang={lang} at={trace.scannedAt} />
            </p>
            <h3>{t(lang, 'site.safety.rules')}</h3>
            {trace.rules.length === 0 && trace.categories.length === 0 ? (
              <p>{t(lang, 'site.safety.clean')}</p>
            ) : (
              <ul class="list">
                {[...trace.categories, ...trace.rules].map((entry) => (
                  <li>
                    <code>{typeof entry === 'string' ? entry : JSON.stringify(entry)}</code>
                  </li>
                ))}
              </ul>
            )}
          </>
        ) : (
          <p>{t(lang, 'site.safety.none')}</p>
        )}
      </section>
    </Layout>
  );
}
