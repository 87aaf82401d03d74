import { t, type Lang } from '../../words/index.js';
import type { MachineRoomResponse } from '../../../newsroom/stories/evidence-schemas.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import { formatNumber } from '../format.js';
import { href, storyHref } from '../links.js';
import type { BotNames } from '../service.js';
import { Layout } from './layout.js';
import { Badge, BotName, ClaimRef, Reference, TableWrap, When } from './parts.js';

type Review = MachineRoomResponse['attestations'][number];

type SafetyCategory =
  'CHILD_SEXUAL_CONTENT' | 'VIOLENT_THREAT' | 'DOXXING' | 'UNVERIFIED_HEALTH_CLAIM' | 'GRAPHIC_VIOLENCE' | 'BANNED_SOURCE';

/** A matched category of the safety trace (the API types the trace loosely: it is the scan's own record). */
interface MatchedCategory {
  category: SafetyCategory;
  action: 'BLOCK' | 'QUARANTINE';
}

interface ReviewsProps {
  lang: Lang;
  id: string;
  title: string;
  reviews: Review[];
  botNames: BotNames;
  story: StoryResponse;
}

function Reviews(props: ReviewsProps) {
  const { lang } = props;
  const storyPath = storyHref(props.story.id, lang);
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
                    <BotName lang={lang} botId={r.botId} name={props.botNames.get(r.botId)} />
                    {r.verified ? ` · ${t(lang, 'site.verifiedBot')}` : ''}
                  </td>
                  <td>{formatNumber(lang, r.weight)}</td>
                  <td>{r.confidence === null ? '–' : formatNumber(lang, r.confidence)}</td>
                  <td>
                    {r.claimIds.length
                      ? r.claimIds.map((id, i) => (
                          <>
                            {i > 0 ? ', ' : ''}
                            <ClaimRef lang={lang} claims={props.story.claims} id={id} storyPath={storyPath} />
                          </>
                        ))
                      : t(lang, 'site.allClaims')}
                  </td>
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
export function MachineRoomPage(props: { lang: Lang; story: StoryResponse; room: MachineRoomResponse; botNames: BotNames }) {
  const { lang, story, room, botNames } = props;
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
          <Reference summary={t(lang, 'site.hash.version', { version: room.version })}>
            <code class="hash">{room.packetHash}</code>
          </Reference>
        </dd>
      </dl>
      <Reviews
        lang={lang}
        id="attestations"
        title={t(lang, 'site.count.attestations', { count: room.attestations.length })}
        reviews={room.attestations}
        botNames={botNames}
        story={story}
      />
      <Reviews
        lang={lang}
        id="objections"
        title={t(lang, 'site.count.objections', { count: room.objections.length })}
        reviews={room.objections}
        botNames={botNames}
        story={story}
      />
      <p class="meta">
        {t(lang, 'site.olderReviews', {
          attestations: t(lang, 'site.count.attestations', { count: room.olderPacketReviews.attestations }),
          objections: t(lang, 'site.count.objections', { count: room.olderPacketReviews.objections }),
        })}
      </p>
      <section aria-labelledby="proposals">
        <h2 id="proposals">{t(lang, 'site.proposals')}</h2>
        <p>
          {t(lang, 'site.gate.revision', {
            accept: t(lang, 'site.count.acceptVotes', { count: room.revisionThresholds.acceptVotes }),
            reject: t(lang, 'site.count.rejectVotes', { count: room.revisionThresholds.rejectVotes }),
          })}
        </p>
        {room.revisionProposals.length === 0 ? (
          <p>{t(lang, 'site.proposals.empty')}</p>
        ) : (
          <ol class="list">
            {room.revisionProposals.map((p) => (
              <li>
                <p>
                  <Badge kind={p.status} label={t(lang, `site.proposalStatus.${p.status}`)} />{' '}
                  <BotName lang={lang} botId={p.botId} name={botNames.get(p.botId)} /> · <When lang={lang} at={p.createdAt} />
                </p>
                <p>{p.rationale}</p>
                <p class="meta">
                  {t(lang, 'site.proposal.votes', {
                    accept: t(lang, 'site.count.acceptVotes', { count: p.votes.accept }),
                    reject: t(lang, 'site.count.rejectVotes', { count: p.votes.reject }),
                  })}
                  {p.resultVersion === null ? '' : ` · ${t(lang, 'site.version', { version: p.resultVersion })}`}
                </p>
                <Reference
                  summary={t(lang, p.basePacketHash === room.packetHash ? 'site.proposal.base.current' : 'site.proposal.base.earlier')}
                >
                  <code class="hash">{p.basePacketHash}</code>
                </Reference>
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
            {trace.categories.length === 0 ? (
              <p>{t(lang, 'site.safety.clean')}</p>
            ) : (
              <ul class="list">
                {(trace.categories as MatchedCategory[]).map((c) => (
                  <li>
                    {t(lang, `site.safetyCategory.${c.category}`)} ·{' '}
                    <Badge kind={c.action} label={t(lang, `site.safetyDecision.${c.action}`)} />
                  </li>
                ))}
              </ul>
            )}
            <Reference summary={t(lang, 'site.safety.trace', { count: trace.rules.length })}>
              <ul class="list">
                {trace.rules.map((rule) => (
                  <li>
                    <code>{JSON.stringify(rule)}</code>
                  </li>
                ))}
              </ul>
            </Reference>
          </>
        ) : (
          <p>{t(lang, 'site.safety.none')}</p>
        )}
      </section>
    </Layout>
  );
}
