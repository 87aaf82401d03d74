import { t, type Lang } from '../../words/index.js';
import type { FlagsResponse } from '../../../newsroom/flags/schemas.js';
import type { ConsensusResponse, MachineRoomResponse } from '../../../newsroom/stories/evidence-schemas.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import { formatNumber, formatPercent } from '../format.js';
import { href } from '../links.js';
import type { BotNames } from '../service.js';
import { Badge, BotName, ClaimRef, Sentence, When } from './parts.js';

type Snapshot = ConsensusResponse['snapshot'];
type Review = MachineRoomResponse['objections'][number];

/**
 * What would move the review status, from the snapshot's weights and the thresholds it applied (the rule of
 * newsroom/consensus/review-status.ts, said the other way round): how much more attestation weight makes an
 * emerging story clear, how much objection weight would contest a clear one, what share keeps a contested one so.
 */
export function whatWouldChange(lang: Lang, status: StoryResponse['reviewStatus'], s: Snapshot): string {
  const n = (value: number) => formatNumber(lang, value);
  const att = s.attestations.weight;
  const obj = s.objections.weight;
  const { minAttestations, minObjections, contestedObjectionRatio: ratio } = s.thresholds;
  switch (status) {
    case 'EMERGING':
      return t(lang, 'site.why.emerging', { missing: n(Math.max(minAttestations - att, 0)), have: n(att), need: n(minAttestations) });
    case 'CLEAR': {
      // the least objection weight o with o >= minObjections and o / (att + o) >= ratio
      const contestAt = Math.max(minObjections, ratio < 1 ? Math.ceil((ratio * att) / (1 - ratio)) : Infinity);
      return Number.isFinite(contestAt)
        ? t(lang, 'site.why.clear', { contestAt: n(contestAt), have: n(obj) })
        : t(lang, 'site.why.clearForGood');
    }
    case 'CONTESTED':
      return t(lang, 'site.why.contested', {
        share: formatPercent(lang, att + obj > 0 ? obj / (att + obj) : 0),
        ratio: formatPercent(lang, ratio),
      });
    case 'UNDER_REVIEW':
      return t(lang, 'site.why.underReview');
    default:
      return t(lang, 'site.why.retracted');
  }
}

/** The objecting bots and what they said, each with the claims it names. */
function Objections(props: { lang: Lang; story: StoryResponse; objections: Review[]; botNames: BotNames }) {
  const { lang, story } = props;
  if (props.objections.length === 0) return null;
  return (
    <>
      <h3>{t(lang, 'site.why.objections')}</h3>
      <ul class="list reasons">
        {props.objections.map((r) => (
          <li>
            <Sentence
              text={t(lang, 'site.why.objection', { weight: formatNumber(lang, r.weight) })}
              parts={{ bot: <BotName lang={lang} botId={r.botId} name={props.botNames.get(r.botId)} /> }}
            />{' '}
            {r.claimIds.map((id) => (
              <>
                <ClaimRef lang={lang} claims={story.claims} id={id} storyPath="" />{' '}
              </>
            ))}
            {r.note ? <q lang={story.lang}>{r.note}</q> : <span class="meta">{t(lang, 'site.why.noReason')}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The challenges (a verified reader's high-severity flag on a claim) and what they say. */
function Challenges(props: { lang: Lang; story: StoryResponse; flags: FlagsResponse }) {
  const { lang, story } = props;
  const challenges = props.flags.items.filter((f) => f.challenge && f.claimId);
  if (challenges.length === 0) return null;
  return (
    <>
      <h3>{t(lang, 'site.why.challenges')}</h3>
      <ul class="list reasons">
        {challenges.map((f) => {
          const claim = story.claims.find((c) => c.id === f.claimId);
          return (
            <li>
              {claim ? (
                <q lang={story.lang} title={claim.id}>
                  {claim.text}
                </q>
              ) : (
                <ClaimRef lang={lang} claims={story.claims} id={f.claimId!} storyPath="" />
              )}{' '}
              — {f.reason} <When lang={lang} at={f.createdAt} />
            </li>
          );
        })}
      </ul>
    </>
  );
}

/**
 * The mark of a story some of whose attestations came from bots the collusion analysis flagged in one cluster
 * with its author: how many, the weight it took away, and a link to what that means.
 */
export function CollusionMark(props: { lang: Lang; snapshot: Snapshot }) {
  const { lang } = props;
  const discount = props.snapshot.clusterDiscount;
  if (!discount?.applied || discount.attestations === 0) return null;
  return (
    <p class="notice collusion">
      <strong>{t(lang, 'site.collusion.mark')}</strong>{' '}
      {t(lang, 'site.collusion.body', { count: discount.attestations, removed: formatNumber(lang, discount.weightRemoved) })}{' '}
      <a href={`${href('/how-it-works', lang)}#collusion`}>{t(lang, 'site.collusion.link')}</a>
    </p>
  );
}

/**
 * Where the story stands and why, in plain words: its stage and review status, what would change the status,
 * the objecting bots' reasons, the challenges' text, and the collusion mark; the tally and the thresholds follow.
 */
export function Standing(props: {
  lang: Lang;
  story: StoryResponse;
  consensus: ConsensusResponse;
  objections: Review[];
  flags: FlagsResponse;
  botNames: BotNames;
}) {
  const { lang, story, consensus } = props;
  const s = consensus.snapshot;
  const n = (value: number) => formatNumber(lang, value);
  const th = s.thresholds;
  return (
    <section class="panel" aria-labelledby="standing">
      <h2 id="standing">{t(lang, 'site.story.standing')}</h2>
      <dl class="facts status">
        <dt>{t(lang, 'site.label.publicationStage')}</dt>
        <dd>
          <Badge kind={story.publicationStage} label={story.labels.publicationStage} /> {t(lang, `site.stage.${story.publicationStage}`)}
        </dd>
        <dt>{t(lang, 'site.label.reviewStatus')}</dt>
        <dd>
          <Badge kind={story.reviewStatus} label={story.labels.reviewStatus} /> {t(lang, `site.review.${story.reviewStatus}`)}
        </dd>
      </dl>
      <p class="why">{whatWouldChange(lang, story.reviewStatus, s)}</p>
      <CollusionMark lang={lang} snapshot={s} />
      <Objections lang={lang} story={story} objections={props.objections} botNames={props.botNames} />
      <Challenges lang={lang} story={story} flags={props.flags} />
      <details>
        <summary>{t(lang, 'site.why.numbers')}</summary>
        <p>
          {t(lang, 'site.consensus.tally', {
            version: n(s.version),
            attestations: t(lang, 'site.count.attestations', { count: s.attestations.count }),
            attestationWeight: n(s.attestations.weight),
            objections: t(lang, 'site.count.objections', { count: s.objections.count }),
            objectionWeight: n(s.objections.weight),
          })}{' '}
          {t(lang, 'site.consensus.flags', { flags: t(lang, 'site.count.flags', { count: s.flags.count }), high: n(s.flags.high) })}
        </p>
        <h3>{t(lang, 'site.thresholds')}</h3>
        <ul class="list">
          <li>{t(lang, 'site.gate.clear', { minAttestations: n(th.minAttestations) })}</li>
          <li>
            {t(lang, 'site.gate.contested', { minObjections: n(th.minObjections), ratio: formatPercent(lang, th.contestedObjectionRatio) })}
          </li>
          <li>{t(lang, 'site.gate.graduation', { min: n(th.graduationMinAttestations) })}</li>
        </ul>
      </details>
      <p>
        {t(lang, s.graduation.gateMet ? 'site.graduation.met' : 'site.graduation.notMet')}{' '}
        {t(lang, s.graduation.humanActionRecorded ? 'site.humanAction.recorded' : 'site.humanAction.missing')}
      </p>
      <p class="meta">
        {consensus.source === 'neutral' ? t(lang, 'site.consensus.neutral') : null}
        {consensus.currentPacket ? null : t(lang, 'site.consensus.stale')} {t(lang, 'site.consensus.computed')}{' '}
        <When lang={lang} at={consensus.computedAt} />
      </p>
    </section>
  );
}
