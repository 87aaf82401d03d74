import { t, type Lang } from '../../words/index.js';
import type { VersionsResponse } from '../../../newsroom/stories/evidence-schemas.js';
import type { StoryResponse } from '../../../newsroom/stories/schemas.js';
import { formatDate } from '../format.js';
import { href } from '../links.js';
import type { BotNames } from '../service.js';
import { BotName, Reference, Sentence, When } from './parts.js';

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

/** Every version, newest first, each linked to its changes against the one before. */
export function VersionList(props: { lang: Lang; storyId: string; versions: VersionsResponse; botNames: BotNames }) {
  const { lang } = props;
  const base = `/stories/${encodeURIComponent(props.storyId)}/versions`;
  return (
    <>
      <h3>{t(lang, 'site.versions')}</h3>
      <ol class="list" reversed>
        {[...props.versions.versions].reverse().map((v) => (
          <li>
            {v.version > 1 ? (
              <a href={href(base, lang, { from: v.version - 1, to: v.version })}>{t(lang, 'site.version', { version: v.version })}</a>
            ) : (
              t(lang, 'site.version', { version: v.version })
            )}
            {v.current ? ` (${t(lang, 'site.version.current')})` : ''} · <When lang={lang} at={v.createdAt} />
            <br />
            <span class="meta">
              <Sentence
                text={t(lang, 'site.version.by')}
                parts={{ bot: <BotName lang={lang} botId={v.createdBy} name={props.botNames.get(v.createdBy)} /> }}
              />
            </span>
            <Reference summary={t(lang, 'site.hash.version', { version: v.version })}>
              <code class="hash">{v.packetHash}</code>
            </Reference>
          </li>
        ))}
      </ol>
    </>
  );
}
