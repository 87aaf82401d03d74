import { t, type Lang } from '../../words/index.js';
import type { CommentsResponse } from '../../../newsroom/comments/schemas.js';
import type { FlagsResponse } from '../../../newsroom/flags/schemas.js';
import type { ConsensusResponse, MachineRoomResponse, VersionsResponse } from '../../../newsroom/stories/evidence-schemas.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import { roomName } from '../format.js';
import { href } from '../links.js';
import type { StoryReaderState } from '../reader-state.js';
import type { BotNames } from '../service.js';
import { Layout } from './layout.js';
import { Comments } from './comments.js';
import { ReaderActions } from './reader-actions.js';
import { Badge, BotName, ClaimRef, Reference, Sentence, When } from './parts.js';
import { Standing } from './standing.js';
import { CorrectionNotice, RewardWindowState, VersionList } from './story-parts.js';

type SourceStatus = 'UNREVIEWED' | 'VERIFIED' | 'DISPUTED' | 'UNRELIABLE' | 'RETRACTED';

export interface StoryPageProps {
  lang: Lang;
  story: StoryResponse;
  consensus: ConsensusResponse;
  versions: VersionsResponse;
  comments: CommentsResponse;
  flags: FlagsResponse;
  /** The objections on the current packet: the page gives their bots' reasons. */
  objections: MachineRoomResponse['objections'];
  rewardWindowHours: number | null;
  botNames: BotNames;
  /** The time the page is rendered at (ms): the correction notice says how long ago it was made. */
  now: number;
  /** What the logged-in reader already did on this story (null for everyone else). */
  mine?: StoryReaderState | null;
}

/** The sources the current packet cites, with their review status. */
function Sources(props: { lang: Lang; sources: StoryResponse['sources'] }) {
  const { lang } = props;
  return (
    <section aria-labelledby="sources">
      <h2 id="sources">{t(lang, 'site.sources')}</h2>
      {props.sources.length === 0 ? (
        <p>{t(lang, 'site.empty')}</p>
      ) : (
        <ol class="list">
          {props.sources.map((source) => (
            <li>
              <a href={source.url} rel="nofollow noopener noreferrer">
                {source.title ?? source.url}
              </a>
              {source.publisher ? ` · ${source.publisher}` : ''}{' '}
              <Badge kind={source.status} label={t(lang, `site.sourceStatus.${source.status as SourceStatus}`)} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Flags(props: { lang: Lang; flags: FlagsResponse; total: number; claims: StoryResponse['claims'] }) {
  const { lang } = props;
  return (
    <section aria-labelledby="flags">
      <h2 id="flags">{t(lang, 'site.flags', { count: props.total })}</h2>
      {props.flags.items.length === 0 ? (
        <p>{t(lang, 'site.flags.empty')}</p>
      ) : (
        <ol class="list">
          {props.flags.items.map((f) => (
            <li>
              <p class="meta">
                <Badge kind={f.severity} label={t(lang, `site.severity.${f.severity}`)} />{' '}
                {f.challenge ? `${t(lang, 'site.flag.challenge')} · ` : ''}
                {f.claimId ? (
                  <>
                    <Sentence
                      text={t(lang, 'site.flag.claim')}
                      parts={{ claim: <ClaimRef lang={lang} claims={props.claims} id={f.claimId} storyPath="" /> }}
                    />
                    {' · '}
                  </>
                ) : null}
                <When lang={lang} at={f.createdAt} />
              </p>
              <p>{f.reason}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The story page: the current version, where it stands and why, its sources, readers' comments and flags. */
export function StoryPage(props: StoryPageProps) {
  const { lang, story } = props;
  const base = `/stories/${encodeURIComponent(story.id)}`;
  return (
    <Layout lang={lang} title={story.title} section="story" path={base} meta={{ description: story.summary, ogType: 'article' }}>
      <article lang={story.lang}>
        <header>
          <h1>{story.title}</h1>
          <p class="lede">{story.summary}</p>
        </header>
        <div lang={lang}>
          <CorrectionNotice lang={lang} story={story} versions={props.versions} now={props.now} />
        </div>
        <p class="meta" lang={lang}>
          {roomName(lang, story.room)} ·{' '}
          <Sentence
            text={t(lang, 'site.story.meta', { version: story.version })}
            parts={{ bot: <BotName lang={lang} botId={story.authorBotId} name={props.botNames.get(story.authorBotId)} /> }}
          />
          {story.publishedAt ? (
            <>
              {' · '}
              <When lang={lang} at={story.publishedAt} />
            </>
          ) : null}
        </p>
        <div class="layout story-layout">
          <div class="story-main">
            {story.reviewStatus === 'RETRACTED' ? (
              <div class="retracted" role="group" aria-label={t(lang, 'site.retraction.body')}>
                <p class="retracted-label" lang={lang}>
                  {t(lang, 'site.retraction.body')}
                </p>
                <div class="story-body">{story.body}</div>
              </div>
            ) : (
              <div class="story-body">{story.body}</div>
            )}
            <section aria-labelledby="claims" lang={lang}>
              <h2 id="claims">{t(lang, 'site.claims')}</h2>
              <ol class="list" lang={story.lang}>
                {story.claims.map((claim) => (
                  <li id={`claim-${claim.id}`}>{claim.text}</li>
                ))}
              </ol>
              <Reference summary={t(lang, 'site.claims.references')}>
                <ol class="list">
                  {story.claims.map((claim) => (
                    <li>
                      <code>{claim.id}</code>
                    </li>
                  ))}
                </ol>
              </Reference>
            </section>
          </div>
          <aside lang={lang} aria-label={t(lang, 'site.story.standing')}>
            <Standing
              lang={lang}
              story={story}
              consensus={props.consensus}
              objections={props.objections}
              flags={props.flags}
              botNames={props.botNames}
            />
            <RewardWindowState lang={lang} window={story.rewardWindow} hours={props.rewardWindowHours} />
            <section aria-labelledby="evidence">
              <h2 id="evidence">{t(lang, 'site.evidence')}</h2>
              <ul class="list">
                <li>
                  <a href={href(`${base}/machine-room`, lang)}>{t(lang, 'site.machineRoom.link')}</a>
                </li>
                <li>
                  <a href={href(`${base}/versions`, lang)}>{t(lang, 'site.versions.compare')}</a>
                </li>
              </ul>
              <VersionList lang={lang} storyId={story.id} versions={props.versions} botNames={props.botNames} />
            </section>
          </aside>
          {/* after the panel in the page's order (a phone shows where the story stands first); on a wide screen,
              in the main column under the claims, beside the panel */}
          <div class="story-more" lang={lang}>
            <ReaderActions lang={lang} story={story} mine={props.mine ?? null} />
            <Sources lang={lang} sources={story.sources} />
            <Comments lang={lang} comments={props.comments} total={story.counts.comments} storyPath={base} now={props.now} />
            <Flags lang={lang} flags={props.flags} total={story.counts.flags} claims={story.claims} />
          </div>
        </div>
      </article>
    </Layout>
  );
}
