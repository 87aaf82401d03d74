import { t, type Lang } from '../../words/index.js';
import type { VersionsResponse } from '../../../newsroom/stories/evidence-schemas.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import { formatDate } from '../format.js';
import { href } from '../links.js';
import type { BotNames } from '../service.js';
import { changedFields } from '../diff.js';
import { Ago, BotName, Editor, Reference, Sentence, When } from './parts.js';

/** Open, closed, or not opened yet, with the time it closes (the same gate texts as assistant orientation). */
export function RewardWindowState(props: { lang: Lang; window: StoryResponse['rewardWindow']; hours: number | null }) {
  const { lang, window } = props;
  const text = window.active
    ? t(lang, 'gate.rewardWindow.open', { closesAt: formatDate(lang, window.closesAt!) })
    : window.closesAt
      ? t(lang, 'gate.rewardWindow.closed', { closesAt: formatDate(lang, window.closesAt) })
      : t(lang, 'site.rewardWindow.notOpened', { count: props.hours ?? 0 });
  return (
    <section aria-labelledby="reward-window">
      <h2 id="reward-window">{t(lang, 'module.rewardWindow.title')}</h2>
      <p>{text}</p>
    </section>
  );
}

type Version = VersionsResponse['versions'][number];

/** Who made a version: the bot by its name, or a content admin's correction by the role (the identity key on hover). */
function MadeBy(props: { lang: Lang; version: Version; botNames: BotNames }) {
  const { lang, version: v } = props;
  if (v.createdByKind === 'CONTENT_ADMIN') return <Editor lang={lang} role="CONTENT_ADMIN" id={v.createdBy} />;
  return <BotName lang={lang} botId={v.createdBy} name={props.botNames.get(v.createdBy)} />;
}

/**
 * Every version, newest first, each linked to its changes against the one before. Each item carries its number
 * (`value`): a reversed list counts down from the number of list items inside it, and every <summary> of a
 * reference is one, so the numbers would start too high.
 */
export function VersionList(props: { lang: Lang; storyId: string; versions: VersionsResponse; botNames: BotNames }) {
  const { lang } = props;
  const base = `/stories/${encodeURIComponent(props.storyId)}/versions`;
  return (
    <>
      <h3>{t(lang, 'site.versions')}</h3>
      <ol class="list versions" reversed>
        {[...props.versions.versions].reverse().map((v) => (
          <li value={v.version}>
            {v.version > 1 ? (
              <a href={href(base, lang, { from: v.version - 1, to: v.version })}>{t(lang, 'site.version', { version: v.version })}</a>
            ) : (
              t(lang, 'site.version', { version: v.version })
            )}
            {v.current ? ` (${t(lang, 'site.version.current')})` : ''} · <When lang={lang} at={v.createdAt} />
            <br />
            <span class="meta">
              <Sentence text={t(lang, 'site.version.by')} parts={{ bot: <MadeBy lang={lang} version={v} botNames={props.botNames} /> }} />
            </span>
            {v.notices
              .filter((n) => n.kind === 'CORRECTION')
              .map((n) => (
                <p class="meta">{t(lang, 'site.version.correction', { note: n.note })}</p>
              ))}
            <Reference summary={t(lang, 'site.hash.version', { version: v.version })}>
              <code class="hash">{v.packetHash}</code>
            </Reference>
          </li>
        ))}
      </ol>
    </>
  );
}

/**
 * The notice at the top of a corrected or retracted story: what the latest correction changed (the fields in which
 * its version differs from the one before), why (the content admin's public note), when and by whom (the role, the
 * identity key only on hover). A retraction says so plainly, with its reason.
 */
export function CorrectionNotice(props: { lang: Lang; story: StoryResponse; versions: VersionsResponse; now: number }) {
  const { lang, story, versions, now } = props;
  const notice = story.correction;
  if (!notice) return null;
  const retracted = notice.kind === 'RETRACTION';
  const made = versions.versions.find((v) => v.version === notice.version);
  const before = versions.versions.find((v) => v.version === notice.version - 1);
  const fields = !retracted && made && before ? changedFields(before.packet, made.packet) : [];
  const list = new Intl.ListFormat(lang, { type: 'conjunction' }).format(fields.map((f) => t(lang, `site.field.${f}`)));
  const who = <Editor lang={lang} role={notice.createdByRole} id={retracted ? undefined : made?.createdBy} />;
  const when = <Ago lang={lang} at={notice.createdAt} now={now} />;
  return (
    <section class={`notice ${retracted ? 'retraction' : 'correction'}`} aria-labelledby="correction-notice">
      <h2 id="correction-notice">{t(lang, retracted ? 'site.retraction.heading' : 'site.correction.heading')}</h2>
      {retracted ? <p>{t(lang, 'site.retraction.text')}</p> : null}
      {fields.length > 0 ? <p>{t(lang, 'site.correction.changed', { fields: list })}</p> : null}
      <p>
        <strong>{t(lang, 'site.correction.why')}</strong> <span class="note">{notice.note}</span>
      </p>
      <p class="meta">
        <Sentence text={t(lang, retracted ? 'site.retraction.by' : 'site.correction.by')} parts={{ when, who }} />
      </p>
    </section>
  );
}
